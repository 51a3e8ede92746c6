// The realtime events of @folio/shared, with the file they carry typed by the files routes' schema.
import type { RealtimeEvent as SharedRealtimeEvent } from '@folio/shared';
import type { FileDto } from '../files/file.schemas.js';

export type RealtimeEvent = SharedRealtimeEvent<FileDto>;
