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

/** Restores one page in a worker thread. */
export async function runPageTask(task: PageTask, signal: AbortSignal): Promise<RestoredPage> {
  return (await enginePool().run(task, { signal })) as RestoredPage;
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
  return (await enginePool().run(task, {
    name: 'assembleTask',
    ...(signal ? { signal } : {}),
  })) as AssembledOutput;
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
