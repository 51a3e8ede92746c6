// Originals for restoration tests, stored the way an upload stores them: bytes in the app's storage
// under the file's content key, a row in the files table. Inputs are small crops of real eval pages.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { CreditsService } from '../../src/credits/credits.service.js';
import type { Db } from '../../src/db/database.js';
import { withTransaction } from '../../src/db/transaction.js';
import { FileRepository } from '../../src/files/file-repository.js';
import { contentKey } from '../../src/files/storage-keys.js';
import type { ObjectStorage } from '../../src/storage/storage.js';
import { EVAL_DIR } from '../fixtures/bad-files.js';

export { EVAL_DIR };

export const FIVE_PAGE_PDF = `${EVAL_DIR}/pdf_003/degraded.pdf`;

/** A small PNG crop of a real degraded document page (fast in the engine). */
export async function pngCrop(left = 200, top = 300, width = 320, height = 200): Promise<Buffer> {
  return sharp(readFileSync(`${EVAL_DIR}/doc_001/degraded.png`))
    .extract({ left, top, width, height })
    .png()
    .toBuffer();
}

/** The public set's degraded page doc_00N as it is stored (a whole greyscale PNG scan). */
export function degradedPage(n: number): Promise<Buffer> {
  return readFile(`${EVAL_DIR}/doc_${String(n).padStart(3, '0')}/degraded.png`);
}

/** A multi-page TIFF of small crops, one per page. */
export async function tiffPages(count: number): Promise<Buffer> {
  const frames = await Promise.all(
    Array.from({ length: count }, (_, i) => pngCrop(150 + i * 40, 250 + i * 30, 280, 180)),
  );
  return sharp(frames, { join: { animated: true } })
    .tiff({ compression: 'lzw' })
    .toBuffer();
}

export interface OriginalSpec {
  bytes: Buffer;
  filename: string;
  mime: string;
  fileType: string;
  pageCount: number;
  type?: 'original' | 'restored';
  status?: string;
}

export async function addOriginal(
  db: Db,
  storage: ObjectStorage,
  userId: string,
  spec: OriginalSpec,
): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await storage.put(contentKey(id), spec.bytes);
  await new FileRepository(db).insert({
    id,
    user_id: userId,
    type: spec.type ?? 'original',
    filename: spec.filename,
    original_filename: spec.filename,
    file_type: spec.fileType,
    mime: spec.mime,
    size_bytes: spec.bytes.length,
    page_count: spec.pageCount,
    status: spec.status ?? 'uploaded',
    storage_key: contentKey(id),
    preview_key: null,
    preview_status: 'none',
    original_file_id: null,
    job_id: null,
    expires_at: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
    deleted_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  return id;
}

export const png = (bytes: Buffer, filename = 'scan.png', pageCount = 1): OriginalSpec => ({
  bytes,
  filename,
  mime: 'image/png',
  fileType: 'png',
  pageCount,
});

/** Grants credits through the ledger, like a purchase. */
export async function grantCredits(db: Db, userId: string, credits: number): Promise<number> {
  const result = await withTransaction(db, (trx) =>
    new CreditsService().apply(trx, {
      userId,
      delta: credits,
      reason: 'test',
      reference: `test:${randomUUID()}`,
    }),
  );
  return result.balance;
}

export async function ledgerOf(db: Db, userId: string) {
  return db
    .selectFrom('credit_ledger')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

export async function balanceOf(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('credits_remaining')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.credits_remaining;
}
