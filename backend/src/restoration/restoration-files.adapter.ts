// RestorationFiles over the files domain's repository and DTO mapping.
import type { FileDto } from '../files/file.schemas.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { toFileDto } from '../files/file-dto.js';
import { FileRepository } from '../files/file-repository.js';
import type { NewRestoredFile, OriginalFile, RestorationFiles } from './restoration-files.js';

type Conn = Kysely<Database>;
const DAY_MS = 86_400_000;

/** "scan.pdf" restored to a PDF → "restored_scan.pdf"; "photo.jpg" restored to a PNG → "restored_photo.png". */
export function restoredFilename(originalName: string, extension: string): string {
  const base = originalName.replace(/\.[^.]*$/, '') || 'file';
  return `restored_${base}.${extension}`;
}

export class RepositoryRestorationFiles implements RestorationFiles {
  constructor(private readonly restoredRetentionDays: number) {}

  async findOwned(conn: Conn, userId: string, fileId: string): Promise<OriginalFile | undefined> {
    const row = await new FileRepository(conn).findLive(userId, fileId);
    if (!row) return undefined;
    return {
      id: row.id,
      userId: row.user_id,
      type: row.type,
      filename: row.filename,
      status: row.status,
      storageKey: row.storage_key,
      pageCount: Number(row.page_count),
      mime: row.mime,
    };
  }

  async setStatus(conn: Conn, fileId: string, status: string, unlessStatus?: string): Promise<boolean> {
    return new FileRepository(conn).setStatus(fileId, status, new Date().toISOString(), unlessStatus);
  }

  async createRestored(conn: Conn, file: NewRestoredFile): Promise<void> {
    const at = file.now.toISOString();
    await new FileRepository(conn).insert({
      id: file.id,
      user_id: file.userId,
      type: 'restored',
      filename: restoredFilename(file.original.filename, file.extension),
      original_filename: file.original.filename,
      file_type: file.extension.toLowerCase(),
      mime: file.mime,
      size_bytes: file.bytes,
      page_count: file.pageCount,
      status: 'processed',
      storage_key: file.storageKey,
      preview_key: null,
      preview_status: 'pending',
      original_file_id: file.original.id,
      job_id: file.jobId,
      expires_at: new Date(file.now.getTime() + this.restoredRetentionDays * DAY_MS).toISOString(),
      deleted_at: null,
      created_at: at,
      updated_at: at,
    });
  }

  async toDto(conn: Conn, fileId: string): Promise<FileDto> {
    const row = await new FileRepository(conn).findLiveById(fileId);
    if (!row) throw new Error(`file ${fileId} vanished`);
    return toFileDto(row, new Date());
  }
}
