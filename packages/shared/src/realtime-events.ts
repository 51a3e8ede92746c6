// The realtime contract (spec §3 "Realtime event", §4 "Realtime events"): defined once, used by the
// backend when it publishes and by the web app when it reduces messages from /api/v1/ws/updates.
// Events that carry a file carry it as the API lists it (GET /files/all). That shape is declared once, in the
// OpenAPI document, so it is a type parameter here: the backend passes its TypeBox type, the web app its
// generated one. The restoration failure the events carry is the one a listed file carries
// (`restoration_failure`, RestorationFailure in the OpenAPI document), so it is read from that parameter.

/** What the events need of the API's file: the restoration failure it may carry. */
export interface EventFile {
  restoration_failure?: object;
}

/**
 * Why a restoration delivered fewer pages than it was paid for, and the credits it gave back (declared in the
 * OpenAPI document beside the file that carries it).
 */
export type FailureOf<File extends EventFile> = NonNullable<File['restoration_failure']>;

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

export interface RestorationCompletedEvent<File extends EventFile> {
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
  failure?: FailureOf<File>;
}

export interface RestorationFailedEvent<File extends EventFile> {
  type: 'restoration.failed';
  original_file_id: string;
  fileId: string;
  jobId: string;
  error: string;
  credits_remaining: number;
  failure: FailureOf<File>;
}

export interface CreditsUpdatedEvent {
  type: 'credits.updated';
  credits_remaining: number;
}

export type RealtimeEvent<File extends EventFile> =
  | FileUploadCompletedEvent<File>
  | FilePreviewReadyEvent<File>
  | FileDeletedEvent
  | RestorationProgressEvent
  | RestorationCompletedEvent<File>
  | RestorationFailedEvent<File>
  | CreditsUpdatedEvent;

export type RealtimeEventType = RealtimeEvent<EventFile>['type'];
