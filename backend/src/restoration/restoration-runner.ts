// Runs one restoration job's bookkeeping around the engine's page loop (pages run in parallel in the
// engine's worker threads): each page is checkpointed in storage under the job before it counts, so a resumed
// run (after a crash or a lost lease) does not redo finished pages; `restoration.progress` is published when a
// page starts and when it ends. Credits were charged once when the job was created; the user pays only for
// pages delivered in a downloadable file. A page that does not come out restored is refunded as soon as it
// fails; a job that ends without a file (failed for good, or its original deleted meanwhile) refunds every
// page. Each refund is keyed by `refund:<jobId>:<page>`, so no retry or crash can refund a page twice.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { RealtimeEvent } from '../realtime/realtime-event.js';
import type { Db } from '../db/database.js';
import { withTransaction, type Trx } from '../db/transaction.js';
import type { CreditsService } from '../credits/credits.service.js';
import { failureOf } from '../jobs/job-failures.js';
import { JobsRepository, type JobCounters, type JobRow } from '../jobs/jobs.repository.js';
import type { RestorationFailure } from '../files/file.schemas.js';
import { contentKey } from '../files/storage-keys.js';
import type { EventBus } from '../realtime/event-bus.js';
import type { ObjectStorage } from '../storage/storage.js';
import {
  deserializeCheckpoint,
  jobCheckpointPrefix,
  pageCheckpointKey,
  serializeCheckpoint,
  type PageCheckpoint,
} from './checkpoint.js';
import type { PageDone, PageEngine } from './page-engine.js';
import type { OriginalFile, RestorationFiles } from './restoration-files.js';

export interface RunnerOptions {
  maxAttempts: number;
}

export interface RunnerDeps {
  db: Db;
  storage: ObjectStorage;
  engine: PageEngine;
  credits: CreditsService;
  eventBus: EventBus;
  files: RestorationFiles;
  options: RunnerOptions;
  now?: () => Date;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export class JobAbortedError extends Error {
  override name = 'JobAbortedError';
}

/** Thrown from a page-start hook to stop the page loop when the user deleted the original meanwhile. */
class OriginalDeletedError extends Error {
  override name = 'OriginalDeletedError';
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Runs the tasks given to it one after another, in the order given; a failed task does not stop the next. */
function serially(): (task: () => Promise<void>) => Promise<void> {
  let last: Promise<unknown> = Promise.resolve();
  return (task) => {
    const turn = last.then(task);
    last = turn.catch(() => undefined);
    return turn;
  };
}

const ORIGINAL_DELETED = 'The original file was deleted.';

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class RestorationRunner {
  private readonly jobs = new JobsRepository();
  private readonly now: () => Date;

  constructor(private readonly deps: RunnerDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * The queue's job handler. Throws only for trouble worth a retry (database, storage, lost lease) and when
   * `drain` (shutdown) aborted: then after the page in progress, so the job goes back to the queue.
   */
  async run(jobId: string, signal: AbortSignal, drain?: AbortSignal): Promise<void> {
    const { db } = this.deps;
    const job = await withTransaction(db, (trx) =>
      this.jobs.beginAttempt(trx, jobId, this.now().toISOString()),
    );
    if (!job) return;
    if (job.attempts > this.deps.options.maxAttempts) {
      await this.fail(job, `Restoration stopped after ${this.deps.options.maxAttempts} attempts.`);
      return;
    }
    const original = await this.deps.files.findOwned(db, job.user_id, job.original_file_id);
    if (!original) {
      await this.fail(job, ORIGINAL_DELETED);
      return;
    }

    let document;
    try {
      const bytes = await readAll(await this.deps.storage.get(original.storageKey));
      document = await this.deps.engine.open(bytes);
    } catch (error) {
      await this.fail(job, `The file could not be opened for restoration: ${message(error)}`);
      return;
    }

    if (document.pageCount !== job.total_pages) {
      await this.fail(job, 'The file no longer has the pages it was charged for.');
      return;
    }
    const totalPages = job.total_pages;
    // currentPage: the latest page started (the page now being worked on); it never goes back.
    const counters: JobCounters = { current_page: 0, successful_pages: 0, failed_pages: 0 };
    // Hooks of pages running at the same time write the job row and publish one after another, in order.
    const inTurn = serially();
    let outcomes: PageCheckpoint[];
    try {
      outcomes = await document.restorePages({
        signal,
        checkpoint: {
          load: (index) => this.loadCheckpoint(job.id, index),
          save: (index, outcome) =>
            this.deps.storage.put(pageCheckpointKey(job.id, index), serializeCheckpoint(outcome)),
        },
        onPageStart: (index) =>
          inTurn(async () => {
            if (drain?.aborted)
              throw new JobAbortedError(`job ${jobId} handed back: this worker is shutting down`);
            if (await this.originalDeleted(job)) throw new OriginalDeletedError();
            await this.pageStarted(job, counters, index);
          }),
        onPageDone: (page) => inTurn(() => this.pageDone(job, counters, page)),
      });
    } catch (error) {
      // Stopped because the job was taken away: the pages not saved yet are done again by the next run.
      if (signal.aborted) throw new JobAbortedError(`job ${jobId} was taken away from this worker`);
      if (error instanceof OriginalDeletedError) {
        await this.fail(job, ORIGINAL_DELETED);
        return;
      }
      throw error;
    }
    // Taken away while its last pages were ending: a page stops only between its steps, so every page can still end
    // after the abort, and the job is then another worker's to finish (from these pages' checkpoints), not this one's.
    if (signal.aborted) throw new JobAbortedError(`job ${jobId} was taken away from this worker`);

    if (counters.successful_pages === 0) {
      const reason = await this.jobs.firstPageFailure(db, job.id);
      await this.fail(job, reason ? `No page could be restored: ${reason}` : 'No page could be restored.');
      return;
    }
    const pages = outcomes.map((outcome) => (outcome.ok ? outcome.page : null));
    await this.complete(job, original, document.assemble(pages), counters, totalPages);
  }

  private async pageStarted(job: JobRow, counters: JobCounters, index: number): Promise<void> {
    const { db } = this.deps;
    counters.current_page = Math.max(counters.current_page, index + 1);
    await this.jobs.saveCounters(db, job.id, counters, this.now().toISOString());
    this.deps.log?.info({ jobId: job.id, page: index + 1 }, 'page started');
    await this.publishProgress(job, counters, await this.deps.credits.balance(db, job.user_id));
  }

  /** Counts a page (saved in its checkpoint already), refunds it when it failed, and reports it. */
  private async pageDone(
    job: JobRow,
    counters: JobCounters,
    { index, outcome, ms, fromCheckpoint }: PageDone,
  ): Promise<void> {
    const page = index + 1;
    if (!outcome.ok && !fromCheckpoint)
      this.deps.log?.warn({ jobId: job.id, page, error: outcome.error }, 'page restoration failed');
    this.deps.log?.info({ jobId: job.id, page, ok: outcome.ok, fromCheckpoint, ms }, 'page done');
    counters.current_page = Math.max(counters.current_page, page);
    if (outcome.ok) counters.successful_pages += 1;
    else counters.failed_pages += 1;
    const balance = await withTransaction(this.deps.db, async (trx) => {
      if (!outcome.ok) {
        await this.jobs.recordPageFailure(trx, job.id, page, outcome.error, this.now().toISOString());
        await this.refundPage(trx, job, index);
      }
      await this.jobs.saveCounters(trx, job.id, counters, this.now().toISOString());
      return this.deps.credits.balance(trx, job.user_id);
    });
    await this.publishProgress(job, counters, balance);
  }

  private async loadCheckpoint(jobId: string, index: number): Promise<PageCheckpoint | undefined> {
    const key = pageCheckpointKey(jobId, index);
    if (!(await this.deps.storage.exists(key))) return undefined;
    return deserializeCheckpoint(await readAll(await this.deps.storage.get(key))) as PageCheckpoint;
  }

  private async publishProgress(job: JobRow, counters: JobCounters, balance: number): Promise<void> {
    await this.publish(job.user_id, {
      type: 'restoration.progress',
      original_file_id: job.original_file_id,
      fileId: job.original_file_id,
      jobId: job.id,
      currentPage: counters.current_page,
      totalPages: job.total_pages,
      successfulPages: counters.successful_pages,
      failedPages: counters.failed_pages,
      credits_remaining: balance,
    });
  }

  private async refundPage(trx: Trx, job: JobRow, index: number): Promise<void> {
    const { applied } = await this.deps.credits.apply(trx, {
      userId: job.user_id,
      delta: 1,
      reason: 'refund',
      reference: `refund:${job.id}:${index + 1}`,
    });
    if (applied) await this.jobs.countRefund(trx, job.id);
  }

  /** What the dashboard is told when pages failed: read back from the job row just written. */
  private async failureNow(trx: Trx, jobId: string): Promise<RestorationFailure | undefined> {
    const row = await this.jobs.find(trx, jobId);
    return row && failureOf(row, await this.jobs.firstPageFailure(trx, jobId));
  }

  /** Refunds every page of a job that ends without a file; pages refunded before are skipped by reference. */
  private async refundUndelivered(trx: Trx, job: JobRow): Promise<void> {
    for (let index = 0; index < job.total_pages; index += 1) await this.refundPage(trx, job, index);
  }

  /** True once the user has deleted the original: the restored file could not be delivered with it. */
  private async originalDeleted(job: JobRow): Promise<boolean> {
    return !(await this.deps.files.findOwned(this.deps.db, job.user_id, job.original_file_id));
  }

  private async complete(
    job: JobRow,
    original: OriginalFile,
    assembling: Promise<{ bytes: Buffer; mime: string; extension: string }>,
    counters: JobCounters,
    totalPages: number,
  ): Promise<void> {
    let output;
    try {
      output = await assembling;
    } catch (error) {
      await this.fail(job, `The restored file could not be written: ${message(error)}`);
      return;
    }
    const fileId = randomUUID();
    const storageKey = contentKey(fileId);
    await this.deps.storage.put(storageKey, output.bytes);
    const now = this.now();
    const result = await withTransaction(this.deps.db, async (trx) => {
      if (!(await this.deps.files.findOwned(trx, job.user_id, original.id))) return 'original deleted';
      const finished = await this.jobs.finish(
        trx,
        job.id,
        { status: 'completed', restoredFileId: fileId, error: null },
        counters,
        now.toISOString(),
      );
      if (!finished) return undefined;
      await this.deps.files.createRestored(trx, {
        id: fileId,
        userId: job.user_id,
        original,
        jobId: job.id,
        storageKey,
        bytes: output.bytes.length,
        mime: output.mime,
        extension: output.extension,
        pageCount: totalPages,
        now,
      });
      await this.deps.files.setStatus(trx, original.id, 'processed');
      return {
        file: await this.deps.files.toDto(trx, fileId),
        balance: await this.deps.credits.balance(trx, job.user_id),
        failure: await this.failureNow(trx, job.id),
      };
    });
    if (!result || result === 'original deleted') {
      // Another worker finished this job first (its file is the one that counts), or the user deleted the
      // original meanwhile: then the file is not delivered and the job fails with every page refunded.
      await this.deps.storage.delete(storageKey);
      if (result) await this.fail(job, ORIGINAL_DELETED);
      return;
    }
    await this.publish(job.user_id, {
      type: 'restoration.completed',
      original_file_id: job.original_file_id,
      fileId: job.original_file_id,
      jobId: job.id,
      file: result.file,
      totalPages,
      successfulPages: counters.successful_pages,
      failedPages: counters.failed_pages,
      credits_remaining: result.balance,
      ...(result.failure ? { failure: result.failure } : {}),
    });
    await this.removeCheckpoints(job.id);
  }

  /** Ends the job failed: no file is delivered, so every page is refunded (restored ones included). */
  async fail(job: JobRow, error: string): Promise<void> {
    const restored = new Set<number>();
    for (let index = 0; index < job.total_pages; index += 1) {
      const key = pageCheckpointKey(job.id, index);
      if (!(await this.deps.storage.exists(key))) continue;
      const checkpoint = deserializeCheckpoint(
        await readAll(await this.deps.storage.get(key)),
      ) as PageCheckpoint;
      if (checkpoint.ok) restored.add(index);
    }
    const counters: JobCounters = {
      current_page: job.current_page,
      successful_pages: restored.size,
      failed_pages: job.total_pages - restored.size,
    };
    const result = await withTransaction(this.deps.db, async (trx) => {
      const finished = await this.jobs.finish(
        trx,
        job.id,
        { status: 'failed', restoredFileId: null, error },
        counters,
        this.now().toISOString(),
      );
      if (!finished) return undefined;
      await this.refundUndelivered(trx, job);
      await this.deps.files.setStatus(trx, job.original_file_id, 'error');
      return {
        balance: await this.deps.credits.balance(trx, job.user_id),
        failure: (await this.failureNow(trx, job.id))!,
      };
    });
    if (result === undefined) return;
    await this.publish(job.user_id, {
      type: 'restoration.failed',
      original_file_id: job.original_file_id,
      fileId: job.original_file_id,
      jobId: job.id,
      error,
      credits_remaining: result.balance,
      failure: result.failure,
    });
    await this.removeCheckpoints(job.id);
  }

  private async publish(userId: string, event: RealtimeEvent): Promise<void> {
    // A lost event must not fail the job: the file list is the source of truth on the next load.
    await this.deps.eventBus.publish(userId, event).catch((error: unknown) => {
      this.deps.log?.warn({ err: error }, 'realtime publish failed');
    });
  }

  private async removeCheckpoints(jobId: string): Promise<void> {
    try {
      for await (const object of this.deps.storage.list(jobCheckpointPrefix(jobId))) {
        await this.deps.storage.delete(object.key);
      }
    } catch (error) {
      this.deps.log?.warn({ err: error, jobId }, 'checkpoint cleanup failed');
    }
  }
}
