// Reads one multipart file part into memory within the size limit; maps multipart parse failures.
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { BadRequestError, HttpError } from '../errors.js';

export const MALFORMED_MULTIPART = 'Malformed multipart/form-data body';

/** A multipart request must name its boundary, or no part of it can be read. */
export function hasBoundary(request: FastifyRequest): boolean {
  return /;\s*boundary=\S/i.test(request.headers['content-type'] ?? '');
}

/**
 * Rethrows a failure met while reading multipart parts: the parser's own errors (a cut or garbled body) are
 * the client's, so they become 400; typed errors (413 limits, HttpErrors) keep their status.
 */
export function multipartFailure(error: unknown): never {
  if (error instanceof HttpError) throw error;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) throw error;
  throw new BadRequestError(MALFORMED_MULTIPART);
}

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
    // A body that broke off may have failed the part before anyone listened: settle now, never hang.
    if (file.errored) {
      reject(file.errored);
      return;
    }
    file.once('close', () => {
      if (!file.readableEnded) reject(file.errored ?? new Error('multipart part closed before its end'));
    });
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
