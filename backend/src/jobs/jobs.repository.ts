// Queries of the `jobs` table. Every function takes the connection or transaction it runs in.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ACTIVE_STATUSES, type JobsTable } from './jobs.tables.js';

type Conn = Kysely<Database>;

export type JobRow = JobsTable;

export interface JobCounters {
  current_page: number;
  successful_pages: number;
  failed_pages: number;
}

export class JobsRepository {
  async insert(conn: Conn, row: JobRow): Promise<void> {
    await conn.insertInto('jobs').values(row).execute();
  }

  async find(conn: Conn, id: string): Promise<JobRow | undefined> {
    return conn.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findActiveForFile(conn: Conn, originalFileId: string): Promise<JobRow | undefined> {
    return conn
      .selectFrom('jobs')
      .selectAll()
      .where('original_file_id', '=', originalFileId)
      .where('status', 'in', ACTIVE_STATUSES)
      .executeTakeFirst();
  }

  /** Jobs not finished yet, oldest first (re-enqueued when a BullMQ worker starts). */
  async listActive(conn: Conn): Promise<Pick<JobRow, 'id' | 'priority'>[]> {
    return conn
      .selectFrom('jobs')
      .select(['id', 'priority'])
      .where('status', 'in', ACTIVE_STATUSES)
      .orderBy('created_at', 'asc')
      .execute();
  }

  /** Counts one more run of an unfinished job and marks it running; undefined when it is already finished. */
  async beginAttempt(conn: Conn, id: string, now: string): Promise<JobRow | undefined> {
    const result = await conn
      .updateTable('jobs')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        status: 'running',
        started_at: eb.fn.coalesce('started_at', eb.val(now)),
        updated_at: now,
      }))
      .where('id', '=', id)
      .where('status', 'in', ACTIVE_STATUSES)
      .executeTakeFirst();
    if (result.numUpdatedRows !== 1n) return undefined;
    return conn.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async saveCounters(conn: Conn, id: string, counters: JobCounters, now: string): Promise<void> {
    await conn
      .updateTable('jobs')
      .set({ ...counters, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Moves a running job to its final state; false when it was already finished (another worker won). */
  async finish(
    conn: Conn,
    id: string,
    outcome: { status: 'completed' | 'failed'; restoredFileId: string | null; error: string | null },
    counters: JobCounters,
    now: string,
  ): Promise<boolean> {
    const result = await conn
      .updateTable('jobs')
      .set({
        ...counters,
        status: outcome.status,
        restored_file_id: outcome.restoredFileId,
        error: outcome.error,
        lease_owner: null,
        lease_expires_at: null,
        finished_at: now,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('status', 'in', ACTIVE_STATUSES)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Jobs queued and not yet started (all users). */
  async countQueued(conn: Conn): Promise<number> {
    const row = await conn
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** When the oldest queued job was created (ISO string), undefined when none waits. */
  async oldestQueuedAt(conn: Conn): Promise<string | undefined> {
    const row = await conn
      .selectFrom('jobs')
      .select((eb) => eb.fn.min('created_at').as('oldest'))
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return row?.oldest ? String(row.oldest) : undefined;
  }
}
