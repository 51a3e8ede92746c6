// The services of this thread: OCR for the PDF text layer and the word guard (engine/src/ocr), on by default.
// FOLIO_ENGINE_OCR picks the back-end: 'auto' (default: the Tesseract binary when it runs, tesseract.js when it is
// absent), 'native', 'tesseract.js', 'paddle' (about twice tesseract.js's CPU time per page), or 'off' (no OCR
// and no guard: the classical pipeline alone). FOLIO_ENGINE_TESSERACT names the binary ('tesseract' in PATH).
// FOLIO_ENGINE_GUARD=full makes the guard read the whole input (while the steps run) instead of only the places
// where the output's ink differs from the input's (the default, 'changed').
import {
  guardPage,
  OCR_BACKENDS,
  ocrBackend,
  type GuardResult,
  type OcrBackend,
  type OcrResult,
  scaled,
} from '../ocr/index.js';
import { toGrey } from '../steps/pixels.js';
import type { PageServices } from './services.js';

export type GuardRead = 'full' | 'changed';

/** The engine's OCR settings, read from the environment here only. */
export function ocrSettings(env: NodeJS.ProcessEnv = process.env): {
  backend: OcrBackend | 'off';
  binary: string;
} {
  const setting = env.FOLIO_ENGINE_OCR || 'auto';
  if (setting !== 'off' && !OCR_BACKENDS.includes(setting as OcrBackend)) {
    throw new RangeError(`FOLIO_ENGINE_OCR must be one of off, ${OCR_BACKENDS.join(', ')}; got "${setting}"`);
  }
  return { backend: setting as OcrBackend | 'off', binary: env.FOLIO_ENGINE_TESSERACT || 'tesseract' };
}

export function threadServices(
  setting: OcrBackend | 'off' | undefined = ocrSettings().backend,
  guardRead: GuardRead = process.env.FOLIO_ENGINE_GUARD === 'full' ? 'full' : 'changed',
  /** Sees every guard result (benchmarks). */
  onGuard?: (result: GuardResult) => void,
  binary = ocrSettings().binary,
): PageServices {
  if (setting === 'off') return {};
  const recognize = ocrBackend(setting, binary);
  return {
    recognizeWords: async (img, dpi) => ({ words: (await recognize(img, { dpi })).words }),
    startGuard: (input, dpi) => {
      // 'full': the input is read while the steps run. 'changed': the output is read first, then the input only
      // where the ink changed (usually a small part of the page).
      const reading: Promise<OcrResult> | undefined =
        guardRead === 'full' ? recognize(input, { dpi }) : undefined;
      // Awaited by check(); this only keeps a page that fails before its check from an unhandled rejection.
      reading?.catch(() => undefined);
      return {
        check: async (output) => {
          // An upscaled output is read at the input's size (about scale² less OCR work); its word boxes then
          // come back in input pixels and are scaled to the output's for the text layer.
          const verdict = await guardPage(input, output, {
            dpi,
            recognize,
            ...(reading ? { inputOcr: await reading } : { inputRead: 'changed' as const }),
            ocrOutputAtInputSize: true,
          });
          onGuard?.(verdict);
          const sx = verdict.outputScale.x;
          const sy = verdict.outputScale.y;
          // Lines are found at the input's size whichever way the output was read.
          const lx = output.width / input.width;
          const ly = output.height / input.height;
          return {
            accept: verdict.accept,
            badLines: verdict.regions.filter((r) => !r.accept).map((r) => scaled(r, lx, ly)),
            badWords: verdict.regions.flatMap((r) => r.badWords).map((w) => scaled(w, lx, ly)),
            input: verdict.alignedInput ?? toGrey(input, 'max'),
            checkedLines: verdict.regions.length,
            frame: verdict.frame,
            lostWords: [...verdict.lostWords, ...verdict.changedWords.map((c) => `${c.input}→${c.output}`)],
            reason: verdict.reason,
            outputWords: verdict.outputOcr.words.map((w) => scaled(w, sx, sy)),
          };
        },
      };
    },
  };
}
