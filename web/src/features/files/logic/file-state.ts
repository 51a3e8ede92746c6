// The dashboard's file state (spec §3 "File state", §4 selection, after-action rules and realtime events) as a
// pure reducer, so every rule is unit-tested without a browser.
import type { RealtimeEvent } from '../../../api/types.js';
import { fileCost, fromDto, isPlaceholder, progressId, type FileItem, type FileKind } from './model.js';
import { progressPlaceholderName, restorationFailureText, startFailedText } from './texts.js';

export type AsyncStatus = 'idle' | 'loading' | 'success' | 'error';

export interface RestorationJob {
  fileId: string;
  filename: string;
  jobId: string | null;
  status: 'processing' | 'error';
  error: string | null;
  creditsRemaining: number | null;
}

export type RestorationResult =
  | { fileId: string; filename: string; ok: true; jobId: string; creditsRemaining: number | null }
  | { fileId: string; filename: string; ok: false; error: string };

export type ActionKey = 'download' | 'delete' | 'bulkDelete' | 'batchDownload' | 'restoration';

export interface FilesState {
  files: FileItem[];
  listStatus: AsyncStatus;
  listError: string | null;
  selectedOriginalIds: string[];
  selectedRestoredIds: string[];
  credits: number | null;
  actions: Record<ActionKey, AsyncStatus>;
  jobs: RestorationJob[];
  /** The latest restoration news, read out by a live region (progress, completion, failure). */
  announcement: string;
}

export type FilesAction =
  | { type: 'list/loading' }
  | { type: 'list/loaded'; files: FileItem[] }
  | { type: 'list/failed'; error: string }
  | { type: 'credits/set'; credits: number }
  | { type: 'select/toggle'; kind: FileKind; id: string }
  | { type: 'select/all'; kind: FileKind }
  | { type: 'select/clear'; kind: FileKind }
  | { type: 'file/upserted'; file: FileItem }
  | { type: 'action/status'; key: ActionKey; status: AsyncStatus }
  | { type: 'delete/succeeded'; id: string }
  | { type: 'bulkDelete/succeeded'; kind: FileKind; ids: string[] }
  | { type: 'batchDownload/succeeded' }
  | { type: 'restoration/started'; results: RestorationResult[] }
  | { type: 'realtime'; event: RealtimeEvent; at: string };

export const initialFilesState: FilesState = {
  files: [],
  listStatus: 'idle',
  listError: null,
  selectedOriginalIds: [],
  selectedRestoredIds: [],
  credits: null,
  actions: {
    download: 'idle',
    delete: 'idle',
    bulkDelete: 'idle',
    batchDownload: 'idle',
    restoration: 'idle',
  },
  jobs: [],
  announcement: '',
};

// ---- selectors -------------------------------------------------------------------------------------------------

export const originalsOf = (s: FilesState): FileItem[] => s.files.filter((f) => f.type === 'original');
export const restoredOf = (s: FilesState): FileItem[] => s.files.filter((f) => f.type === 'restored');
/** Files a user can select: progress placeholders are not real files. */
export const selectableOf = (s: FilesState, kind: FileKind): FileItem[] =>
  s.files.filter((f) => f.type === kind && !isPlaceholder(f));
export const selectedIdsOf = (s: FilesState, kind: FileKind): string[] =>
  kind === 'original' ? s.selectedOriginalIds : s.selectedRestoredIds;
export const selectedOriginalsOf = (s: FilesState): FileItem[] =>
  originalsOf(s).filter((f) => s.selectedOriginalIds.includes(f.id));
/** Total credits the selected originals cost (spec §5 credit check). */
export const selectedCostOf = (s: FilesState): number =>
  selectedOriginalsOf(s).reduce((sum, f) => sum + fileCost(f), 0);

// ---- helpers ---------------------------------------------------------------------------------------------------

function withoutFailure(file: FileItem): FileItem {
  const { failure: _failure, ...rest } = file;
  return rest;
}

const withSelection = (s: FilesState, kind: FileKind, ids: string[]): FilesState =>
  kind === 'original' ? { ...s, selectedOriginalIds: ids } : { ...s, selectedRestoredIds: ids };

const withoutIds = (s: FilesState, ids: ReadonlySet<string>): FilesState => ({
  ...s,
  files: s.files.filter((f) => !ids.has(f.id)),
  selectedOriginalIds: s.selectedOriginalIds.filter((id) => !ids.has(id)),
  selectedRestoredIds: s.selectedRestoredIds.filter((id) => !ids.has(id)),
});

/** Replace a file in place when known, else add it at the top (events and refetches may both deliver it). */
function upsertTop(files: FileItem[], file: FileItem): FileItem[] {
  const at = files.findIndex((f) => f.id === file.id);
  if (at < 0) return [file, ...files];
  const next = [...files];
  next[at] = file;
  return next;
}

/**
 * A server copy of a file (an event, a list reload) keeps the card's failure text when it has none of its own:
 * a refused start is known only here, and it stays until the file is restored or started again.
 */
function withLocalFailure(files: FileItem[], file: FileItem): FileItem {
  const failure = file.failure ?? files.find((f) => f.id === file.id)?.failure;
  return failure ? { ...file, failure } : file;
}

/** The server moves an original to processing, then processed or error; the list mirrors it without a reload. */
const withStatus = (files: FileItem[], id: string, status: string): FileItem[] =>
  files.map((f) => (f.id === id && f.type === 'original' ? { ...f, status } : f));

const withCredits = (s: FilesState, credits: unknown): FilesState =>
  typeof credits === 'number' && Number.isFinite(credits) ? { ...s, credits } : s;

function progressPlaceholder(
  original: FileItem,
  event: RealtimeEvent & { type: 'restoration.progress' },
  at: string,
) {
  const placeholder: FileItem = {
    id: progressId(original.id),
    filename: progressPlaceholderName(event.currentPage, event.totalPages, original.filename),
    file_type: original.file_type,
    file_size: 0,
    status: 'processing',
    type: 'restored',
    original_filename: original.filename,
    page_count: event.totalPages,
    credit_cost: null,
    days_remaining: null,
    preview_available: false,
    created_at: at,
    updated_at: at,
    original_file_id: original.id,
    job_id: event.jobId,
    progress: {
      currentPage: event.currentPage,
      totalPages: event.totalPages,
      successfulPages: event.successfulPages,
      failedPages: event.failedPages,
    },
  };
  return placeholder;
}

function applyRealtime(s: FilesState, event: RealtimeEvent, at: string): FilesState {
  switch (event.type) {
    case 'file.upload.completed':
    case 'file.preview.ready':
      return { ...s, files: upsertTop(s.files, withLocalFailure(s.files, fromDto(event.file))) };
    case 'restoration.progress': {
      const next = withCredits(s, event.credits_remaining);
      const original = originalsOf(s).find((f) => f.id === event.original_file_id);
      if (!original) return next; // realtimeWarning() reports it
      const existing = s.files.find((f) => f.id === progressId(original.id));
      const placeholder = progressPlaceholder(original, event, existing?.created_at ?? at);
      return {
        ...next,
        files: upsertTop(next.files, placeholder),
        announcement: `Restoring ${original.filename}: page ${event.currentPage} of ${event.totalPages}.`,
      };
    }
    case 'restoration.completed': {
      const next = withoutIds(
        withCredits(s, event.credits_remaining),
        new Set([progressId(event.original_file_id)]),
      );
      const failure = event.failure ? restorationFailureText(event.failure) : undefined;
      const files = withStatus(next.files, event.original_file_id, 'processed').map((f) =>
        f.id === event.original_file_id
          ? { ...withoutFailure(f), has_restored: true, ...(failure ? { failure } : {}) }
          : f,
      );
      const restored = fromDto(
        event.failure ? { ...event.file, restoration_failure: event.failure } : event.file,
      );
      return {
        ...next,
        files: upsertTop(files, restored),
        announcement: `${event.file.filename} is restored.${failure ? ` ${failure}` : ''}`,
      };
    }
    case 'restoration.failed': {
      const next = withoutIds(
        withCredits(s, event.credits_remaining),
        new Set([progressId(event.original_file_id)]),
      );
      const original = s.files.find((f) => f.id === event.original_file_id);
      const failure = restorationFailureText(event.failure);
      return {
        ...next,
        files: withStatus(next.files, event.original_file_id, 'error').map((f) =>
          f.id === event.original_file_id ? { ...f, failure } : f,
        ),
        announcement: `${original?.filename ?? 'A file'}: ${failure}`,
      };
    }
    case 'file.deleted':
      return withoutIds(s, new Set([event.fileId, progressId(event.fileId)]));
    case 'credits.updated':
      return withCredits(s, event.credits_remaining);
    default:
      return s;
  }
}

/** A warning to log for an event the state cannot place (spec §4: progress for an unknown original). */
export function realtimeWarning(s: FilesState, event: RealtimeEvent): string | null {
  if (event.type !== 'restoration.progress') return null;
  return originalsOf(s).some((f) => f.id === event.original_file_id)
    ? null
    : `Restoration progress for unknown original file ${event.original_file_id}`;
}

// ---- reducer ---------------------------------------------------------------------------------------------------

export function filesReducer(s: FilesState, action: FilesAction): FilesState {
  switch (action.type) {
    case 'list/loading':
      return { ...s, listStatus: 'loading', listError: null };
    case 'list/loaded': {
      // Keep live progress placeholders: the server list does not know them yet.
      const placeholders = s.files.filter(isPlaceholder);
      const known = new Set(action.files.map((f) => f.id));
      return {
        ...s,
        listStatus: 'success',
        listError: null,
        files: [...placeholders, ...action.files.map((f) => withLocalFailure(s.files, f))],
        selectedOriginalIds: s.selectedOriginalIds.filter((id) => known.has(id)),
        selectedRestoredIds: s.selectedRestoredIds.filter((id) => known.has(id)),
      };
    }
    case 'list/failed':
      return { ...s, listStatus: 'error', listError: action.error };
    case 'credits/set':
      return withCredits(s, action.credits);
    case 'select/toggle': {
      if (isPlaceholder({ id: action.id })) return s;
      const ids = selectedIdsOf(s, action.kind);
      return withSelection(
        s,
        action.kind,
        ids.includes(action.id) ? ids.filter((id) => id !== action.id) : [...ids, action.id],
      );
    }
    case 'select/all':
      return withSelection(
        s,
        action.kind,
        selectableOf(s, action.kind).map((f) => f.id),
      );
    case 'select/clear':
      return withSelection(s, action.kind, []);
    case 'file/upserted':
      return { ...s, files: upsertTop(s.files, action.file) };
    case 'action/status':
      return { ...s, actions: { ...s.actions, [action.key]: action.status } };
    case 'delete/succeeded':
      return { ...withoutIds(s, new Set([action.id])), actions: { ...s.actions, delete: 'success' } };
    case 'bulkDelete/succeeded':
      return {
        ...withSelection(withoutIds(s, new Set(action.ids)), action.kind, []),
        actions: { ...s.actions, bulkDelete: 'success' },
      };
    case 'batchDownload/succeeded':
      return {
        ...s,
        selectedOriginalIds: [],
        selectedRestoredIds: [],
        actions: { ...s.actions, batchDownload: 'success' },
      };
    case 'restoration/started': {
      const failed = new Set(action.results.filter((r) => !r.ok).map((r) => r.fileId));
      const started = new Set(action.results.filter((r) => r.ok).map((r) => r.fileId));
      const errors = new Map(action.results.flatMap((r) => (r.ok ? [] : [[r.fileId, r.error] as const])));
      const jobs: RestorationJob[] = action.results.map((r) =>
        r.ok
          ? {
              fileId: r.fileId,
              filename: r.filename,
              jobId: r.jobId,
              status: 'processing',
              error: null,
              creditsRemaining: r.creditsRemaining,
            }
          : {
              fileId: r.fileId,
              filename: r.filename,
              jobId: null,
              status: 'error',
              error: r.error,
              creditsRemaining: null,
            },
      );
      // Parallel starts answer in any order; the lowest balance is the latest one.
      const balances = action.results.flatMap((r) =>
        r.ok && r.creditsRemaining !== null ? [r.creditsRemaining] : [],
      );
      const next = balances.length > 0 ? { ...s, credits: Math.min(...balances) } : s;
      return {
        ...next,
        selectedOriginalIds: [],
        // Spec §4: a failed start sets the status error locally; the card also says why.
        files: next.files.map((f) =>
          failed.has(f.id)
            ? { ...f, status: 'error', failure: startFailedText(errors.get(f.id) ?? '') }
            : started.has(f.id)
              ? { ...withoutFailure(f), status: 'processing' }
              : f,
        ),
        // A job's first page can start, and be announced over the socket, before the start's answer arrives; its
        // progress is then the newer news and stays announced.
        announcement:
          failed.size > 0
            ? `${failed.size} ${failed.size === 1 ? 'restoration' : 'restorations'} could not start.`
            : [...started].some((id) => s.files.some((f) => f.id === progressId(id)))
              ? s.announcement
              : `${started.size} ${started.size === 1 ? 'restoration' : 'restorations'} started.`,
        jobs: [...jobs, ...s.jobs.filter((j) => !action.results.some((r) => r.fileId === j.fileId))],
        actions: { ...s.actions, restoration: failed.size > 0 ? 'error' : 'success' },
      };
    }
    case 'realtime':
      return applyRealtime(s, action.event, action.at);
  }
}
