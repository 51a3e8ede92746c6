// Outside capabilities a page may use: OCR words for the PDF text layer and the word guard. They are
// optional so the classical pipeline works alone; the worker wires in the real ones.
import type { RawImage } from '../image.js';
import type { OcrWord } from '../io/encode.js';

export interface GuardVerdict {
  accept: boolean;
  lostWords: string[];
  reason?: string;
  /** The output's OCR words, reusable for the text layer when accepted. */
  outputWords?: OcrWord[];
}

export interface PageServices {
  recognizeWords?: (img: RawImage, dpi: number) => Promise<{ words: OcrWord[] }>;
  guardPage?: (input: RawImage, output: RawImage, dpi: number) => Promise<GuardVerdict>;
}
