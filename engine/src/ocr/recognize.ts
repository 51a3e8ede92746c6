// Word-level OCR of a RawImage with tesseract.js: the fallback when the Tesseract binary is absent, selectable with
// FOLIO_ENGINE_OCR=tesseract.js. Pixels go to Tesseract as PNM (header + raw bytes).
import type Tesseract from 'tesseract.js';
import type { RawImage } from '../image.js';
import { ocrWorker } from './worker.js';

export interface OcrWord {
  text: string;
  /** 0..100 as Tesseract reports it */
  confidence: number;
  /** Box in the image's pixels. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrLine {
  text: string;
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  words: OcrWord[];
}

export interface OcrResult {
  text: string;
  words: OcrWord[];
  lines: OcrLine[];
}

export interface RecognizeOptions {
  /** Tesseract page segmentation mode (3 automatic with columns, 4 one column of rows); 3 by default */
  psm?: number;
  /** Resolution of the image, so the OCR sizes its expectations correctly */
  dpi?: number;
  /**
   * Tesseract only: also try each unsure line as white-on-black text (Tesseract's default, about a third of
   * the recognition time on damaged pages; scanned documents are dark text on light paper).
   */
  invert?: boolean;
}

/** An OCR back-end: words with boxes (image pixels) and confidences (0..100) of one image. */
export type Recognizer = (img: RawImage, opts?: RecognizeOptions) => Promise<OcrResult>;

/** Binary PGM (grey) or PPM (colour; alpha dropped) of the image. */
export function toPnm(img: RawImage): Buffer {
  const grey = img.channels === 1;
  const header = Buffer.from(`${grey ? 'P5' : 'P6'}\n${img.width} ${img.height}\n255\n`, 'ascii');
  if (img.channels !== 4) return Buffer.concat([header, img.data]);
  const rgb = Buffer.alloc(img.width * img.height * 3);
  for (let i = 0, j = 0; i < img.data.length; i += 4, j += 3) {
    rgb[j] = img.data[i]!;
    rgb[j + 1] = img.data[i + 1]!;
    rgb[j + 2] = img.data[i + 2]!;
  }
  return Buffer.concat([header, rgb]);
}

function box(b: Tesseract.Bbox): Pick<OcrWord, 'x0' | 'y0' | 'x1' | 'y1'> {
  return { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 };
}

export async function recognizeWordsTesseract(
  img: RawImage,
  opts: RecognizeOptions = {},
): Promise<OcrResult> {
  if (img.width < 1 || img.height < 1 || img.data.length !== img.width * img.height * img.channels) {
    throw new RangeError(`image data does not match ${img.width}×${img.height}×${img.channels}`);
  }
  return readWith(await ocrWorker(), img, opts);
}

/** Reads an image with a given tesseract.js worker (the engine's own, or one a benchmark made). */
export async function readWith(
  worker: Tesseract.Worker,
  img: RawImage,
  opts: RecognizeOptions = {},
): Promise<OcrResult> {
  await worker.setParameters({
    tessedit_pageseg_mode: String(opts.psm ?? 3) as Tesseract.PSM,
    user_defined_dpi: String(opts.dpi ?? 0),
    tessedit_do_invert: opts.invert ? '1' : '0',
  });
  const { data } = await worker.recognize(toPnm(img), {}, { text: true, blocks: true });
  const lines: OcrLine[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        lines.push({
          text: line.text.trim(),
          confidence: line.confidence,
          ...box(line.bbox),
          words: line.words.map((w) => ({ text: w.text, confidence: w.confidence, ...box(w.bbox) })),
        });
      }
    }
  }
  return { text: data.text, words: lines.flatMap((l) => l.words), lines };
}
