// Reads one multipart file part into memory within the size limit.
import type { MultipartFile } from '@fastify/multipart';

export type ReadResult = { ok: true; bytes: Buffer } | { ok: false };

/**
 * `stopEarly`: give up the moment the part passes the limit, so the rest of an oversized body is never
 * read (the single upload answers 413 and closes the connection). Otherwise the rest of the part is
 * skipped and parsing can go on with the next part (batch uploads).
 */
export async function readPart(part: MultipartFile, stopEarly: boolean): Promise<ReadResult> {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) {
    if (part.file.truncated) {
      if (stopEarly) return { ok: false };
      chunks.length = 0;
      continue;
    }
    chunks.push(chunk as Buffer);
  }
  if (part.file.truncated) return { ok: false };
  return { ok: true, bytes: Buffer.concat(chunks) };
}

/** "10 MB", "2.5 MB" */
export function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 100) / 100} MB`;
}
