// One tesseract.js worker per engine thread, created on first use. The English model comes from the
// @tesseract.js-data/eng npm package; nothing is fetched and no cache file is written.
import { createRequire } from 'node:module';
import path from 'node:path';
import Tesseract from 'tesseract.js';

export class OcrError extends Error {
  override readonly name: string = 'OcrError';
}

const require = createRequire(import.meta.url);

/** Folder with eng.traineddata.gz (LSTM "best_int" model, what tesseract.js uses for LSTM-only OCR). */
export const ENG_LANG_PATH = path.join(
  path.dirname(require.resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

let worker: Promise<Tesseract.Worker> | undefined;

async function create(): Promise<Tesseract.Worker> {
  try {
    return await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
      langPath: ENG_LANG_PATH,
      gzip: true,
      // 'none' = read the model from langPath every start and never write a cached copy.
      cacheMethod: 'none',
    });
  } catch (cause) {
    throw new OcrError(
      `the OCR engine could not start: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
  }
}

/** This thread's OCR worker (lazily created; concurrent callers share the same start-up). */
export function ocrWorker(): Promise<Tesseract.Worker> {
  worker ??= create().catch((error: unknown) => {
    worker = undefined;
    throw error;
  });
  return worker;
}

/** Stops this thread's OCR worker (worker shutdown, tests). */
export async function terminateOcr(): Promise<void> {
  const current = worker;
  worker = undefined;
  if (current) await (await current).terminate();
}
