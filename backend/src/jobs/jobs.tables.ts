// Row types of the `jobs` table (migration 003) and its page failures (008). db/schema.ts intersects JobTables into the one `Database` type,
// so every Kysely instance of the app knows the table.
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed';

export type JobsTable = {
  id: string;
  user_id: string;
  original_file_id: string;
  status: JobStatus;
  priority: number;
  total_pages: number;
  current_page: number;
  successful_pages: number;
  failed_pages: number;
  credits_charged: number;
  /** Credits given back so far (migration 008): one per page refunded. */
  credits_refunded: number;
  attempts: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
  restored_file_id: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
};

/** Why a page of a job was not restored (migration 008); one row per failed page. */
export type JobPageFailuresTable = {
  job_id: string;
  /** 1-based. */
  page: number;
  reason: string;
  created_at: string;
};

export type JobTables = {
  jobs: JobsTable;
  job_page_failures: JobPageFailuresTable;
};

export const ACTIVE_STATUSES: readonly JobStatus[] = ['queued', 'running'];
