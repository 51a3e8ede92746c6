// The realtime contract (spec §3 "Realtime event", §4 "Realtime events"): defined once, used by the
// backend when it publishes and by the web app when it reduces messages from /api/v1/ws/updates.

/**
 * Why a restoration delivered fewer pages than it was paid for, and the credits it gave back: `failed` when no
 * file came out (every page refunded), `partial` when the file keeps some pages as they were.
 */
export interface RestorationFailure {
  job_id: string;
  outcome: 'failed' | 'partial';
  reason: string;
  failed_pages: number;
  total_pages: number;
  credits_refunded: number;
}

/** A file as the API lists it (GET /files/all) and as events carry it. */
export interface FileDto {
  id: string;
  filename: string;
  name: string;
  file_type: string;
  size_bytes: number;
  status: string;
  type: 'original' | 'restored';
  original_filename: string | null;
  page_count: number | null;
  credit_cost: number | null;
  days_remaining: number | null;
  preview_available: boolean;
  created_at: string;
  updated_at: string;
  original_file_id: string | null;
  job_id: string | null;
  /** Originals, in the list: a restored version of it exists. */
  has_restored?: boolean;
  /** In the list: originals whose latest restoration fell short, and restored files with pages left as they were. */
  restoration_failure?: RestorationFailure;
}

export interface FileUploadCompletedEvent {
  type: 'file.upload.completed';
  file: FileDto;
}

export interface FilePreviewReadyEvent {
  type: 'file.preview.ready';
  fileId: string;
  file: FileDto;
}

export interface FileDeletedEvent {
  type: 'file.deleted';
  fileId: string;
}

export interface RestorationProgressEvent {
  type: 'restoration.progress';
  original_file_id: string;
  fileId: string;
  jobId: string;
  currentPage: number;
  totalPages: number;
  successfulPages: number;
  failedPages: number;
  credits_remaining: number;
}

export interface RestorationCompletedEvent {
  type: 'restoration.completed';
  original_file_id: string;
  fileId: string;
  jobId: string;
  file: FileDto;
  totalPages: number;
  successfulPages: number;
  failedPages: number;
  credits_remaining: number;
  /** When some pages could not be restored. */
  failure?: RestorationFailure;
}

export interface RestorationFailedEvent {
  type: 'restoration.failed';
  original_file_id: string;
  fileId: string;
  jobId: string;
  error: string;
  credits_remaining: number;
  failure: RestorationFailure;
}

export interface CreditsUpdatedEvent {
  type: 'credits.updated';
  credits_remaining: number;
}

export type RealtimeEvent =
  | FileUploadCompletedEvent
  | FilePreviewReadyEvent
  | FileDeletedEvent
  | RestorationProgressEvent
  | RestorationCompletedEvent
  | RestorationFailedEvent
  | CreditsUpdatedEvent;

export type RealtimeEventType = RealtimeEvent['type'];
