// Restored pages are checkpointed in storage as JSON so a resumed job skips finished pages. Byte arrays
// (encoded page images) are written as base64 and come back as Buffers.
const BYTES_TAG = '$bytes';

function encode(value: unknown): unknown {
  if (value instanceof Uint8Array) return { [BYTES_TAG]: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(encode);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, encode(inner)]));
  }
  return value;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const bytes = record[BYTES_TAG];
    if (typeof bytes === 'string' && Object.keys(record).length === 1) return Buffer.from(bytes, 'base64');
    return Object.fromEntries(Object.entries(record).map(([key, inner]) => [key, decode(inner)]));
  }
  return value;
}

export function serializeCheckpoint(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(encode(value)));
}

export function deserializeCheckpoint(bytes: Buffer): unknown {
  return decode(JSON.parse(bytes.toString('utf8')));
}

/** Outcome of one page as stored under the job: the restored page, or the reason it failed. */
export type PageCheckpoint = { ok: true; page: unknown } | { ok: false; error: string };

export function pageCheckpointKey(jobId: string, index: number): string {
  return `jobs/${jobId}/page-${String(index + 1).padStart(5, '0')}.json`;
}

export function jobCheckpointPrefix(jobId: string): string {
  return `jobs/${jobId}/`;
}
