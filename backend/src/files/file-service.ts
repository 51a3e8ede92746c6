// The rules of files: what an upload must be, who may see what, how bytes and rows stay consistent.
import type { FileDto, RestorationFailure } from './file.schemas.js';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../errors.js';
import type { EventBus } from '../realtime/event-bus.js';
import { StorageNotFoundError, type ObjectStorage } from '../storage/storage.js';
import { toFileDto } from './file-dto.js';
import type { FilePurger } from './file-purger.js';
import type { FileRepository, FileRow, ListFilter } from './file-repository.js';
import { cleanClientName, contentDisposition, fileTypeOf, sanitizeFilename } from './filename.js';
import { MAX_PAGE_PIXELS } from '@folio/engine';
import type { FileReader } from './file-reader.js';
import { inspectUpload } from './inspect.js';
import type { PreviewQueue } from './preview-queue.js';
import { contentKey, previewMimeOfKey } from './storage-keys.js';
import { formatMegabytes } from './upload-reader.js';
import { streamZip } from './zip.js';

const DAY_MS = 86_400_000;
export const MAX_ZIP_FILES = 500;
/** Users whose full list is kept serialised (about 0.4 KB a file). */
const LIST_CACHE_USERS = 200;

export interface FileLimits {
  maxPdfPages: number;
  originalRetentionDays: number;
  /** Most bytes of live files one user may keep. */
  storageQuotaBytes: number;
}

/** Restorations that fell short, by file id (the jobs domain reads them; see jobs/job-failures.repository.ts). */
export interface RestorationFailures {
  forFiles(
    files: readonly { id: string; type: 'original' | 'restored'; job_id: string | null }[],
  ): Promise<Map<string, RestorationFailure>>;
}

export interface FileServiceDeps {
  files: FileRepository;
  failures: RestorationFailures;
  storage: ObjectStorage;
  bus: EventBus;
  previews: PreviewQueue;
  /** Where uploads are checked: reader children bounded in time and memory. */
  reader: FileReader;
  purger: FilePurger;
  limits: FileLimits;
  now: () => Date;
}

export interface Download {
  stream: Readable;
  contentType: string;
  contentLength?: number;
  contentDisposition: string;
}

export class FileService {
  private readonly listCache = new Map<string, { key: string; json: Buffer }>();

  constructor(private readonly deps: FileServiceDeps) {}

  /**
   * Validates an uploaded file from its bytes and keeps it. Refused files leave nothing behind: the bytes
   * are inspected before anything is written, and stored bytes are removed if the row cannot be written.
   */
  async createOriginal(
    userId: string,
    clientName: string | undefined,
    bytes: Buffer,
    jobId: string,
  ): Promise<FileDto> {
    const { bus, previews, reader, limits, now } = this.deps;
    await this.checkQuota(userId, bytes.length);
    const info = await inspectUpload(reader, bytes, {
      maxPages: limits.maxPdfPages,
      maxPixels: MAX_PAGE_PIXELS,
    });
    const id = randomUUID();
    const filename = sanitizeFilename(clientName, info.extension);
    const created = now();
    const row: FileRow = {
      id,
      user_id: userId,
      type: 'original',
      filename,
      original_filename: cleanClientName(clientName) || filename,
      file_type: fileTypeOf(filename),
      mime: info.mime,
      size_bytes: bytes.length,
      page_count: info.pageCount,
      status: 'uploaded',
      storage_key: contentKey(id),
      preview_key: null,
      preview_status: 'pending',
      original_file_id: null,
      job_id: jobId,
      expires_at: new Date(created.getTime() + limits.originalRetentionDays * DAY_MS).toISOString(),
      deleted_at: null,
      created_at: created.toISOString(),
      updated_at: created.toISOString(),
    };
    await this.store(row, bytes);
    previews.enqueue(id);
    const file = toFileDto(row, now());
    await bus.publish(userId, { type: 'file.upload.completed', file });
    return file;
  }

  /** Advisory: two uploads racing may both pass, each still within one file of the quota. */
  private async checkQuota(userId: string, adding: number): Promise<void> {
    const quota = this.deps.limits.storageQuotaBytes;
    const used = await this.deps.files.liveBytes(userId);
    if (used + adding > quota) {
      throw new PayloadTooLargeError(
        `Storage limit reached: your files use ${formatMegabytes(used)} of ${formatMegabytes(quota)}. ` +
          'Delete some files to upload more.',
      );
    }
  }

  private async store(row: FileRow, bytes: Buffer): Promise<void> {
    await this.deps.storage.put(row.storage_key, bytes);
    try {
      await this.deps.files.insert(row);
    } catch (error) {
      await this.deps.storage.delete(row.storage_key);
      throw error;
    }
  }

  async list(userId: string): Promise<FileDto[]> {
    return this.withRestoredMarks(userId, await this.deps.files.listLive(userId));
  }

  /**
   * The whole list as the JSON `serialize` writes, kept per user while the user's live files and the UTC day
   * (days_remaining) stay the same: 1,000 files are ~400 KB that took the event loop ~10 ms to write on each
   * call. Checked against the database on every call, so files added by other processes show at once.
   */
  async listJson(userId: string, serialize: (body: { files: FileDto[] }) => string): Promise<Buffer> {
    const key = `${await this.deps.files.liveStamp(userId)}|${this.deps.now().toISOString().slice(0, 10)}`;
    const cached = this.listCache.get(userId);
    if (cached?.key === key) return cached.json;
    // Kept as UTF-8 bytes: a 400 KB string would be encoded again for every answer.
    const json = Buffer.from(serialize({ files: await this.list(userId) }));
    this.listCache.delete(userId);
    this.listCache.set(userId, { key, json });
    // The least recently written list goes first (a Map keeps insertion order).
    if (this.listCache.size > LIST_CACHE_USERS) this.listCache.delete(this.listCache.keys().next().value!);
    return json;
  }

  /** One page of the list (search, filter, sort) and how many files match in all. */
  async listPage(
    userId: string,
    filter: ListFilter,
    page: { limit: number; offset: number },
  ): Promise<{ files: FileDto[]; total: number }> {
    const { rows, total } = await this.deps.files.listPage(userId, filter, page);
    return { files: await this.withRestoredMarks(userId, rows), total };
  }

  /**
   * DTOs, originals marked with has_restored so the dashboard can warn before paying twice, and files whose
   * restoration fell short with why and what was refunded.
   */
  private async withRestoredMarks(userId: string, rows: FileRow[]): Promise<FileDto[]> {
    const now = this.deps.now();
    const originals = rows.filter((row) => row.type === 'original').map((row) => row.id);
    const [restored, failures] = await Promise.all([
      this.deps.files.originalsWithRestored(originals),
      this.deps.failures.forFiles(rows),
    ]);
    return rows.map((row) => {
      const dto: FileDto = toFileDto(row, now);
      if (row.type === 'original') dto.has_restored = restored.has(row.id);
      const failure = failures.get(row.id);
      if (failure) dto.restoration_failure = failure;
      return dto;
    });
  }

  async get(userId: string, id: string): Promise<FileDto> {
    return toFileDto(await this.owned(userId, id), this.deps.now());
  }

  async download(userId: string, id: string): Promise<Download> {
    const row = await this.owned(userId, id);
    return {
      stream: await this.open(row.storage_key),
      contentType: row.mime,
      contentLength: Number(row.size_bytes),
      contentDisposition: contentDisposition(row.filename),
    };
  }

  async preview(userId: string, id: string): Promise<Download> {
    const row = await this.owned(userId, id);
    if (row.preview_status !== 'ready' || !row.preview_key) {
      throw new NotFoundError(
        row.preview_status === 'pending'
          ? 'The preview is not ready yet'
          : 'No preview available for this file',
      );
    }
    const previewName = `${row.filename.replace(/\.[^.]+$/, '')}_preview.${row.preview_key.split('.').pop() ?? 'webp'}`;
    return {
      stream: await this.open(row.preview_key),
      contentType: previewMimeOfKey(row.preview_key),
      contentDisposition: contentDisposition(previewName, 'inline'),
    };
  }

  /** A zip of the user's files, streamed; any id that is not a live file of this user is a 404. */
  async zip(userId: string, ids: readonly string[]): Promise<Download> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw new BadRequestError('No files selected for download');
    if (unique.length > MAX_ZIP_FILES)
      throw new BadRequestError(`At most ${MAX_ZIP_FILES} files can be downloaded at once`);
    const rows = await this.deps.files.findLiveMany(userId, unique);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const ordered = unique.map((id) => byId.get(id));
    if (ordered.some((row) => row === undefined)) throw new NotFoundError('File not found');
    const entries = (ordered as FileRow[]).map((row) => ({
      name: row.filename,
      mtime: new Date(row.updated_at),
      open: () => this.open(row.storage_key),
    }));
    const name =
      entries.length === 1
        ? 'download.zip'
        : `selected_files_${this.deps.now().toISOString().replace(/\D/g, '').slice(0, 14)}.zip`;
    return {
      stream: streamZip(entries),
      contentType: 'application/zip',
      contentDisposition: contentDisposition(name),
    };
  }

  /** Tombstone, then bytes, then row (see FilePurger); a crash midway is finished by the retention sweep. */
  async delete(userId: string, id: string): Promise<void> {
    const row = await this.deps.files.tombstone(userId, id, this.deps.now().toISOString());
    if (!row) throw new NotFoundError('File not found');
    await this.deps.purger.purge(row);
  }

  private async owned(userId: string, id: string): Promise<FileRow> {
    const row = await this.deps.files.findLive(userId, id);
    if (!row) throw new NotFoundError('File not found');
    return row;
  }

  private async open(key: string): Promise<Readable> {
    try {
      return await this.deps.storage.get(key);
    } catch (error) {
      if (error instanceof StorageNotFoundError)
        throw new NotFoundError('The file content is no longer available');
      throw error;
    }
  }
}
