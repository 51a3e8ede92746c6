// One retention sweep per interval across the fleet: with Redis, the first process to take the lock sweeps,
// renews the lock while it sweeps, and lets it expire afterwards (it is not released, so a second node ticking
// a moment later does not sweep again). Without Redis there is one process, and it always sweeps.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

export interface SweepLock {
  /** True when this process may sweep now. */
  tryAcquire(): Promise<boolean>;
  /** Extends a lock this process holds, so a long sweep is never joined by a second one. */
  renew(): Promise<void>;
  close(): Promise<void>;
}

export const SWEEP_LOCK_KEY = 'folio:retention-sweep:lock';
const RENEW_IF_OWNER = `if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export class LocalSweepLock implements SweepLock {
  tryAcquire(): Promise<boolean> {
    return Promise.resolve(true);
  }
  renew(): Promise<void> {
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

export class RedisSweepLock implements SweepLock {
  private readonly redis: Redis;
  private readonly owner = randomUUID();

  constructor(
    redisUrl: string,
    private readonly holdMs: number,
    private readonly key = SWEEP_LOCK_KEY,
  ) {
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    this.redis.on('error', () => undefined);
  }

  async tryAcquire(): Promise<boolean> {
    return (await this.redis.set(this.key, this.owner, 'PX', this.holdMs, 'NX')) === 'OK';
  }

  async renew(): Promise<void> {
    await this.redis.eval(RENEW_IF_OWNER, 1, this.key, this.owner, String(this.holdMs));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

export function createSweepLock(redisUrl: string, holdMs: number, key?: string): SweepLock {
  return redisUrl ? new RedisSweepLock(redisUrl, holdMs, key) : new LocalSweepLock();
}
