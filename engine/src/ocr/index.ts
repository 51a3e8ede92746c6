// OCR of the engine: tesseract.js with the English model from npm, and the word guard built on it.
export { ENG_LANG_PATH, OcrError, ocrWorker, terminateOcr } from './worker.js';
export {
  recognizeWords,
  toPnm,
  type OcrLine,
  type OcrResult,
  type OcrWord,
  type RecognizeOptions,
} from './recognize.js';
export {
  DEFAULT_GUARD_OPTIONS,
  compareWords,
  guardPage,
  reduceBy,
  wordKey,
  type ChangedWord,
  type GuardOptions,
  type GuardRegion,
  type GuardResult,
} from './guard.js';
