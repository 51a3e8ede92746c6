// Upload validation of spec §5: type by name (case-insensitive), size limit, same-name replacement.
import { MAX_UPLOAD_MB_DEFAULT, UPLOAD_EXTENSIONS } from '@folio/shared';
import { formatSize } from './format.js';
import { invalidTypeText, tooLargeText } from './texts.js';

export const MAX_UPLOAD_BYTES = MAX_UPLOAD_MB_DEFAULT * 1024 * 1024;

export interface FileError {
  name: string;
  message: string;
}

export function hasAllowedExtension(name: string): boolean {
  const lower = name.toLowerCase();
  return UPLOAD_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

export function validateFile(file: Pick<File, 'name' | 'size'>, maxBytes = MAX_UPLOAD_BYTES): string | null {
  if (!hasAllowedExtension(file.name)) return invalidTypeText();
  if (file.size > maxBytes) return tooLargeText(formatSize(maxBytes));
  return null;
}

/**
 * Merge a new selection into the current one: invalid files are reported by name and left out, valid ones are
 * accepted, and a new file replaces an earlier one with the same name (keeping its place in the list).
 */
export function mergeSelection<F extends Pick<File, 'name' | 'size'>>(
  current: readonly F[],
  incoming: readonly F[],
  maxBytes = MAX_UPLOAD_BYTES,
): { files: F[]; errors: FileError[] } {
  const files = [...current];
  const errors: FileError[] = [];
  for (const file of incoming) {
    const message = validateFile(file, maxBytes);
    if (message) {
      errors.push({ name: file.name, message });
      continue;
    }
    const at = files.findIndex((f) => f.name === file.name);
    if (at >= 0) files[at] = file;
    else files.push(file);
  }
  return { files, errors };
}
