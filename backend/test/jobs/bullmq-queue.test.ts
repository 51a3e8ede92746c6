import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { BullmqJobQueue, bullmqPriority } from '../../src/jobs/bullmq-queue.js';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const open: BullmqJobQueue[] = [];
const prefixes: string[] = [];

function newQueue(prefix = `folio-test-${randomUUID()}`): BullmqJobQueue {
  const queue = new BullmqJobQueue({ redisUrl: REDIS_URL, prefix, leaseMs: 5_000 });
  open.push(queue);
  prefixes.push(prefix);
  return queue;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((queue) => queue.close()));
  const redis = new Redis(REDIS_URL);
  for (const prefix of prefixes.splice(0)) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
});

describe('BullmqJobQueue', () => {
  it('maps our priorities (higher first) onto BullMQ priorities (1 first)', () => {
    expect(bullmqPriority(2)).toBe(1);
    expect(bullmqPriority(1)).toBe(2);
    expect(bullmqPriority(0)).toBe(3);
  });

  it('runs paying users first: highest tier, then priority, then standard, in order of arrival', async () => {
    const queue = newQueue();
    const jobs = [
      { jobId: 'standard-1', priority: 0 },
      { jobId: 'highest-1', priority: 2 },
      { jobId: 'standard-2', priority: 0 },
      { jobId: 'priority-1', priority: 1 },
      { jobId: 'highest-2', priority: 2 },
    ];
    for (const job of jobs) await queue.enqueue(job);
    // Enqueueing an id that is still waiting does not add a second run.
    await queue.enqueue({ jobId: 'standard-1', priority: 0 });

    const ran: string[] = [];
    await new Promise<void>((resolve) => {
      queue.startWorkers((jobId) => {
        ran.push(jobId);
        if (ran.length === jobs.length) resolve();
        return Promise.resolve();
      }, 1);
    });
    expect(ran).toEqual(['highest-1', 'highest-2', 'priority-1', 'standard-1', 'standard-2']);
  });

  it('retries a job whose handler threw', async () => {
    const queue = newQueue();
    let calls = 0;
    await queue.enqueue({ jobId: 'flaky', priority: 0 });
    await new Promise<void>((resolve) => {
      queue.startWorkers(() => {
        calls += 1;
        if (calls === 1) return Promise.reject(new Error('redis hiccup'));
        resolve();
        return Promise.resolve();
      }, 1);
    });
    expect(calls).toBe(2);
  });
});
