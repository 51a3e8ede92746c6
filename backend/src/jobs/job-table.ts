// Row type of the `jobs` table (migration 003). Repositories attach it to the app's Kysely instance with
// `db.withTables<JobTables>()`, so the shared database type stays untouched.
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed';

// Type aliases, not interfaces: Kysely's withTables() wants index-signature-compatible record types.
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

export type JobTables = {
  jobs: JobsTable;
};

export const ACTIVE_STATUSES: readonly JobStatus[] = ['queued', 'running'];
