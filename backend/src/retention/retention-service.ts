// Automatic deletion (spec §1): originals after ORIGINAL_RETENTION_DAYS, restored files after
// RESTORED_RETENTION_DAYS (each row carries its expires_at). Every step is idempotent and the steps are
// ordered tombstone → bytes → row, so a crash anywhere is completed by the next sweep.
import type { FilePurger } from '../files/file-purger.js';
import type { FileRepository } from '../files/file-repository.js';
import { FILE_OBJECTS_PREFIX, fileIdOfKey } from '../files/storage-keys.js';
import type { ObjectStorage } from '../storage/storage.js';

export interface RetentionDeps {
  files: FileRepository;
  storage: ObjectStorage;
  purger: FilePurger;
  now: () => Date;
  orphanMinAgeMs: number;
}

export interface SweepReport {
  expired: number;
  purged: number;
  orphansRemoved: number;
}

const PURGE_BATCH = 200;
const ORPHAN_CHECK_BATCH = 500;

export class RetentionService {
  constructor(private readonly deps: RetentionDeps) {}

  /** Step 1: tombstone every live file whose time is up (they disappear from the API at once). */
  async markExpired(): Promise<number> {
    return this.deps.files.tombstoneExpired(this.deps.now().toISOString());
  }

  /** Steps 2 and 3 for every tombstone, including those left by a crash or an interrupted delete. */
  async purgeTombstoned(): Promise<number> {
    let purged = 0;
    for (;;) {
      const rows = await this.deps.files.listTombstoned(PURGE_BATCH);
      for (const row of rows) await this.deps.purger.purge(row);
      purged += rows.length;
      if (rows.length < PURGE_BATCH) return purged;
    }
  }

  /** Stored file objects that no row refers to and that are old enough not to be an upload in progress. */
  async removeOrphans(): Promise<number> {
    const cutoff = this.deps.now().getTime() - this.deps.orphanMinAgeMs;
    let removed = 0;
    let batch: { key: string; fileId: string }[] = [];
    const flush = async (): Promise<void> => {
      const existing = await this.deps.files.existingIds(batch.map((item) => item.fileId));
      for (const item of batch) {
        if (existing.has(item.fileId)) continue;
        await this.deps.storage.delete(item.key);
        removed++;
      }
      batch = [];
    };
    for await (const object of this.deps.storage.list(FILE_OBJECTS_PREFIX)) {
      const fileId = fileIdOfKey(object.key);
      if (fileId === undefined || object.lastModified.getTime() > cutoff) continue;
      batch.push({ key: object.key, fileId });
      if (batch.length >= ORPHAN_CHECK_BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    return removed;
  }

  async sweep(): Promise<SweepReport> {
    const expired = await this.markExpired();
    const purged = await this.purgeTombstoned();
    const orphansRemoved = await this.removeOrphans();
    return { expired, purged, orphansRemoved };
  }
}
