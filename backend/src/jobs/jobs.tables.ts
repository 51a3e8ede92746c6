// Row type of the `jobs` table (migration 003). db/schema.ts intersects JobTables into the one `Database` type,
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
