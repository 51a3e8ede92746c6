// The client-side file entity of spec §3 and its mapping from the API/event shape (FileDto, generated).
import type { FileDto } from '../../../api/types.js';
import { restorationFailureText } from './texts.js';

export interface FileProgress {
  currentPage: number;
  totalPages: number;
  successfulPages: number;
  failedPages: number;
}

export interface FileItem {
  id: string;
  filename: string;
  file_type: string;
  file_size: number;
  status: string;
  type: 'original' | 'restored';
  original_filename: string | null;
  page_count: number | null;
  credit_cost: number | null;
  days_remaining: number | null;
  preview_available: boolean;
  created_at: string;
  updated_at: string;
  original_file_id: string | null;
  job_id: string | null;
  /** Originals: a restored version of it exists. */
  has_restored?: boolean;
  /**
   * Why the last restoration of this original did not start (client only) or fell short, and the credits that
   * came back (from the server's restoration_failure, so it stays after a reload).
   */
  failure?: string;
  progress?: FileProgress;
}

export type FileKind = FileItem['type'];

export const PROGRESS_ID_PREFIX = 'progress-';
export const progressId = (originalFileId: string): string => `${PROGRESS_ID_PREFIX}${originalFileId}`;
export const isPlaceholder = (file: Pick<FileItem, 'id'>): boolean => file.id.startsWith(PROGRESS_ID_PREFIX);

/** file_type: lowercased extension, else the mime subtype, else "bin" (spec §3). */
export function fileTypeOf(filename: string, mime?: string | null): string {
  const dot = filename.lastIndexOf('.');
  if (dot > 0 && dot < filename.length - 1) return filename.slice(dot + 1).toLowerCase();
  const subtype = mime?.split('/')[1];
  return subtype ? subtype.toLowerCase() : 'bin';
}

export function fromDto(dto: FileDto): FileItem {
  const filename = dto.filename || dto.name;
  return {
    id: dto.id,
    filename,
    file_type: dto.file_type || fileTypeOf(filename),
    file_size: dto.size_bytes,
    status: dto.status,
    type: dto.type,
    original_filename: dto.original_filename,
    page_count: dto.page_count,
    credit_cost: dto.credit_cost,
    days_remaining: dto.days_remaining,
    preview_available: dto.preview_available ?? false,
    created_at: dto.created_at,
    updated_at: dto.updated_at,
    original_file_id: dto.original_file_id,
    job_id: dto.job_id,
    ...(dto.has_restored === undefined ? {} : { has_restored: dto.has_restored }),
    ...(dto.restoration_failure ? { failure: restorationFailureText(dto.restoration_failure) } : {}),
  };
}

/** Credits one original costs: its own credit_cost, else its page count, else one page. */
export const fileCost = (file: FileItem): number => file.credit_cost ?? file.page_count ?? 1;
