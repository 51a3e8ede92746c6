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

  /** Keeps why a page failed; a page reported again (from its checkpoint, on a resumed run) keeps its first row. */
  async recordPageFailure(
    conn: Conn,
    jobId: string,
    page: number,
    reason: string,
    now: string,
  ): Promise<void> {
    await conn
      .insertInto('job_page_failures')
      .values({ job_id: jobId, page, reason, created_at: now })
      .onConflict((conflict) => conflict.columns(['job_id', 'page']).doNothing())
      .execute();
  }

  /** Every failed page of the job with its reason, in page order. */
  async pageFailures(conn: Conn, jobId: string): Promise<{ page: number; reason: string }[]> {
    return conn
      .selectFrom('job_page_failures')
      .select(['page', 'reason'])
      .where('job_id', '=', jobId)
      .orderBy('page')
      .execute();
  }

  /** The reason of the job's first failed page, if any page failed. */
  async firstPageFailure(conn: Conn, jobId: string): Promise<string | undefined> {
    const row = await conn
      .selectFrom('job_page_failures')
      .select('reason')
      .where('job_id', '=', jobId)
      .orderBy('page')
      .limit(1)
      .executeTakeFirst();
    return row?.reason;
  }

  async countRefund(conn: Conn, id: string): Promise<void> {
    await conn
      .updateTable('jobs')
      .set((eb) => ({ credits_refunded: eb('credits_refunded', '+', 1) }))
      .where('id', '=', id)
      .execute();
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
}
