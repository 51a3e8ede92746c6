// Piscina worker: restores one page per task (the default export), reads a PDF's page count and sizes
// (describePdfTask) and assembles the output file (assembleTask). The step registry, OCR, models and pdfjs load
// once per thread.
import { pathToFileURL } from 'node:url';
import { workerData } from 'piscina';
import { EngineInputError } from '../errors.js';
import type { Doc } from '../io/decode.js';
import { describePdf, type PdfDescription } from '../io/pdf.js';
import { createDefaultRegistry } from '../steps/index.js';
import type { Step } from '../steps/registry.js';
import { assembleInThread, type AssembledOutput } from './assemble.js';
import { restorePageInThread, type PageOptions, type RestoredPage } from './page.js';
import { threadServices } from './thread-services.js';
import { useEngineSettings, type EngineSettings } from '../settings.js';
import type { BuildPdfOptions } from '../io/encode.js';

export interface PageTask {
  doc: Doc;
  index: number;
  opts: PageOptions;
  /** JavaScript modules (paths) whose default export is a Step or Step[] to register: extra or replacement steps. */
  stepModules: string[];
  /** Set to 1 by the calling thread to stop the page before its next step (pool.ts, `runStoppable`). */
  stop: Int32Array;
}

useEngineSettings(workerData as EngineSettings);
const registry = createDefaultRegistry();
const loaded = new Set<string>();

async function loadStepModules(modules: string[]): Promise<void> {
  for (const file of modules) {
    if (loaded.has(file)) continue;
    const mod = (await import(file.startsWith('file:') ? file : pathToFileURL(file).href)) as {
      default: Step | Step[];
    };
    for (const step of [mod.default].flat()) registry.register(step);
    loaded.add(file);
  }
}

export default async function restorePageTask(task: PageTask): Promise<RestoredPage> {
  await loadStepModules(task.stepModules);
  const steps = registry.checkedBy(() => {
    if (Atomics.load(task.stop, 0) !== 0) throw new Error(`Page ${task.index + 1} was stopped.`);
  });
  return restorePageInThread(task.doc, task.index, task.opts, steps, threadServices());
}

/** A PDF's description, or the typed input error it raised (its class does not survive the thread boundary). */
export type PdfTaskResult =
  { ok: true; description: PdfDescription } | { ok: false; code: EngineInputError['code']; message: string };

export async function describePdfTask(bytes: Uint8Array): Promise<PdfTaskResult> {
  try {
    return { ok: true, description: await describePdf(bytes) };
  } catch (error) {
    if (error instanceof EngineInputError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

export interface AssembleTask {
  doc: Doc;
  pages: (RestoredPage | null)[];
  pdf: BuildPdfOptions;
}

export async function assembleTask(task: AssembleTask): Promise<AssembledOutput> {
  return assembleInThread(task.doc, task.pages, task.pdf);
}
