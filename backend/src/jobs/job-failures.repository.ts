// Reads the failures of the jobs behind a page of the file list: the queries of job-failures.ts's builder.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { RestorationFailure } from '../files/file.schemas.js';
import { failureOf } from './job-failures.js';

export interface ListedFile {
  id: string;
  type: 'original' | 'restored';
  /** Restored files: the job that made them. */
  job_id: string | null;
}

/** Failures for a page of the file list, by file id: an original's latest job, a restored file's own job. */
export class JobFailuresRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async forFiles(files: readonly ListedFile[]): Promise<Map<string, RestorationFailure>> {
    const originalIds = files.filter((f) => f.type === 'original').map((f) => f.id);
    const jobIds = files.flatMap((f) => (f.type === 'restored' && f.job_id ? [f.job_id] : []));
    const found = new Map<string, RestorationFailure>();
    if (originalIds.length === 0 && jobIds.length === 0) return found;
    const jobs = await this.db
      .selectFrom('jobs')
      .select([
        'id',
        'original_file_id',
        'status',
        'error',
        'failed_pages',
        'total_pages',
        'credits_refunded',
      ])
      .where((eb) =>
        eb.or([
          ...(originalIds.length > 0 ? [eb('original_file_id', 'in', originalIds)] : []),
          ...(jobIds.length > 0 ? [eb('id', 'in', jobIds)] : []),
        ]),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const latestOf = new Map<string, (typeof jobs)[number]>();
    for (const job of jobs) if (!latestOf.has(job.original_file_id)) latestOf.set(job.original_file_id, job);
    const byId = new Map(jobs.map((job) => [job.id, job]));

    const wanted = new Map<string, (typeof jobs)[number]>();
    for (const file of files) {
      const job =
        file.type === 'original' ? latestOf.get(file.id) : file.job_id ? byId.get(file.job_id) : undefined;
      if (job && failureOf(job, undefined)) wanted.set(file.id, job);
    }
    if (wanted.size === 0) return found;
    const reasons = await this.firstReasons([...new Set([...wanted.values()].map((job) => job.id))]);
    for (const [fileId, job] of wanted) {
      const failure = failureOf(job, reasons.get(job.id));
      if (failure) found.set(fileId, failure);
    }
    return found;
  }

  private async firstReasons(jobIds: string[]): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('job_page_failures')
      .select(['job_id', 'reason'])
      .where('job_id', 'in', jobIds)
      .orderBy('page', 'desc')
      .execute();
    // Rows come last page first, so the first page's reason is the one left in the map.
    return new Map(rows.map((row) => [row.job_id, row.reason]));
  }
}
