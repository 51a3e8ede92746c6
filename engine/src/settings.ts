// The engine's settings: the one module that reads process.env. The main thread parses them once; the pool hands
// them to its worker threads (workerData), which use those instead of reading the environment again.
import { availableParallelism } from 'node:os';
import { OCR_BACKENDS, type OcrBackend } from './ocr/backends.js';

/** How the word guard reads the input: all of it while the steps run, or only where the output's ink changed. */
export type GuardRead = 'full' | 'changed';

export interface EngineSettings {
  /** FOLIO_ENGINE_THREADS: worker threads of the pool; min(2, cores) by default. */
  threads: number;
  /**
   * FOLIO_ENGINE_OCR: the OCR back-end of the text layer and the word guard. 'auto' (default: the Tesseract
   * binary when it runs, tesseract.js when it is absent), 'native', 'tesseract.js', 'paddle' (about twice
   * tesseract.js's CPU time per page), or 'off' (no OCR and no guard: the classical pipeline alone).
   */
  ocr: OcrBackend | 'off';
  /** FOLIO_ENGINE_TESSERACT: the Tesseract program, a name looked up in PATH or a path; 'tesseract' by default. */
  tesseract: string;
  /** FOLIO_ENGINE_GUARD: 'full' reads the whole input while the steps run; 'changed' (default) only changed ink. */
  guardRead: GuardRead;
  /**
   * FOLIO_ENGINE_OCR_TIMEOUT_MS: how long one Tesseract child may read one image, in ms; 60000 by default (and for a
   * value that is not a positive integer).
   */
  ocrTimeoutMs: number;
  /**
   * FOLIO_ENGINE_PDF_MEMORY_MB: resident memory one reader child of `io/sandbox.ts` may reach, in MB; 1536 by
   * default (and for a value that is not an integer of at least 256).
   */
  pdfMemoryMb: number;
  /** The environment of a Tesseract child process: this process's, with one OpenMP thread per child. */
  tesseractEnv: Record<string, string>;
}

/** How long one Tesseract child may read one image by default: a damaged page takes 1–5 s here. */
export const DEFAULT_OCR_TIMEOUT_MS = 60_000;

/** The settings from an environment; an unknown FOLIO_ENGINE_OCR or FOLIO_ENGINE_GUARD throws a RangeError. */
export function parseEngineSettings(env: NodeJS.ProcessEnv): EngineSettings {
  const threads = Number(env.FOLIO_ENGINE_THREADS);
  const ocr = env.FOLIO_ENGINE_OCR || 'auto';
  if (ocr !== 'off' && !OCR_BACKENDS.includes(ocr as OcrBackend)) {
    throw new RangeError(`FOLIO_ENGINE_OCR must be one of off, ${OCR_BACKENDS.join(', ')}; got "${ocr}"`);
  }
  const guardRead = env.FOLIO_ENGINE_GUARD || 'changed';
  if (guardRead !== 'full' && guardRead !== 'changed') {
    throw new RangeError(`FOLIO_ENGINE_GUARD must be full or changed; got "${guardRead}"`);
  }
  const pdfMemoryMb = Number(env.FOLIO_ENGINE_PDF_MEMORY_MB);
  const ocrTimeoutMs = Number(env.FOLIO_ENGINE_OCR_TIMEOUT_MS);
  const tesseractEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) tesseractEnv[key] = value;
  // One thread per child: the engine runs one page per core already.
  tesseractEnv.OMP_THREAD_LIMIT = '1';
  return {
    threads:
      Number.isInteger(threads) && threads > 0 ? threads : Math.max(1, Math.min(2, availableParallelism())),
    ocr: ocr as OcrBackend | 'off',
    tesseract: env.FOLIO_ENGINE_TESSERACT || 'tesseract',
    guardRead,
    ocrTimeoutMs: Number.isInteger(ocrTimeoutMs) && ocrTimeoutMs > 0 ? ocrTimeoutMs : DEFAULT_OCR_TIMEOUT_MS,
    pdfMemoryMb: Number.isInteger(pdfMemoryMb) && pdfMemoryMb >= 256 ? pdfMemoryMb : 1536,
    tesseractEnv,
  };
}

let current: EngineSettings | undefined;

/** This thread's settings: the ones the pool gave it, or else parsed from the environment once. */
export function engineSettings(): EngineSettings {
  current ??= parseEngineSettings(process.env);
  return current;
}

/** A worker thread takes the settings its pool was started with (before any page runs). */
export function useEngineSettings(settings: EngineSettings): void {
  current = settings;
}
