// Outside capabilities a page may use: OCR words for the PDF text layer and the word guard. They are
// optional so the classical pipeline works alone; the worker wires in the real ones (on by default).
import type { RawImage } from '../image.js';
import type { OcrWord } from '../io/encode.js';
import type { Box } from '../guard/changes.js';
import type { PageReading, ReadingOrder } from '../guard/quality.js';
import type { DetectedOrientation } from '../ocr/index.js';

export interface GuardVerdict {
  accept: boolean;
  lostWords: string[];
  reason?: string;
  /** The output's OCR words in output pixels, reusable for the text layer when accepted. */
  outputWords?: OcrWord[];
  /** Text lines (output pixels) where a clearly read word was lost or changed. */
  badLines: Box[];
  /** Those words as the input read them (boxes in output pixels). */
  badWords: OcrWord[];
  /**
   * The input's grey pixels (brightest channel) in the output's geometry (turned like it when the frame is
   * 'output'), at the input's size: the last resort for a word that no restoration keeps.
   */
  input: RawImage;
  /** Text lines that held clearly read words (the lines checked). */
  checkedLines: number;
  /**
   * 'output' when the lines were found on the input aligned with the output; 'input' when on the input as it
   * came, which only lines up with the output when no step moved the page (deskew).
   */
  frame: 'output' | 'input';
  /**
   * The whole page's reading, input against output (the input read where the output's ink changed, the output's
   * own words standing for it elsewhere): a page may read worse as a whole with no checked word lost.
   */
  reading?: PageReading & {
    /** How the output keeps the input's reading order; set where the input was read whole (maybe by a later check). */
    order?: ReadingOrder;
    /**
     * The output reads whole the lines the input's whole reading cut in two, or most of them (`linesMended`); set with
     * `order`, and `joinedLines` with it.
     */
    mended?: boolean;
    /** How many of the output's lines its reading cuts in two side by side (`splitLineCount`). */
    cutLines?: number;
  };
}

/** A guard that has started reading the input; `check` compares a restored output with it. */
export interface PageGuard {
  check: (output: RawImage) => Promise<GuardVerdict>;
  /** The input's words, read whole once per page (a page shown as it came takes its text layer from them). */
  readInput?: () => Promise<OcrWord[]>;
}

export interface PageServices {
  recognizeWords?: (img: RawImage, dpi: number) => Promise<{ words: OcrWord[] }>;
  /** Which way up a page stands, by the OCR's own orientation detection (undefined: too few characters). */
  detectOrientation?: (img: RawImage, dpi: number) => Promise<DetectedOrientation | undefined>;
  /**
   * Starts the word guard on a page's input. The input is read once, in the OCR's own worker thread, while
   * the restoration steps run; every output checked is compared with that one reading.
   */
  startGuard?: (input: RawImage, dpi: number) => PageGuard;
}
