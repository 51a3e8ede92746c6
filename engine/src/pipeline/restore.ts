// The page-level API and the whole-document convenience around it. Pages run in the worker pool, each with
// a time limit; a page that fails keeps its original and never fails the document.
import sharp from 'sharp';
import type { RestoreMode } from '../analysis/plan.js';
import { PageTimeoutError } from '../errors.js';
import { loadDocument as readDocument, type Doc } from '../io/decode.js';
import { buildPdf, type BuildPdfOptions } from '../io/encode.js';
import { EXTENSION_BY_FORMAT, MIME_BY_FORMAT } from '../io/sniff.js';
import type { StepCall } from '../steps/registry.js';
import type { PageOptions, RestoredPage } from './page.js';
import { describePdfInPool, poolThreads, runPageTask } from './pool.js';

export const DEFAULT_PAGE_TIMEOUT_MS = 120_000;

export interface RestorePageOptions extends PageOptions {
  signal?: AbortSignal;
  /** Time limit for this page; the worker running it is stopped when it is exceeded. */
  timeoutMs?: number;
  /** Extra step modules for the workers (default export: Step or Step[]). */
  stepModules?: string[];
}

export type { Doc };

/** Reads what the pages of a file are; a PDF's page count and sizes are read in a worker thread. */
export function loadDocument(bytes: Uint8Array): Promise<Doc> {
  return readDocument(bytes, describePdfInPool);
}

export async function restorePage(
  doc: Doc,
  index: number,
  opts: RestorePageOptions = {},
): Promise<RestoredPage> {
  const { signal, timeoutMs = DEFAULT_PAGE_TIMEOUT_MS, stepModules = [], ...pageOpts } = opts;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    return await runPageTask({ doc, index, opts: pageOpts, stepModules }, combined);
  } catch (error) {
    if (timeout.aborted && !signal?.aborted) throw new PageTimeoutError(index, timeoutMs);
    throw error;
  }
}

export interface AssembledOutput {
  bytes: Uint8Array;
  mime: string;
  extension: string;
}

/**
 * The output file: a restored PDF for PDF input (PDF/A-2b with `pdfa`), the same image format otherwise. Null
 * pages stay original.
 */
export async function assembleOutput(
  doc: Doc,
  pages: (RestoredPage | null)[],
  pdfOpts: BuildPdfOptions = {},
): Promise<AssembledOutput> {
  if (pages.length !== doc.pageCount)
    throw new RangeError(`Expected ${doc.pageCount} pages, got ${pages.length}.`);
  if (doc.format === 'pdf') {
    const bytes = await buildPdf(
      pages.map((p, i) =>
        p === null
          ? null
          : {
              widthPt: doc.pageSizes[i]!.width,
              heightPt: doc.pageSizes[i]!.height,
              image: { bytes: p.bytes, mime: p.mime, width: p.width, height: p.height },
              words: p.words,
            },
      ),
      doc.bytes,
      pdfOpts,
    );
    return { bytes, mime: MIME_BY_FORMAT.pdf, extension: EXTENSION_BY_FORMAT.pdf };
  }
  const mime = MIME_BY_FORMAT[doc.format];
  const extension = EXTENSION_BY_FORMAT[doc.format];
  if (doc.pageCount === 1) return { bytes: pages[0]?.bytes ?? doc.bytes, mime, extension };
  // Multi-page TIFF: restored pages and untouched originals joined again, in order.
  const frames = await Promise.all(
    pages.map((p, i) => (p ? sharp(p.bytes).toBuffer() : sharp(doc.bytes, { page: i }).rotate().toBuffer())),
  );
  const dpi = pages.find((p) => p !== null)?.dpi ?? doc.pageSizes[0]?.dpi ?? 150;
  const out = await sharp(frames, { join: { animated: true } })
    .withMetadata({ density: dpi })
    .tiff({ compression: 'lzw' })
    .toBuffer();
  return { bytes: new Uint8Array(out.buffer, out.byteOffset, out.length), mime, extension };
}

export interface RestoreProgress {
  currentPage: number;
  totalPages: number;
  successfulPages: number;
  failedPages: number;
}

export interface RestoreOptions {
  mode?: RestoreMode;
  onProgress?: (progress: RestoreProgress) => void;
  pageTimeoutMs?: number;
  signal?: AbortSignal;
  keepTempDir?: string;
  steps?: StepCall[];
  stepModules?: string[];
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

export async function restore(bytes: Uint8Array, opts: RestoreOptions = {}): Promise<RestoreResult> {
  const doc = await loadDocument(bytes);
  const results: (RestoredPage | null)[] = new Array<RestoredPage | null>(doc.pageCount).fill(null);
  const reports: PageReport[] = [];
  let done = 0;
  let ok = 0;
  let failed = 0;
  const pageOpts: RestorePageOptions = {
    ...(opts.mode ? { mode: opts.mode } : {}),
    ...(opts.keepTempDir ? { keepTempDir: opts.keepTempDir } : {}),
    ...(opts.steps ? { steps: opts.steps } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.stepModules ? { stepModules: opts.stepModules } : {}),
    ...(opts.ocr !== undefined ? { ocr: opts.ocr } : {}),
    timeoutMs: opts.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS,
  };
  let next = 0;
  // As many pages in flight as there are threads, so each page's time limit starts when it really starts.
  const runOne = async (): Promise<void> => {
    while (next < doc.pageCount) {
      opts.signal?.throwIfAborted();
      const index = next++;
      const started = performance.now();
      try {
        const page = await restorePage(doc, index, pageOpts);
        results[index] = page;
        reports.push({
          index,
          ok: true,
          kind: page.kind,
          steps: page.steps,
          ...(page.fallback ? { fallback: page.fallback } : {}),
          ms: page.ms,
        });
        ok++;
      } catch (error) {
        if (opts.signal?.aborted) throw error;
        reports.push({
          index,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
          steps: [],
          ms: Math.round(performance.now() - started),
        });
        failed++;
      }
      done++;
      opts.onProgress?.({
        currentPage: done,
        totalPages: doc.pageCount,
        successfulPages: ok,
        failedPages: failed,
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(poolThreads(), doc.pageCount) }, runOne));
  const output = await assembleOutput(doc, results, { pdfa: opts.pdfa === true });
  return { ...output, pages: reports.sort((a, b) => a.index - b.index) };
}
