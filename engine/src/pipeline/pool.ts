// The worker pool: heavy pixel work never runs on the event loop.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { Piscina } from 'piscina';
import { EngineInputError } from '../errors.js';
import { engineSettings } from '../settings.js';
import type { PdfDescription } from '../io/pdf.js';
import type { Doc } from '../io/decode.js';
import type { BuildPdfOptions } from '../io/encode.js';
import type { AssembledOutput } from './assemble.js';
import type { RestoredPage } from './page.js';
import type { AssembleTask, PageTask, PdfTaskResult } from './worker.js';

const here = fileURLToPath(import.meta.url);
// Under tsx, vitest or the backend's dev server this file is TypeScript, and so is the worker: the worker
// thread then needs tsx's loader, resolved from here so it works from any working directory.
const runningTs = here.endsWith('.ts');
const workerFile = path.join(path.dirname(here), runningTs ? 'worker.ts' : 'worker.js');

function workerExecArgv(): string[] {
  if (!runningTs) return [];
  const tsxLoader = createRequire(import.meta.url).resolve('tsx');
  return ['--import', pathToFileURL(tsxLoader).href];
}

type Task = PageTask | AssembleTask | Uint8Array;
type TaskResult = RestoredPage | PdfTaskResult | AssembledOutput;

let pool: Piscina<Task, TaskResult> | undefined;
let keepWarm = false;

function enginePool(): Piscina<Task, TaskResult> {
  const settings = engineSettings();
  pool ??= new Piscina<Task, TaskResult>({
    filename: pathToFileURL(workerFile).href,
    execArgv: workerExecArgv(),
    // The worker threads use these settings rather than reading the environment again.
    workerData: settings,
    minThreads: keepWarm ? settings.threads : 0,
    maxThreads: settings.threads,
    idleTimeout: 60_000,
  });
  return pool;
}

/**
 * Starts the worker threads now and keeps them for the life of the process (a job worker calls this at start):
 * a job's first page then starts at once, without loading the engine's modules into a fresh thread first.
 */
export function warmEnginePool(): void {
  if (keepWarm) return;
  keepWarm = true;
  const cold = pool;
  pool = undefined;
  if (cold) void cold.close();
  const warm = enginePool();
  // pdfjs is loaded on a thread's first PDF (about 0.4 s): one blank page per thread loads it now, so a PDF
  // job's first page starts at once too.
  void blankPdf().then((bytes) =>
    Promise.all(
      Array.from({ length: warm.options.maxThreads }, () =>
        warm.run(bytes.slice(), { name: 'describePdfTask' }).catch(() => undefined),
      ),
    ),
  );
}

async function blankPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage();
  return doc.save();
}

/** How long an aborted task may take to stop by itself before its thread is ended (see `runStoppable`). */
const DEFAULT_STOP_GRACE_MS = 30_000;

/**
 * Runs a task in the pool and, when `signal` aborts, asks it to stop instead of ending its thread at once: a
 * thread ended inside a native call (an ONNX network run) takes the whole process down ("terminate called after
 * throwing an instance of 'Napi::Error'"), so a page stopped by its time limit, a lost lease or a deleted
 * original would end the worker and every job in it. The page task checks `stop` before each step
 * (pipeline/worker.ts), so it ends at its next step; the promise settles then, rejected with the abort's reason.
 * Only a task still running `graceMs` after the request, a step that never ends, has its thread ended.
 */
async function runStoppable<R>(
  task: Task,
  options: { name?: string; signal?: AbortSignal; stop?: Int32Array; graceMs?: number },
): Promise<R> {
  const { name, signal, stop, graceMs = DEFAULT_STOP_GRACE_MS } = options;
  if (!signal) return (await enginePool().run(task, name ? { name } : {})) as R;
  signal.throwIfAborted();
  const lastResort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    if (stop) Atomics.store(stop, 0, 1);
    timer = setTimeout(() => lastResort.abort(signal.reason), graceMs);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const result = (await enginePool().run(task, {
      ...(name ? { name } : {}),
      signal: lastResort.signal,
    })) as R;
    signal.throwIfAborted();
    return result;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/** Restores one page in a worker thread; an aborted page stops at its next step (`runStoppable`). */
export async function runPageTask(
  task: Omit<PageTask, 'stop'>,
  signal: AbortSignal,
  graceMs?: number,
): Promise<RestoredPage> {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  return runStoppable<RestoredPage>(
    { ...task, stop },
    { signal, stop, ...(graceMs !== undefined ? { graceMs } : {}) },
  );
}

/**
 * A PDF's page count and sizes, read by pdfjs in a worker thread: the calling thread (job runner, CLI) then
 * never loads pdfjs, which costs a thread about 360 MB once a document is opened.
 */
export async function describePdfInPool(bytes: Uint8Array): Promise<PdfDescription> {
  const result = (await enginePool().run(bytes, { name: 'describePdfTask' })) as PdfTaskResult;
  if (!result.ok) throw new EngineInputError(result.code, result.message);
  return result.description;
}

/** Builds the output file in a worker thread, so a long PDF assembly never holds the caller's event loop. */
export async function assembleInPool(
  doc: Doc,
  pages: (RestoredPage | null)[],
  signal?: AbortSignal,
  pdf: BuildPdfOptions = {},
): Promise<AssembledOutput> {
  const task: AssembleTask = { doc, pages, pdf };
  // Assembly has no steps to stop between: an aborted one runs to its end (or its grace) first.
  return runStoppable<AssembledOutput>(task, { name: 'assembleTask', ...(signal ? { signal } : {}) });
}

export function poolThreads(): number {
  return pool?.options.maxThreads ?? engineSettings().threads;
}

/** Stops the worker threads (the CLI and tests call this so the process can exit). */
export async function closeEnginePool(): Promise<void> {
  const p = pool;
  pool = undefined;
  keepWarm = false;
  if (p) await p.destroy();
}
