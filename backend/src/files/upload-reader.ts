// Reads one multipart file part into memory within the size limit.
import type { MultipartFile } from '@fastify/multipart';

export type ReadResult = { ok: true; bytes: Buffer } | { ok: false };

/**
 * `stopEarly`: give up the moment the part passes the limit (busboy's 'limit' event), so the rest of an
 * oversized body is never waited for (the single upload answers 413 and closes the connection).
 * Otherwise busboy skips the rest of the part and parsing goes on with the next one (batch uploads).
 */
export function readPart(part: MultipartFile, stopEarly: boolean): Promise<ReadResult> {
  const file = part.file;
  const chunks: Buffer[] = [];
  return new Promise<ReadResult>((resolve, reject) => {
    file.on('data', (chunk: Buffer) => {
      if (!file.truncated) chunks.push(chunk);
    });
    file.once('limit', () => {
      chunks.length = 0;
      if (stopEarly) resolve({ ok: false });
    });
    file.once('end', () =>
      resolve(file.truncated ? { ok: false } : { ok: true, bytes: Buffer.concat(chunks) }),
    );
    file.once('error', reject);
  });
}

/** "10 MB", "2.5 MB" */
export function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 100) / 100} MB`;
}
