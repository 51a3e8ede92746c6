// The API shape of a file (FileDto of file.schemas.ts), computed from a row and the current time.
import type { FileDto } from './file.schemas.js';
import type { FileRow } from './file-repository.js';

const DAY_MS = 86_400_000;

/**
 * Whole UTC calendar days until the expiry day: a 30-day file reads 30 right after upload and
 * 0 on the day it expires ("Expires today"), never negative.
 */
export function daysRemaining(expiresAt: string, now: Date): number {
  const expiryDay = Math.floor(Date.parse(expiresAt) / DAY_MS);
  const today = Math.floor(now.getTime() / DAY_MS);
  return Math.max(0, expiryDay - today);
}

export function toFileDto(row: FileRow, now: Date): FileDto {
  return {
    id: row.id,
    filename: row.filename,
    name: row.filename,
    file_type: row.file_type,
    size_bytes: Number(row.size_bytes),
    status: row.status,
    type: row.type,
    original_filename: row.original_filename,
    page_count: row.page_count,
    credit_cost: row.type === 'original' ? row.page_count : null,
    days_remaining: daysRemaining(row.expires_at, now),
    preview_available: row.preview_status === 'ready',
    created_at: row.created_at,
    updated_at: row.updated_at,
    original_file_id: row.original_file_id,
    job_id: row.job_id,
  };
}
