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

  /** A trivial read of the jobs table (the queue's readiness check). */
  async probe(conn: Conn): Promise<void> {
    await conn.selectFrom('jobs').select('id').limit(1).execute();
  }

  /** Up to `limit` active jobs with no lease or an expired one, in claiming order (priority, then age). */
  async claimable(conn: Conn, nowIso: string, limit: number): Promise<string[]> {
    const rows = await conn
      .selectFrom('jobs')
      .select('id')
      .where('status', 'in', ACTIVE_STATUSES)
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', nowIso)]))
      .orderBy('priority', 'desc')
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Takes the lease of a job that is still active and unleased (or expired); false when another took it. */
  async takeLease(conn: Conn, id: string, owner: string, until: string, nowIso: string): Promise<boolean> {
    const result = await conn
      .updateTable('jobs')
      .set({ lease_owner: owner, lease_expires_at: until })
      .where('id', '=', id)
      .where('status', 'in', ACTIVE_STATUSES)
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', nowIso)]))
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Extends the owner's lease; false when another worker took the job over. */
  async renewLease(conn: Conn, id: string, owner: string, until: string): Promise<boolean> {
    const result = await conn
      .updateTable('jobs')
      .set({ lease_expires_at: until })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Gives the owner's lease back; the job is claimable again from `claimableFrom` (null: at once). */
  async releaseLease(conn: Conn, id: string, owner: string, claimableFrom: string | null): Promise<void> {
    await conn
      .updateTable('jobs')
      .set({ lease_owner: null, lease_expires_at: claimableFrom })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }
}
