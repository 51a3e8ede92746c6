// Builders for the logic tests: a FileDto as the API sends it.
import type { FileDto } from '../../../api/types.js';

export function dto(over: Partial<FileDto> & { id: string }): FileDto {
  const filename = over.filename ?? `${over.id}.pdf`;
  return {
    filename,
    name: filename,
    file_type: 'pdf',
    size_bytes: 2048,
    status: 'uploaded',
    type: 'original',
    original_filename: null,
    page_count: 2,
    credit_cost: 2,
    days_remaining: 20,
    preview_available: false,
    created_at: '2026-11-22T04:00:00.000Z',
    updated_at: '2026-11-22T04:00:00.000Z',
    original_file_id: null,
    job_id: null,
    ...over,
  };
}
