// The files table (migration 002_files). Times are UTC ISO strings, sizes bytes, ids UUID strings.

export type FileKind = 'original' | 'restored';
/** uploaded → (restoration reads it) ; restored files are created as processed. `error` is set by jobs. */
export type FileStatus = 'uploaded' | 'processing' | 'processed' | 'error';
/** pending → ready | failed; `none` when the format has no preview. */
export type PreviewStatus = 'pending' | 'ready' | 'failed' | 'none';

export type FilesTable = {
  id: string;
  user_id: string;
  type: FileKind;
  /** Sanitised display name, with the extension of the detected format. */
  filename: string;
  /** Originals: the name as the client sent it (control characters removed). Restored: the original's filename. */
  original_filename: string;
  file_type: string;
  mime: string;
  size_bytes: number;
  page_count: number;
  status: string;
  /** Server-made storage key; never derived from a filename. */
  storage_key: string;
  preview_key: string | null;
  preview_status: string;
  original_file_id: string | null;
  /** Originals: the upload's processing (preview) job or the batch; restored: the restoration job. */
  job_id: string | null;
  expires_at: string;
  /** Tombstone: set first when a file is removed; the bytes go next, then the row (see retention). */
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
};

/** Previews started per file (migration 006_preview_attempts); the row goes with its file. */
export type PreviewAttemptsTable = {
  file_id: string;
  attempts: number;
  /** When the last attempt started. */
  attempted_at: string;
};

/** Part of the one `Database` type (db/schema.ts). */
export type FilesTables = {
  files: FilesTable;
  preview_attempts: PreviewAttemptsTable;
};
