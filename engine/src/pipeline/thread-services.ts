// The services of this thread: OCR for the PDF text layer and the word guard (engine/src/ocr), on by default.
// FOLIO_ENGINE_OCR=off turns both off (the classical pipeline alone); FOLIO_ENGINE_OCR=paddle uses PaddleOCR
// instead of tesseract.js (about twice the CPU time per page here, see engine/README.md).
// FOLIO_ENGINE_GUARD=full makes the guard read the whole input (while the steps run) instead of only the places
// where the output's ink differs from the input's (the default, 'changed').
import {
  guardPage,
  recognizeWords,
  recognizeWordsPaddle,
  type GuardResult,
  type OcrResult,
  scaled,
  type Recognizer,
} from '../ocr/index.js';
import { toGrey } from '../steps/pixels.js';
import type { PageServices } from './services.js';

export type GuardRead = 'full' | 'changed';

export function threadServices(
  setting = process.env.FOLIO_ENGINE_OCR,
  guardRead: GuardRead = process.env.FOLIO_ENGINE_GUARD === 'full' ? 'full' : 'changed',
  /** Sees every guard result (benchmarks). */
  onGuard?: (result: GuardResult) => void,
): PageServices {
  if (setting === 'off') return {};
  const recognize: Recognizer = setting === 'paddle' ? recognizeWordsPaddle : recognizeWords;
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
