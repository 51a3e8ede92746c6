// Upload state of spec §3/§4: the selected files with per-file status, the overall upload status and progress.
import { mergeSelection, MAX_UPLOAD_BYTES, type FileError } from './upload-validation.js';

export type ItemStatus = 'pending' | 'uploading' | 'success' | 'failed';
export type UploadStatus = 'idle' | 'uploading' | 'completed' | 'failed';

export interface UploadItem<F = File> {
  file: F;
  status: ItemStatus;
  error: string | null;
}

export interface UploadState<F = File> {
  items: UploadItem<F>[];
  /** Validation errors of the last selection, by file name. */
  rejected: FileError[];
  status: UploadStatus;
  progress: number;
  error: string | null;
  jobId: string | null;
  batchJobId: string | null;
  /** How many files the last completed upload took (the list itself is cleared then). */
  completedCount: number;
}

type Named = Pick<File, 'name' | 'size'>;

export type UploadAction<F> =
  | { type: 'select'; files: F[] }
  | { type: 'remove'; name: string }
  | { type: 'clear' }
  | { type: 'start' }
  | { type: 'progress'; percent: number }
  | { type: 'item/succeeded'; name: string }
  | { type: 'item/failed'; name: string; error: string }
  | { type: 'item/retry'; name: string }
  | { type: 'finished'; jobId?: string; batchJobId?: string }
  | { type: 'failed'; error: string }
  | { type: 'tryAgain' };

export const initialUploadState: UploadState<never> = {
  items: [],
  rejected: [],
  status: 'idle',
  progress: 0,
  error: null,
  jobId: null,
  batchJobId: null,
  completedCount: 0,
};

const setItem = <F extends Named>(items: UploadItem<F>[], name: string, patch: Partial<UploadItem<F>>) =>
  items.map((item) => (item.file.name === name ? { ...item, ...patch } : item));

/** After the last file settles: completed when every file made it, else failed with the per-file errors. */
function settle<F extends Named>(s: UploadState<F>): UploadState<F> {
  if (s.items.some((i) => i.status === 'uploading' || i.status === 'pending')) return s;
  const failed = s.items.filter((i) => i.status === 'failed');
  // Everything made it: "Upload Complete!" stays, the list is cleared for the next files.
  if (failed.length === 0) {
    return {
      ...s,
      items: [],
      completedCount: s.items.length,
      status: 'completed',
      progress: 100,
      error: null,
    };
  }
  return {
    ...s,
    status: 'failed',
    error: failed.map((i) => `${i.file.name}: ${i.error ?? 'Upload failed'}`).join('\n'),
  };
}

export function uploadReducer<F extends Named>(
  s: UploadState<F>,
  action: UploadAction<F>,
  maxBytes = MAX_UPLOAD_BYTES,
): UploadState<F> {
  switch (action.type) {
    case 'select': {
      // Selecting files resets the upload state: a new pick replaces the selection.
      const { files, errors } = mergeSelection([], action.files, maxBytes);
      const previous = new Map(s.items.map((i) => [i.file, i]));
      return {
        ...s,
        items: files.map((file) => {
          const kept = previous.get(file);
          return kept && kept.status !== 'success'
            ? { ...kept, status: 'pending', error: null }
            : { file, status: 'pending', error: null };
        }),
        rejected: errors,
        status: 'idle',
        progress: 0,
        error: null,
      };
    }
    case 'remove': {
      const items = s.items.filter((i) => i.file.name !== action.name);
      return { ...s, items, status: items.length === 0 ? 'idle' : s.status };
    }
    case 'clear':
      return { ...s, items: [], rejected: [], status: 'idle', progress: 0, error: null };
    case 'start':
      return {
        ...s,
        items: s.items.map((i) => (i.status === 'success' ? i : { ...i, status: 'uploading', error: null })),
        status: 'uploading',
        progress: 0,
        error: null,
      };
    case 'progress':
      return { ...s, progress: Math.max(0, Math.min(100, action.percent)) };
    case 'item/succeeded':
      return settle({ ...s, items: setItem(s.items, action.name, { status: 'success', error: null }) });
    case 'item/failed':
      return settle({
        ...s,
        items: setItem(s.items, action.name, { status: 'failed', error: action.error }),
      });
    case 'item/retry':
      return {
        ...s,
        items: setItem(s.items, action.name, { status: 'uploading', error: null }),
        status: 'uploading',
        progress: 0,
        error: null,
      };
    case 'finished':
      return settle({
        ...s,
        items: s.items.map((i) => (i.status === 'uploading' ? { ...i, status: 'success' } : i)),
        jobId: action.jobId ?? s.jobId,
        batchJobId: action.batchJobId ?? s.batchJobId,
      });
    case 'failed':
      return {
        ...s,
        items: s.items.map((i) =>
          i.status === 'uploading' ? { ...i, status: 'failed', error: action.error } : i,
        ),
        status: 'failed',
        error: action.error,
      };
    case 'tryAgain':
      // Files that made it stay uploaded (sending them again would make duplicates).
      return {
        ...s,
        items: s.items.map((i) => (i.status === 'success' ? i : { ...i, status: 'pending', error: null })),
        rejected: [],
        status: 'idle',
        progress: 0,
        error: null,
      };
  }
}
