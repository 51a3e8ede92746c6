// Removing a file is three steps so a crash at any point is finished later: (1) tombstone the row
// (deleted_at; it vanishes from every API answer), (2) delete its stored bytes, (3) delete the row.
// Retention's sweep runs steps 2-3 for every tombstone it finds, whoever made it.
import type { EventBus } from '../realtime/event-bus.js';
import type { ObjectStorage } from '../storage/storage.js';
import type { FileRepository, FileRow } from './file-repository.js';

export class FilePurger {
  constructor(
    private readonly files: FileRepository,
    private readonly storage: ObjectStorage,
    private readonly bus: EventBus,
  ) {}

  /** Step 2: idempotent, so repeating it after a crash is harmless. */
  async deleteBytes(row: FileRow): Promise<void> {
    await this.storage.delete(row.storage_key);
    if (row.preview_key) await this.storage.delete(row.preview_key);
  }

  /** Step 3, then the realtime notice. */
  async deleteRow(row: FileRow): Promise<void> {
    await this.files.deleteRow(row.id);
    await this.bus.publish(row.user_id, { type: 'file.deleted', fileId: row.id });
  }

  async purge(row: FileRow): Promise<void> {
    await this.deleteBytes(row);
    await this.deleteRow(row);
  }
}
