// The page-level API and the one page loop every caller uses (`restoreDocument`: the CLI, the benchmarks and
// the backend's job runner), with `restore` as the whole-file convenience around it. Pages run in the worker
// pool, each with a time limit; a page that fails keeps its original and never fails the document.
import type { RestoreMode } from '../analysis/plan.js';
import { PageTimeoutError } from '../errors.js';
import { loadDocument as readDocument, type Doc } from '../io/decode.js';
import type { StepCall } from '../steps/registry.js';
import type { AssembledOutput } from './assemble.js';
import type { PageOptions, RestoredPage } from './page.js';
import { assembleInPool, describePdfInPool, poolThreads, runPageTask } from './pool.js';

export const DEFAULT_PAGE_TIMEOUT_MS = 120_000;

export interface RestorePageOptions extends PageOptions {
  signal?: AbortSignal;
  /** Time limit for this page; the page is stopped at its next step when it is exceeded. */
  timeoutMs?: number;
  /** How long a stopped page may take to reach its next step before its thread is ended (a step that hangs). */
  stopGraceMs?: number;
  /** Extra step modules for the workers (default export: Step or Step[]). */
  stepModules?: string[];
}

export type { Doc };

/**
 * Reads what the pages of a file are; a PDF's page count and sizes are read in a worker thread. The bytes are
 * copied once into shared memory, so handing the document to a worker thread for each page copies nothing.
 */
export function loadDocument(bytes: Uint8Array): Promise<Doc> {
  return readDocument(sharedCopy(bytes), describePdfInPool);
}

function sharedCopy(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
  shared.set(bytes);
  return shared;
}

export async function restorePage(
  doc: Doc,
  index: number,
  opts: RestorePageOptions = {},
): Promise<RestoredPage> {
  const { signal, timeoutMs = DEFAULT_PAGE_TIMEOUT_MS, stepModules = [], stopGraceMs, ...pageOpts } = opts;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    return await runPageTask({ doc, index, opts: pageOpts, stepModules }, combined, stopGraceMs);
  } catch (error) {
    if (timeout.aborted && !signal?.aborted) throw new PageTimeoutError(index, timeoutMs);
    throw error;
  }
}

export type { AssembledOutput };

/**
 * The output file, built in a worker thread: a restored PDF for PDF input (PDF/A-2b with `pdfa`), the same
 * image format otherwise. Null pages stay original.
 */
export function assembleOutput(
  doc: Doc,
  pages: (RestoredPage | null)[],
  opts: { signal?: AbortSignal; pdfa?: boolean } = {},
): Promise<AssembledOutput> {
  return assembleInPool(doc, pages, opts.signal, { pdfa: opts.pdfa === true });
}

export interface RestoreProgress {
  currentPage: number;
  totalPages: number;
  successfulPages: number;
  failedPages: number;
}

export interface RestoreOptions extends Omit<RestoreDocumentOptions, 'checkpoint' | 'onPageDone'> {
  mode?: RestoreMode;
  /** After each page: how many are done (`currentPage`), restored and failed. */
  onProgress?: (progress: RestoreProgress) => void;
  keepTempDir?: string;
  steps?: StepCall[];
  /** PDF text layer (OCR of each restored page); on by default for PDF input. */
  ocr?: boolean;
  /** PDF input: write PDF/A-2b (see buildPdf). */
  pdfa?: boolean;
}

export interface PageReport {
  index: number;
  ok: boolean;
  error?: string;
  kind?: RestoredPage['kind'];
  steps: string[];
  fallback?: RestoredPage['fallback'];
  ms: number;
}

export interface RestoreResult extends AssembledOutput {
  pages: PageReport[];
}

/** Outcome of one page: the restored page, or why it failed (the output keeps the original page there). */
export type PageOutcome = { ok: true; page: RestoredPage } | { ok: false; error: string };

/** Where a caller keeps finished pages, so a run that was stopped resumes without redoing them. */
export interface PageCheckpoints {
  /** The outcome an earlier run stored for this page, if any. */
  load(index: number): Promise<PageOutcome | undefined>;
  /** Stores a page's outcome; called before the page is reported done. */
  save(index: number, outcome: PageOutcome): Promise<void>;
}

export interface PageDone {
  index: number;
  outcome: PageOutcome;
  /** Wall time of the page in this run, from its start to its end; 0 when it came from a checkpoint. */
  ms: number;
  fromCheckpoint: boolean;
}

export interface RestoreDocumentOptions extends PageOptions {
  pageTimeoutMs?: number;
  /** See RestorePageOptions. */
  stopGraceMs?: number;
  signal?: AbortSignal;
  stepModules?: string[];
  checkpoint?: PageCheckpoints;
  /** Called (and awaited) when a page starts, before its work is handed to a worker thread. */
  onPageStart?: (index: number) => void | Promise<void>;
  /** Called (and awaited) when a page is done, after its checkpoint was saved; also for checkpointed pages. */
  onPageDone?: (page: PageDone) => void | Promise<void>;
  /** Runs one page (default: `restorePage` in the pool); tests wrap it to record or fail chosen pages. */
  runPage?: (doc: Doc, index: number, opts: RestorePageOptions) => Promise<RestoredPage>;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Restores every page of a document not already in `checkpoint`: as many pages at a time as the pool has
 * threads (so each page's time limit starts when it really starts, and memory stays flat), in page order.
 * Resolves with every page's outcome; rejects only when `signal` aborts or a hook throws, after the pages in
 * flight have stopped.
 */
export async function restoreDocument(doc: Doc, opts: RestoreDocumentOptions = {}): Promise<PageOutcome[]> {
  const {
    pageTimeoutMs,
    signal: outer,
    checkpoint,
    onPageStart,
    onPageDone,
    runPage = restorePage,
    ...rest
  } = opts;
  const outcomes: PageOutcome[] = [];
  const todo: number[] = [];
  for (let index = 0; index < doc.pageCount; index++) {
    const stored = await checkpoint?.load(index);
    if (!stored) {
      todo.push(index);
      continue;
    }
    outcomes[index] = stored;
    await onPageDone?.({ index, outcome: stored, ms: 0, fromCheckpoint: true });
  }
  // A hook that throws stops the other pages too; the first error is the one reported.
  const stop = new AbortController();
  const signal = outer ? AbortSignal.any([outer, stop.signal]) : stop.signal;
  const pageOpts: RestorePageOptions = {
    ...rest,
    signal,
    timeoutMs: pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS,
  };
  let next = 0;
  let firstError: Error | undefined;
  const lane = async (): Promise<void> => {
    while (next < todo.length) {
      signal.throwIfAborted();
      const index = todo[next++]!;
      await onPageStart?.(index);
      const started = performance.now();
      let outcome: PageOutcome;
      try {
        outcome = { ok: true, page: await runPage(doc, index, pageOpts) };
      } catch (error) {
        if (signal.aborted) throw error;
        outcome = { ok: false, error: errorMessage(error) };
      }
      const ms = Math.round(performance.now() - started);
      await checkpoint?.save(index, outcome);
      outcomes[index] = outcome;
      await onPageDone?.({ index, outcome, ms, fromCheckpoint: false });
    }
  };
  const lanes = Array.from({ length: Math.min(poolThreads(), todo.length) }, async () => {
    try {
      await lane();
    } catch (error) {
      const reason: unknown = outer?.aborted ? outer.reason : error;
      firstError ??= reason instanceof Error ? reason : new Error(String(reason));
      stop.abort(error);
    }
  });
  await Promise.all(lanes);
  if (firstError !== undefined) throw firstError;
  return outcomes;
}

export async function restore(bytes: Uint8Array, opts: RestoreOptions = {}): Promise<RestoreResult> {
  const { onProgress, ...pageOpts } = opts;
  const doc = await loadDocument(bytes);
  const reports: PageReport[] = [];
  let ok = 0;
  let failed = 0;
  const outcomes = await restoreDocument(doc, {
    ...pageOpts,
    onPageDone: ({ index, outcome, ms }) => {
      if (outcome.ok) {
        const { kind, steps, fallback } = outcome.page;
        reports.push({
          index,
          ok: true,
          kind,
          steps,
          ...(fallback ? { fallback } : {}),
          ms: outcome.page.ms,
        });
        ok++;
      } else {
        reports.push({ index, ok: false, error: outcome.error, steps: [], ms });
        failed++;
      }
      onProgress?.({
        currentPage: ok + failed,
        totalPages: doc.pageCount,
        successfulPages: ok,
        failedPages: failed,
      });
    },
  });
  const pages = outcomes.map((outcome) => (outcome.ok ? outcome.page : null));
  const output = await assembleOutput(doc, pages, { signal: opts.signal, pdfa: opts.pdfa === true });
  return { ...output, pages: reports.sort((a, b) => a.index - b.index) };
}
