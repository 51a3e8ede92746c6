// A small worker-thread pool for upload inspection and previews (piscina, as the engine's pool).
import {
  EngineInputError,
  inputErrors,
  type InputInfo,
  type InputLimits,
  type Thumbnail,
} from '@folio/engine';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { InspectOutcome, InspectTask } from './inspect-worker.js';

const here = fileURLToPath(import.meta.url);
// Under tsx or vitest this file is TypeScript, and so is the worker, which then needs tsx's loader.
const runningTs = here.endsWith('.ts');
const workerFile = path.join(path.dirname(here), runningTs ? 'inspect-worker.ts' : 'inspect-worker.js');

function workerExecArgv(): string[] {
  if (!runningTs) return [];
  return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}

/**
 * JavaScript heap of one thread: pdfjs and its canvas take about 200 MB. A file that needs more stops its
 * thread, not the server; native memory (pixels, canvases) is bounded by the engine's checks before drawing.
 */
const THREAD_HEAP_MB = 1024;

let pool: Piscina<InspectTask, InspectOutcome> | undefined;

function inspectPool(): Piscina<InspectTask, InspectOutcome> {
  pool ??= new Piscina<InspectTask, InspectOutcome>({
    filename: pathToFileURL(workerFile).href,
    execArgv: workerExecArgv(),
    minThreads: 0,
    maxThreads: 2,
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
  });
  return pool;
}

/** A task stopped by its time limit (piscina ends the thread) or by its thread's heap limit. */
function stoppedByLimit(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'AbortError' || (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
}

async function runTask(task: InspectTask, timeoutMs: number): Promise<Extract<InspectOutcome, { ok: true }>> {
  let outcome: InspectOutcome;
  try {
    outcome = await inspectPool().run(task, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (stoppedByLimit(error)) throw inputErrors.tooComplex();
    throw error;
  }
  if (!outcome.ok) throw new EngineInputError(outcome.code, outcome.message);
  return outcome;
}

/** `inspectInput` of @folio/engine, off the event loop. */
export async function inspectInThread(
  bytes: Buffer,
  limits: InputLimits,
  timeoutMs: number,
): Promise<InputInfo> {
  const { maxPages, maxPixels } = limits;
  const { info } = await runTask({ op: 'inspect', bytes, maxPages, maxPixels }, timeoutMs);
  if (!info) throw new Error('inspection returned nothing');
  return info;
}

/** `renderThumbnail` of @folio/engine, off the event loop. */
export async function thumbnailInThread(bytes: Buffer, width: number, timeoutMs: number): Promise<Thumbnail> {
  const { thumbnail } = await runTask({ op: 'thumbnail', bytes, width }, timeoutMs);
  if (!thumbnail) throw new Error('rendering returned nothing');
  return { data: Buffer.from(thumbnail.data), mime: thumbnail.mime };
}

/** Stops the threads (app close) so the process can exit; the next call starts a new pool. */
export async function closeInspectPool(): Promise<void> {
  const current = pool;
  pool = undefined;
  if (current) await current.destroy();
}
