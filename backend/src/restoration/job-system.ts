// The restoration jobs of one process: the queue (created by the process's entry point with createJobQueue and
// passed in), the runner, and the service the routes call. API processes enqueue; worker processes (or the
// embedded pool) consume. The job system owns the queue from then on: close() closes it.
import type { CreditsService } from '../credits/credits.service.js';
import type { Db } from '../db/database.js';
import { BullmqJobQueue } from '../jobs/bullmq-queue.js';
import { DatabaseJobQueue } from '../jobs/database-queue.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { JobsRepository } from '../jobs/jobs.repository.js';
import type { EventBus } from '../realtime/event-bus.js';
import type { Settings } from '../settings.js';
import type { ObjectStorage } from '../storage/storage.js';
import { FolioPageEngine } from './engine-adapter.js';
import type { PageEngine } from './page-engine.js';
import { RepositoryRestorationFiles } from './restoration-files.adapter.js';
import { RestorationRunner } from './restoration-runner.js';
import { RestorationService } from './restoration.service.js';

export interface JobSystemDeps {
  settings: Readonly<Settings>;
  db: Db;
  queue: JobQueue;
  storage: ObjectStorage;
  eventBus: EventBus;
  credits: CreditsService;
  /** Defaults to @folio/engine with the page time limit of the job settings. */
  engine?: PageEngine;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** The queue chosen by settings: BullMQ on Redis (scale-out) or the durable job table. */
export function createJobQueue(settings: Pick<Settings, 'redisUrl' | 'jobs'>, db: Db): JobQueue {
  const jobSettings = settings.jobs;
  if (jobSettings.queue === 'bullmq') {
    return new BullmqJobQueue({
      redisUrl: settings.redisUrl,
      prefix: jobSettings.queuePrefix,
      leaseMs: jobSettings.leaseMs,
    });
  }
  return new DatabaseJobQueue(db, { leaseMs: jobSettings.leaseMs, pollMs: jobSettings.pollMs });
}

export class JobSystem {
  readonly queue: JobQueue;
  readonly runner: RestorationRunner;
  readonly service: RestorationService;
  private started = false;
  private stopping: Promise<void> | undefined;
  private readonly engine: PageEngine;

  constructor(private readonly deps: JobSystemDeps) {
    const files = new RepositoryRestorationFiles(deps.settings.restoredRetentionDays);
    this.queue = deps.queue;
    this.engine = deps.engine ?? new FolioPageEngine(deps.settings.jobs.pageTimeoutMs);
    this.runner = new RestorationRunner({
      db: deps.db,
      storage: deps.storage,
      engine: this.engine,
      credits: deps.credits,
      eventBus: deps.eventBus,
      files,
      options: { maxAttempts: deps.settings.jobs.maxAttempts },
      ...(deps.log ? { log: deps.log } : {}),
    });
    this.service = new RestorationService(deps.db, deps.credits, files, this.queue);
  }

  /** Starts consuming jobs in this process. */
  async startWorkers(concurrency = this.deps.settings.jobs.concurrency): Promise<void> {
    if (this.started || concurrency <= 0) return;
    this.started = true;
    // The engine's threads start now and stay, so a job's first page (and its progress event) starts at once.
    this.engine.warm?.();
    if (this.deps.settings.jobs.queue === 'bullmq') {
      // A job committed by an API node that died before enqueueing it is only in the table: hand it over.
      for (const job of await new JobsRepository().listActive(this.deps.db)) {
        await this.queue.enqueue({ jobId: job.id, priority: job.priority });
      }
    }
    this.queue.startWorkers((jobId, signal, drain) => this.runner.run(jobId, signal, drain), concurrency);
  }

  /** Stops consuming; running jobs may take `graceMs` to finish their current page and hand the job back. */
  stopWorkers(graceMs: number): Promise<void> {
    this.stopping ??= this.queue.stopWorkers(graceMs);
    return this.stopping;
  }

  /** Waits for a drain in progress (a close during shutdown must not cut it short), then closes the queue. */
  async close(): Promise<void> {
    await this.stopWorkers(0);
    await this.queue.close();
  }
}
