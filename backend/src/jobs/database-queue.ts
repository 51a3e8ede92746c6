// Embedded default queue: the `jobs` table itself. A consumer claims the best claimable row (highest
// priority, oldest first) with a conditional UPDATE that only one claimer can win, on SQLite and PostgreSQL
// alike, renews its lease while the handler runs, and clears it afterwards. Rows of a dead worker become
// claimable when the lease runs out, which is how a restart resumes unfinished jobs.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { JobHandler, JobQueue, QueuedJob } from './job-queue.js';
import { JobsRepository } from './jobs.repository.js';

export interface DatabaseQueueOptions {
  leaseMs: number;
  pollMs: number;
  /** Pause before a job whose handler threw is tried again. */
  retryDelayMs?: number;
  now?: () => Date;
}

export class DatabaseJobQueue implements JobQueue {
  readonly owner = `worker-${randomUUID()}`;
  private readonly stopController = new AbortController();
  private readonly drainController = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly now: () => Date;
  private readonly db: Kysely<Database>;
  private readonly jobs = new JobsRepository();

  constructor(
    db: Kysely<Database>,
    private readonly options: DatabaseQueueOptions,
  ) {
    this.db = db;
    this.now = options.now ?? (() => new Date());
  }

  // The row committed by the restoration service is the queue entry; only idle local consumers need a nudge.
  enqueue(_job: QueuedJob): Promise<void> {
    this.wakeAll();
    return Promise.resolve();
  }

  startWorkers(handler: JobHandler, concurrency: number): void {
    for (let slot = 0; slot < concurrency; slot += 1) this.loops.push(this.consume(handler));
  }

  async ping(): Promise<void> {
    await this.jobs.probe(this.db);
  }

  async stopWorkers(graceMs: number): Promise<void> {
    // Idle consumers stop at once; a running handler hands its job back after the current page (released
    // below in runClaimed, claimable again after the retry delay), or is aborted when the grace time ends.
    this.drainController.abort();
    this.wakeAll();
    const stopped = Promise.allSettled(this.loops);
    if (graceMs > 0) await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, graceMs))]);
    this.stopController.abort();
    this.wakeAll();
    await stopped;
  }

  async close(): Promise<void> {
    await this.stopWorkers(0);
  }

  /** Takes the next claimable job for this consumer, or null when there is none. */
  async claim(): Promise<string | null> {
    const nowIso = this.now().toISOString();
    for (const id of await this.jobs.claimable(this.db, nowIso, 8)) {
      if (await this.jobs.takeLease(this.db, id, this.owner, this.leaseUntil(), nowIso)) return id;
    }
    return null;
  }

  /** Extends this consumer's lease; false when another worker took the job over. */
  async renew(jobId: string): Promise<boolean> {
    return this.jobs.renewLease(this.db, jobId, this.owner, this.leaseUntil());
  }

  async release(jobId: string, delayMs = 0): Promise<void> {
    const claimableFrom = delayMs > 0 ? new Date(this.now().getTime() + delayMs).toISOString() : null;
    await this.jobs.releaseLease(this.db, jobId, this.owner, claimableFrom);
  }

  private leaseUntil(): string {
    return new Date(this.now().getTime() + this.options.leaseMs).toISOString();
  }

  private async consume(handler: JobHandler): Promise<void> {
    const stop = this.drainController.signal;
    while (!stop.aborted) {
      let jobId: string | null = null;
      try {
        jobId = await this.claim();
      } catch {
        // Database briefly unavailable: try again after the poll interval.
      }
      if (jobId === null) {
        await this.idle();
        continue;
      }
      await this.runClaimed(jobId, handler);
    }
  }

  private async runClaimed(jobId: string, handler: JobHandler): Promise<void> {
    const lost = new AbortController();
    const abortOnStop = () => lost.abort();
    this.stopController.signal.addEventListener('abort', abortOnStop);
    const heartbeat = setInterval(
      () => {
        this.renew(jobId).then(
          (held) => {
            if (!held) lost.abort();
          },
          () => undefined,
        );
      },
      Math.max(Math.floor(this.options.leaseMs / 3), 100),
    );
    let failed = false;
    try {
      await handler(jobId, lost.signal, this.drainController.signal);
    } catch {
      failed = true;
    } finally {
      clearInterval(heartbeat);
      this.stopController.signal.removeEventListener('abort', abortOnStop);
    }
    // A handler that threw (infrastructure trouble) is retried after a pause; its attempt was counted.
    await this.release(jobId, failed ? (this.options.retryDelayMs ?? 2_000) : 0).catch(() => undefined);
  }

  private wakeAll(): void {
    for (const wake of [...this.waiters]) wake();
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs);
      this.waiters.add(done);
    });
  }
}
