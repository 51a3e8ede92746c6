// Writes `count` file rows for one user straight into an app's SQLite file, for the list benchmarks (uploading
// them would measure uploads instead): PDFs of 1–7 pages, a third of them restored, one minute apart.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { openDatabase } from '../src/db/database.js';
import { FileRepository, type FileRow } from '../src/files/file-repository.js';
import { contentKey } from '../src/files/storage-keys.js';

export async function seedFiles(dataDir: string, userId: string, count: number): Promise<void> {
  const db = openDatabase({ sqlitePath: path.join(dataDir, 'folio.sqlite') });
  const files = new FileRepository(db);
  const start = Date.now() - count * 60_000;
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const at = new Date(start + i * 60_000).toISOString();
    const row: FileRow = {
      id,
      user_id: userId,
      type: i % 3 === 0 ? 'restored' : 'original',
      filename: `scan-${i}.pdf`,
      original_filename: `scan-${i}.pdf`,
      file_type: 'pdf',
      mime: 'application/pdf',
      size_bytes: 1_000_000 + i,
      page_count: 1 + (i % 7),
      status: 'uploaded',
      storage_key: contentKey(id),
      preview_key: null,
      preview_status: 'none',
      original_file_id: null,
      job_id: null,
      expires_at: new Date(start + 30 * 86_400_000).toISOString(),
      deleted_at: null,
      created_at: at,
      updated_at: at,
    };
    await files.insert(row);
  }
  await db.destroy();
}
