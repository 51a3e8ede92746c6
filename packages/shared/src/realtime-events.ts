// The realtime contract (spec §3 "Realtime event", §4 "Realtime events"): defined once, used by the
// backend when it publishes and by the web app when it reduces messages from /api/v1/ws/updates.
// Events that carry a file carry it as the API lists it (GET /files/all). That shape is declared once, in the
// OpenAPI document, so it is a type parameter here: the backend passes its TypeBox type, the web app its
// generated one.

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

export interface FileUploadCompletedEvent<File> {
  type: 'file.upload.completed';
  file: File;
}

export interface FilePreviewReadyEvent<File> {
  type: 'file.preview.ready';
  fileId: string;
  file: File;
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

export interface RestorationCompletedEvent<File> {
  type: 'restoration.completed';
  original_file_id: string;
  fileId: string;
  jobId: string;
  file: File;
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

export type RealtimeEvent<File> =
  | FileUploadCompletedEvent<File>
  | FilePreviewReadyEvent<File>
  | FileDeletedEvent
  | RestorationProgressEvent
  | RestorationCompletedEvent<File>
  | RestorationFailedEvent
  | CreditsUpdatedEvent;

export type RealtimeEventType = RealtimeEvent<unknown>['type'];
