// Scale-out queue: BullMQ on Redis. Any number of worker processes on any machine consume it; a worker that
// dies mid-job loses its lock and BullMQ hands the job to another worker (stalled-job recovery). Attempts
// are counted on the job row by the runner, so BullMQ's own stall limit is set out of the way.
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { TIER_PRIORITY } from '@folio/shared';
import type { JobHandler, JobQueue, QueuedJob } from './job-queue.js';

const QUEUE_NAME = 'restoration';
const TOP_PRIORITY = Math.max(...Object.values(TIER_PRIORITY));

export interface BullmqQueueOptions {
  redisUrl: string;
  /** Redis key prefix; separate deployments (or test runs) on one Redis use different prefixes. */
  prefix: string;
  leaseMs: number;
}

interface Payload {
  jobId: string;
}

/** BullMQ runs priority 1 first and larger numbers later; ours is the other way round. */
export function bullmqPriority(priority: number): number {
  return 1 + Math.max(0, TOP_PRIORITY - priority);
}

export class BullmqJobQueue implements JobQueue {
  private readonly connections: Redis[] = [];
  private readonly queueConnection: Redis;
  private readonly queue: Queue<Payload>;
  private readonly workers: Worker<Payload>[] = [];
  private readonly stopController = new AbortController();
  private readonly drainController = new AbortController();

  constructor(private readonly options: BullmqQueueOptions) {
    this.queueConnection = this.connect();
    this.queue = new Queue<Payload>(QUEUE_NAME, { connection: this.queueConnection, prefix: options.prefix });
    // Connection errors are retried by ioredis and reported by ping() (readiness); not printed here.
    this.queue.on('error', () => undefined);
  }

  async enqueue(job: QueuedJob): Promise<void> {
    // The BullMQ job id is the job row's id: adding an id that is still waiting or active is a no-op.
    await this.queue.add(
      'restore',
      { jobId: job.jobId },
      {
        jobId: job.jobId,
        priority: bullmqPriority(job.priority),
        attempts: 1000,
        backoff: { type: 'fixed', delay: 2_000 },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }

  startWorkers(handler: JobHandler, concurrency: number): void {
    if (concurrency <= 0) return;
    const worker = new Worker<Payload>(
      QUEUE_NAME,
      async (job) => {
        const lost = new AbortController();
        const abort = () => lost.abort();
        this.stopController.signal.addEventListener('abort', abort);
        try {
          await handler(job.data.jobId, lost.signal, this.drainController.signal);
        } finally {
          this.stopController.signal.removeEventListener('abort', abort);
        }
      },
      {
        connection: this.connect(),
        prefix: this.options.prefix,
        concurrency,
        lockDuration: this.options.leaseMs,
        stalledInterval: this.options.leaseMs,
        maxStalledCount: 1000,
      },
    );
    worker.on('error', () => undefined);
    this.workers.push(worker);
  }

  /** Jobs waiting in priority order (used by tests and the benchmark). */
  async waitingJobIds(): Promise<string[]> {
    const jobs = await this.queue.getJobs(['prioritized', 'waiting'], 0, -1, true);
    return jobs.map((job) => job.data.jobId);
  }

  async ping(): Promise<void> {
    await this.queueConnection.ping();
  }

  async stopWorkers(graceMs: number): Promise<void> {
    // BullMQ's close waits for active jobs; a drained handler throws after its page, so its job is retried
    // (by another worker) after the backoff delay.
    this.drainController.abort();
    const closed = Promise.allSettled(this.workers.map((worker) => worker.close()));
    if (graceMs > 0) await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, graceMs))]);
    this.stopController.abort();
    // With Redis unreachable, a worker's close would wait for a connection forever: drop the connections.
    if (this.queueConnection.status !== 'ready') this.disconnectAll();
    await closed;
  }

  async close(): Promise<void> {
    await this.stopWorkers(0);
    // Likewise a polite close or QUIT without Redis.
    const reachable = this.queueConnection.status === 'ready';
    if (!reachable) this.disconnectAll();
    await this.queue.close();
    if (reachable) await Promise.allSettled(this.connections.map((connection) => connection.quit()));
  }

  private disconnectAll(): void {
    for (const connection of this.connections) connection.disconnect();
  }

  private connect(): Redis {
    // BullMQ workers block on Redis and need unlimited retries per request.
    const connection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    connection.on('error', () => undefined);
    this.connections.push(connection);
    return connection;
  }
}
