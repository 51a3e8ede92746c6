// The slice of the files domain that restoration uses: read an original, change its status, add the
// restored file. Implemented over the files repository in restoration-files.adapter.ts.
import type { FileDto } from '../files/file.schemas.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Conn = Kysely<Database>;

export interface OriginalFile {
  id: string;
  userId: string;
  type: 'original' | 'restored';
  filename: string;
  status: string;
  storageKey: string;
  pageCount: number;
  mime: string;
}

export interface NewRestoredFile {
  id: string;
  userId: string;
  original: OriginalFile;
  jobId: string;
  storageKey: string;
  bytes: number;
  mime: string;
  extension: string;
  pageCount: number;
  now: Date;
}

export interface RestorationFiles {
  /** The user's file that is not deleted, or undefined (unknown, deleted or someone else's). */
  findOwned(conn: Conn, userId: string, fileId: string): Promise<OriginalFile | undefined>;
  /** Sets the status unless it is already `unlessStatus`; false when it was. */
  setStatus(conn: Conn, fileId: string, status: string, unlessStatus?: string): Promise<boolean>;
  createRestored(conn: Conn, file: NewRestoredFile): Promise<void>;
  toDto(conn: Conn, fileId: string): Promise<FileDto>;
}
