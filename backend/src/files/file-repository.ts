// Queries on the files table. Live rows have deleted_at null; tombstoned rows are only seen by retention.
import { sql, type Kysely, type SelectQueryBuilder, type Selectable } from 'kysely';
import type { Database } from '../db/schema.js';
import type { FilesTable } from './files.tables.js';

export type FileRow = Selectable<FilesTable>;

/** What a page of the list asks for; every field is optional. */
export interface ListFilter {
  q?: string;
  type?: 'original' | 'restored';
  status?: string;
  format?: 'pdf' | 'image';
  sort?: 'created' | 'name' | 'size' | 'days_left';
  order?: 'asc' | 'desc';
}

const SORT_COLUMNS = {
  created: 'created_at',
  name: 'filename',
  size: 'size_bytes',
  days_left: 'expires_at',
} as const;

/** `%` and `_` in a search are plain characters. */
const likePattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** The database or an open transaction. */
export type Executor = Kysely<Database>;

export class FileRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Executor) {
    this.db = db;
  }

  async insert(row: FileRow): Promise<void> {
    await this.db.insertInto('files').values(row).execute();
  }

  async findLive(userId: string, id: string): Promise<FileRow | undefined> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Any live row, whoever owns it (background work that only has the id). */
  async findLiveById(id: string): Promise<FileRow | undefined> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  async findLiveMany(userId: string, ids: readonly string[]): Promise<FileRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('id', 'in', ids)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /**
   * What changes whenever a user's live files change: their number and latest update (an insert or an update
   * moves the latest; a tombstone or a delete lowers the number). The full list is cached against it.
   */
  async liveStamp(userId: string): Promise<string> {
    const row = await this.db
      .selectFrom('files')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('updated_at').as('latest')])
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return `${Number(row.n)}|${String(row.latest)}`;
  }

  /** Newest first; ties on the same instant are broken by id so the order is stable. */
  async listLive(userId: string): Promise<FileRow[]> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** One page of the live files matching `filter`, and how many match in all. */
  async listPage(
    userId: string,
    filter: ListFilter,
    page: { limit: number; offset: number },
  ): Promise<{ rows: FileRow[]; total: number }> {
    const matching = this.matching(userId, filter);
    const column = SORT_COLUMNS[filter.sort ?? 'created'];
    const order = filter.order ?? (filter.sort === 'name' || filter.sort === 'days_left' ? 'asc' : 'desc');
    const [rows, count] = await Promise.all([
      matching
        .selectAll()
        .orderBy(column, order)
        .orderBy('id', order)
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      matching.select((eb) => eb.fn.countAll<number | string | bigint>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  private matching(userId: string, filter: ListFilter) {
    let query: SelectQueryBuilder<Database, 'files', object> = this.db
      .selectFrom('files')
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null);
    if (filter.type) query = query.where('type', '=', filter.type);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.format === 'pdf') query = query.where('file_type', '=', 'pdf');
    if (filter.format === 'image') query = query.where('file_type', '!=', 'pdf');
    const q = filter.q?.trim();
    if (q) {
      query = query.where(sql<boolean>`lower(filename) like ${likePattern(q)} escape '\\'`);
    }
    return query;
  }

  /** Which of these originals (ids the caller read from its own rows) have a live restored version. */
  async originalsWithRestored(originalIds: readonly string[]): Promise<Set<string>> {
    if (originalIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('files')
      .select('original_file_id')
      .distinct()
      .where('original_file_id', 'in', originalIds)
      .where('deleted_at', 'is', null)
      .execute();
    return new Set(rows.map((row) => row.original_file_id).filter((id): id is string => id !== null));
  }

  async listPendingPreviews(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('files')
      .select('id')
      .where('preview_status', '=', 'pending')
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Counts a preview attempt before it starts; false (and nothing counted) when the file already had
   * `maxAttempts`. Also a claim: of two processes, only the first renders a file whose limit is one.
   */
  async startPreviewAttempt(id: string, maxAttempts: number, at: string): Promise<boolean> {
    const result = await this.db
      .insertInto('preview_attempts')
      .values({ file_id: id, attempts: 1, attempted_at: at })
      .onConflict((conflict) =>
        conflict
          .column('file_id')
          .doUpdateSet((eb) => ({
            attempts: eb('preview_attempts.attempts', '+', 1),
            attempted_at: eb.ref('excluded.attempted_at'),
          }))
          .where('preview_attempts.attempts', '<', maxAttempts),
      )
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  /**
   * Quarantine: pending previews whose attempts are used up and whose last attempt started before `before`
   * (so it is not still running elsewhere) become `failed`. Returns their ids.
   */
  async failExhaustedPreviews(maxAttempts: number, before: string, at: string): Promise<string[]> {
    const exhausted = this.db
      .selectFrom('preview_attempts')
      .select('file_id')
      .where('attempts', '>=', maxAttempts)
      .where('attempted_at', '<', before);
    const rows = await this.db
      .updateTable('files')
      .set({ preview_status: 'failed', updated_at: at })
      .where('preview_status', '=', 'pending')
      .where('deleted_at', 'is', null)
      .where('id', 'in', exhausted)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Sets a live file's status, unless it already has `unlessStatus` (the guard of a status change used as a lock);
   * true when the row changed.
   */
  async setStatus(id: string, status: string, at: string, unlessStatus?: string): Promise<boolean> {
    let query = this.db
      .updateTable('files')
      .set({ status, updated_at: at })
      .where('id', '=', id)
      .where('deleted_at', 'is', null);
    if (unlessStatus !== undefined) query = query.where('status', '!=', unlessStatus);
    const result = await query.executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Records a finished preview; false when the file was removed meanwhile (the caller drops the preview). */
  async setPreview(id: string, status: string, previewKey: string | null, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('files')
      .set({ preview_status: status, preview_key: previewKey, updated_at: at })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Tombstones one owned live file; undefined when there is none. */
  async tombstone(userId: string, id: string, at: string): Promise<FileRow | undefined> {
    return this.db
      .updateTable('files')
      .set({ deleted_at: at })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }

  async tombstoneExpired(now: string): Promise<number> {
    const result = await this.db
      .updateTable('files')
      .set({ deleted_at: now })
      .where('expires_at', '<=', now)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async listTombstoned(limit: number): Promise<FileRow[]> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('deleted_at', 'is not', null)
      .orderBy('deleted_at')
      .limit(limit)
      .execute();
  }

  async deleteRow(id: string): Promise<void> {
    await this.db.deleteFrom('files').where('id', '=', id).execute();
  }

  /** Which of these ids still have a row (live or tombstoned). */
  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('files').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }

  /** Bytes of the user's live files (the storage quota counts these). */
  async liveBytes(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('files')
      .select((eb) => eb.fn.sum<number | string | null>('size_bytes').as('total'))
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }
}
