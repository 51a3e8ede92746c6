import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseJobQueue } from '../../src/jobs/database-queue.js';
import { JobsRepository, type JobRow } from '../../src/jobs/jobs.repository.js';
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

async function addJob(priority: number, createdAt: string): Promise<string> {
  const id = randomUUID();
  const row: JobRow = {
    id,
    user_id: userId,
    original_file_id: randomUUID(),
    status: 'queued',
    priority,
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
    created_at: createdAt,
    updated_at: createdAt,
    started_at: null,
    finished_at: null,
  };
  await repo.insert(jobDb.db, row);
  return id;
}

async function finish(id: string): Promise<void> {
  await repo.finish(
    jobDb.db,
    id,
    { status: 'completed', restoredFileId: null, error: null },
    { current_page: 1, successful_pages: 1, failed_pages: 0 },
    new Date().toISOString(),
  );
}

describe('DatabaseJobQueue', () => {
  it('hands out the highest priority first, oldest first within a priority', async () => {
    const queue = new DatabaseJobQueue(jobDb.db, { leaseMs: 60_000, pollMs: 50 });
    const standardOld = await addJob(0, '2026-01-01T00:00:00.000Z');
    const standardNew = await addJob(0, '2026-01-02T00:00:00.000Z');
    const highest = await addJob(2, '2026-01-03T00:00:00.000Z');
    const priority = await addJob(1, '2026-01-04T00:00:00.000Z');
    const order: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const id = await queue.claim();
      expect(id).not.toBeNull();
      order.push(id as string);
      await finish(id as string);
    }
    expect(order).toEqual([highest, priority, standardOld, standardNew]);
    expect(await queue.claim()).toBeNull();
    await queue.close();
  });

  it('lets exactly one of many concurrent claimers win a job', async () => {
    const id = await addJob(0, new Date().toISOString());
    const queues = Array.from(
      { length: 8 },
      () => new DatabaseJobQueue(jobDb.db, { leaseMs: 60_000, pollMs: 50 }),
    );
    const claims = await Promise.all(queues.map((queue) => queue.claim()));
    expect(claims.filter((claim) => claim === id)).toHaveLength(1);
    await finish(id);
    await Promise.all(queues.map((queue) => queue.close()));
  });

  it('gives a job whose lease ran out to another worker, and stops renewals of the old one', async () => {
    let now = new Date('2026-03-01T00:00:00.000Z');
    const clock = () => now;
    const first = new DatabaseJobQueue(jobDb.db, { leaseMs: 10_000, pollMs: 50, now: clock });
    const second = new DatabaseJobQueue(jobDb.db, { leaseMs: 10_000, pollMs: 50, now: clock });
    const id = await addJob(0, now.toISOString());
    expect(await first.claim()).toBe(id);
    expect(await second.claim()).toBeNull();
    now = new Date(now.getTime() + 5_000);
    expect(await first.renew(id)).toBe(true);
    now = new Date(now.getTime() + 11_000);
    expect(await second.claim()).toBe(id);
    expect(await first.renew(id)).toBe(false);
    await finish(id);
    await first.close();
    await second.close();
  });

  it('runs enqueued jobs on its consumers and releases them when done', async () => {
    const queue = new DatabaseJobQueue(jobDb.db, { leaseMs: 5_000, pollMs: 20 });
    const ran: string[] = [];
    const ids = [await addJob(0, new Date().toISOString()), await addJob(0, new Date().toISOString())];
    const done = new Promise<void>((resolve) => {
      queue.startWorkers(async (jobId) => {
        ran.push(jobId);
        await finish(jobId);
        if (ran.length === ids.length) resolve();
      }, 2);
    });
    for (const jobId of ids) await queue.enqueue({ jobId, priority: 0 });
    await done;
    await queue.close();
    expect(ran.sort()).toEqual([...ids].sort());
    for (const jobId of ids) {
      const row = await repo.find(jobDb.db, jobId);
      expect(row?.status).toBe('completed');
      expect(row?.lease_owner).toBeNull();
    }
  });

  it('retries a job whose handler threw, after the retry pause', async () => {
    const queue = new DatabaseJobQueue(jobDb.db, { leaseMs: 5_000, pollMs: 20, retryDelayMs: 50 });
    const id = await addJob(0, new Date().toISOString());
    let calls = 0;
    const done = new Promise<void>((resolve) => {
      queue.startWorkers(async (jobId) => {
        if (jobId !== id) return;
        calls += 1;
        if (calls === 1) throw new Error('database hiccup');
        await finish(jobId);
        resolve();
      }, 1);
    });
    await done;
    await queue.close();
    expect(calls).toBe(2);
  });
});
