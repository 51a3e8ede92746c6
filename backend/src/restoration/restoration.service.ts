// Starting a restoration: one transaction checks the file, debits its page count through the ledger, creates
// the job row and marks the original processing. The job is handed to the queue only after the commit.
import { randomUUID } from 'node:crypto';
import type { Static } from '@fastify/type-provider-typebox';
import { TIER_PRIORITY, type PurchaseTier } from '@folio/shared';
import type { CreditsService } from '../credits/credits.service.js';
import type { Db } from '../db/database.js';
import { withTransaction } from '../db/transaction.js';
import { BadRequestError, ConflictError, NotFoundError } from '../errors.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { JobsRepository } from '../jobs/jobs.repository.js';
import { UsersRepository } from '../users/users.repository.js';
import type { RestorationFiles } from './restoration-files.js';
import type { JobStatusSchema } from './restoration.schemas.js';

/** A job's status as the API answers it: the type of its schema, declared once. */
export type JobStatus = Static<typeof JobStatusSchema>;

export interface RestoreStarted {
  jobId: string;
  creditsRemaining: number;
}

function priorityOf(tier: string | undefined): number {
  return TIER_PRIORITY[(tier ?? 'standard') as PurchaseTier] ?? 0;
}

export class RestorationService {
  private readonly jobs = new JobsRepository();
  private readonly users = new UsersRepository();

  constructor(
    private readonly db: Db,
    private readonly credits: CreditsService,
    private readonly files: RestorationFiles,
    private readonly queue: JobQueue,
  ) {}

  async start(userId: string, fileId: string): Promise<RestoreStarted> {
    const jobId = randomUUID();
    const started = await withTransaction(this.db, async (trx) => {
      const file = await this.files.findOwned(trx, userId, fileId);
      if (!file) throw new NotFoundError('File not found');
      if (file.type !== 'original') throw new BadRequestError('A restored file cannot be restored again.');
      // The guarded status change is the lock against two restorations of one file at the same time.
      const claimed = await this.files.setStatus(trx, file.id, 'processing', 'processing');
      if (!claimed || (await this.jobs.findActiveForFile(trx, file.id))) {
        throw new ConflictError('This file is already being restored.');
      }
      const cost = Math.max(file.pageCount, 1);
      const debit = await this.credits.apply(trx, {
        userId,
        delta: -cost,
        reason: 'restoration',
        reference: `restore:${jobId}`,
      });
      const user = await this.users.findById(trx, userId);
      if (!user) throw new NotFoundError('User not found');
      const priority = priorityOf(user.purchase_tier);
      const now = new Date().toISOString();
      await this.jobs.insert(trx, {
        id: jobId,
        user_id: userId,
        original_file_id: file.id,
        status: 'queued',
        priority,
        total_pages: cost,
        current_page: 0,
        successful_pages: 0,
        failed_pages: 0,
        credits_charged: cost,
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
      return { priority, creditsRemaining: debit.balance };
    });
    await this.queue.enqueue({ jobId, priority: started.priority });
    return { jobId, creditsRemaining: started.creditsRemaining };
  }

  async status(userId: string, jobId: string): Promise<JobStatus> {
    const job = await this.jobs.find(this.db, jobId);
    if (!job || job.user_id !== userId) throw new NotFoundError('Job not found');
    return {
      job_id: job.id,
      status: job.status,
      original_file_id: job.original_file_id,
      restored_file_id: job.restored_file_id,
      total_pages: job.total_pages,
      current_page: job.current_page,
      successful_pages: job.successful_pages,
      failed_pages: job.failed_pages,
      error: job.error,
      credits_refunded: job.credits_refunded,
      page_failures: await this.jobs.pageFailures(this.db, job.id),
      created_at: job.created_at,
      finished_at: job.finished_at,
    };
  }
}
