// The services of this thread: tesseract.js OCR for the text layer and the word guard (engine/src/ocr).
// Opt-in with FOLIO_ENGINE_OCR=on: started inside a pool worker thread, tesseract.js did not finish a page on
// the first integration run (page time limit reached), so the default stays the classical pipeline alone.
import { guardPage, recognizeWords } from '../ocr/index.js';
import type { PageServices } from './services.js';

export function threadServices(): PageServices {
  if (process.env.FOLIO_ENGINE_OCR !== 'on') return {};
  return {
    recognizeWords: async (img, dpi) => ({ words: (await recognizeWords(img, { dpi })).words }),
    guardPage: async (input, output, dpi) => {
      const verdict = await guardPage(input, output, { dpi });
      return {
        accept: verdict.accept,
        lostWords: [...verdict.lostWords, ...verdict.changedWords.map((c) => `${c.input}→${c.output}`)],
        reason: verdict.reason,
        outputWords: verdict.outputOcr.words,
      };
    },
  };
}
