// Graceful drain of the database queue (the embedded worker on SIGTERM): stopWorkers(grace) stops taking jobs, tells
// the running handler to drain, lets it finish, and its job is released for another worker. Past the grace time
// the handler is aborted.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseJobQueue } from '../../src/jobs/database-queue.js';
import { JobsRepository } from '../../src/jobs/jobs.repository.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { insertUser } from './job-db.js';

let jobDb: TestDatabase;
let userId: string;
const repo = new JobsRepository();

beforeAll(async () => {
  jobDb = await createTestDatabase();
  userId = await insertUser(jobDb.db, 0);
});
afterAll(async () => {
  await jobDb.cleanup();
});

async function addJob(): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await repo.insert(jobDb.db, {
    id,
    user_id: userId,
    original_file_id: randomUUID(),
    status: 'queued',
    priority: 0,
    total_pages: 1,
    current_page: 0,
    successful_pages: 0,
    failed_pages: 0,
    credits_charged: 1,
    credits_refunded: 0,
    attempts: 0,
    lease_owner: null,
    lease_expires_at: null,
    restored_file_id: null,
    error: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    finished_at: null,
  });
  return id;
}

function started(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => undefined as void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('DatabaseJobQueue.stopWorkers(graceMs)', () => {
  it('lets the running handler see the drain, finish its page, and releases its job for another worker', async () => {
    const jobId = await addJob();
    const queue = new DatabaseJobQueue(jobDb.db, { leaseMs: 60_000, pollMs: 20, retryDelayMs: 0 });
    const running = started();
    let sawDrain = false;
    let aborted = false;
    queue.startWorkers(async (_id, signal, drain) => {
      running.resolve();
      await new Promise<void>((resolve) => drain.addEventListener('abort', () => resolve()));
      sawDrain = true;
      await new Promise((resolve) => setTimeout(resolve, 200)); // the page in progress
      aborted = signal.aborted;
      throw new Error('handed back');
    }, 1);
    await running.promise;
    await queue.stopWorkers(5_000);
    await queue.close();
    expect(sawDrain).toBe(true);
    expect(aborted).toBe(false);
    const row = await repo.find(jobDb.db, jobId);
    expect(row?.lease_owner).toBeNull();

    // Another worker takes it.
    const next = new DatabaseJobQueue(jobDb.db, { leaseMs: 60_000, pollMs: 20 });
    const taken = started();
    next.startWorkers(async (id) => {
      if (id === jobId) taken.resolve();
      await repo.finish(
        jobDb.db,
        id,
        { status: 'completed', restoredFileId: null, error: null },
        { current_page: 1, successful_pages: 1, failed_pages: 0 },
        new Date().toISOString(),
      );
    }, 1);
    await taken.promise;
    await next.close();
  });

  it('aborts a handler still running when the grace time is over', async () => {
    await addJob();
    const queue = new DatabaseJobQueue(jobDb.db, { leaseMs: 60_000, pollMs: 20 });
    const running = started();
    let abortedAfterMs = -1;
    queue.startWorkers(async (_id, signal) => {
      running.resolve();
      const since = Date.now();
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      abortedAfterMs = Date.now() - since;
      throw new Error('aborted');
    }, 1);
    await running.promise;
    await queue.stopWorkers(300);
    await queue.close();
    expect(abortedAfterMs).toBeGreaterThanOrEqual(250);
  });
});
