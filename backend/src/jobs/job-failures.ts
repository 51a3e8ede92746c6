// What the dashboard is told about a restoration that fell short (RestorationFailure of files/file.schemas.ts):
// built from the job row and the reason of its first failed page, for events and for the file list.
import type { RestorationFailure } from '../files/file.schemas.js';
import type { JobsTable } from './jobs.tables.js';

type FailureFields = Pick<
  JobsTable,
  'id' | 'status' | 'error' | 'failed_pages' | 'total_pages' | 'credits_refunded'
>;

/** A failed job, or a finished one with failed pages; undefined for a job still running or fully restored. */
export function failureOf(
  job: FailureFields,
  firstPageReason: string | undefined,
): RestorationFailure | undefined {
  const partial = job.status === 'completed' && job.failed_pages > 0;
  if (job.status !== 'failed' && !partial) return undefined;
  return {
    job_id: job.id,
    outcome: partial ? 'partial' : 'failed',
    reason: (partial ? firstPageReason : job.error) ?? 'Unknown error.',
    failed_pages: job.failed_pages,
    total_pages: job.total_pages,
    credits_refunded: job.credits_refunded,
  };
}
