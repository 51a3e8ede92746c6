// The fleet-wide retention sweep lock on the real Redis (127.0.0.1:6379), under a key of this test's own.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalSweepLock, RedisSweepLock } from '../../src/retention/sweep-lock.js';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const key = `folio-test-${randomUUID()}:retention-sweep:lock`;
const locks: RedisSweepLock[] = [];

function lock(holdMs: number): RedisSweepLock {
  const created = new RedisSweepLock(REDIS_URL, holdMs, key);
  locks.push(created);
  return created;
}

afterAll(async () => {
  await Promise.all(locks.map((l) => l.close()));
  const redis = new Redis(REDIS_URL);
  await redis.del(key);
  await redis.quit();
});

describe('RedisSweepLock', () => {
  it('lets one process of the fleet sweep per hold time, and the holder keep it while it sweeps', async () => {
    const nodeA = lock(400);
    const nodeB = lock(400);
    expect(await nodeA.tryAcquire()).toBe(true);
    expect(await nodeB.tryAcquire()).toBe(false);
    // A long sweep renews the lock, so the other node still cannot start one past the first hold time.
    for (let i = 0; i < 4; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      await nodeA.renew();
      await nodeB.renew(); // not the holder: changes nothing
      expect(await nodeB.tryAcquire()).toBe(false);
    }
    // Not renewed any more: it expires, and the next interval's sweep may run anywhere.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await nodeB.tryAcquire()).toBe(true);
    expect(await nodeA.tryAcquire()).toBe(false);
  });
});

describe('LocalSweepLock', () => {
  it('always lets the single process sweep', async () => {
    const local = new LocalSweepLock();
    expect(await local.tryAcquire()).toBe(true);
    expect(await local.tryAcquire()).toBe(true);
  });
});
