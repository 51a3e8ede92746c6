// Encoding: restored pages to the input's format family, and the restored PDF with its invisible text layer.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import fontkit from '@pdf-lib/fontkit';
import { deflate } from 'node:zlib';
import type { PDFRef } from 'pdf-lib';
import {
  PDFDocument,
  StandardFonts,
  concatTransformationMatrix,
  drawObject,
  TextRenderingMode,
  beginText,
  endText,
  popGraphicsState,
  pushGraphicsState,
  setCharacterSqueeze,
  setFontAndSize,
  setTextMatrix,
  setTextRenderingMode,
  showText,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import sharp from 'sharp';
import type { RawImage } from '../image.js';
import type { OcrWord } from '../ocr/recognize.js';
import { makePdfA } from './pdfa.js';
import { otsuThreshold } from '../pixels/levels.js';
import type { InputFormat } from './sniff.js';

// The text layer is written from the OCR's own words (their boxes are in the page image's pixels).
export type { OcrWord } from '../ocr/recognize.js';

function rawSharp(img: RawImage) {
  const pipeline = sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });
  // Grey pages stay one band in the file (libvips would otherwise write RGB).
  return img.channels === 1 ? pipeline.toColourspace('b-w') : pipeline;
}

/** Encodes a page image in the given format, keeping its DPI. PDF pages use PNG (documents) or JPEG (photos). */
export async function encodeImage(
  img: RawImage,
  format: InputFormat | 'pdf-page',
  dpi: number,
  kind: 'document' | 'photo' | 'mixed' = 'document',
): Promise<{ bytes: Uint8Array; mime: string }> {
  const base = rawSharp(img).withMetadata({ density: dpi });
  if (img.channels === 1) base.toColourspace('b-w');
  let out: Buffer;
  let mime: string;
  switch (format) {
    case 'png':
      [out, mime] = [await base.png({ compressionLevel: 6 }).toBuffer(), 'image/png'];
      break;
    case 'jpeg':
      [out, mime] = [await base.jpeg({ quality: 92, chromaSubsampling: '4:4:4' }).toBuffer(), 'image/jpeg'];
      break;
    case 'tiff':
      [out, mime] = [await base.tiff({ compression: 'lzw' }).toBuffer(), 'image/tiff'];
      break;
    case 'webp':
      [out, mime] = [await base.webp({ quality: 92 }).toBuffer(), 'image/webp'];
      break;
    default:
      // Text pages: lossless PNG keeps stroke edges exact; photos: JPEG keeps the file small.
      [out, mime] =
        kind === 'document'
          ? [await base.png({ compressionLevel: 6 }).toBuffer(), 'image/png']
          : [await base.jpeg({ quality: 90 }).toBuffer(), 'image/jpeg'];
  }
  return { bytes: new Uint8Array(out.buffer, out.byteOffset, out.length), mime };
}

/**
 * Characters the font cannot show become '?', so the layer never fails on odd OCR output (Helvetica's WinAnsi
 * encoding throws; an embedded font would draw its .notdef glyph, which PDF/A forbids).
 */
function encodable(shown: ReadonlySet<number>, text: string): string {
  let out = '';
  for (const ch of text) out += shown.has(ch.codePointAt(0)!) ? ch : '?';
  return out;
}

/**
 * The width the text is drawn at by the text operators. pdf-lib's widthOfTextAtSize adds Helvetica's kerning
 * pairs, which showText does not apply (a word like "Tuesday," would end 3 pt before its box's end).
 */
function drawnWidth(font: PDFFont, text: string, size: number): number {
  if (font.name !== String(StandardFonts.Helvetica)) return font.widthOfTextAtSize(text, size);
  let width = 0;
  for (const ch of text) width += font.widthOfTextAtSize(ch, size);
  return width;
}

/**
 * Invisible text (rendering mode 3) for each word, sized and squeezed to the word's box, so the page can be
 * searched and copied where the image shows the word.
 */
export function drawTextLayer(
  page: PDFPage,
  font: PDFFont,
  words: OcrWord[],
  imageWidth: number,
  imageHeight: number,
): void {
  const { width: pw, height: ph } = page.getSize();
  const sx = pw / imageWidth;
  const sy = ph / imageHeight;
  // The font must be in the page's resources under a key of its own for the raw text operators.
  const fontKey = page.node.newFontDictionary(font.name, font.ref);
  const ops = [pushGraphicsState(), beginText(), setTextRenderingMode(TextRenderingMode.Invisible)];
  const shown = new Set(font.getCharacterSet());
  for (const word of words) {
    const text = encodable(shown, word.text.trim());
    if (text.length === 0) continue;
    const boxW = (word.x1 - word.x0) * sx;
    const boxH = (word.y1 - word.y0) * sy;
    if (boxW <= 0 || boxH <= 0) continue;
    const size = Math.max(1, boxH);
    const natural = drawnWidth(font, text, size);
    const squeeze = natural > 0 ? (100 * boxW) / natural : 100;
    const baseline = ph - word.y1 * sy + boxH * 0.2;
    ops.push(
      setFontAndSize(fontKey, size),
      setCharacterSqueeze(squeeze),
      setTextMatrix(1, 0, 0, 1, word.x0 * sx, baseline),
      // A space after each word (past its box): text extraction splits words there even where OCR's boxes touch.
      showText(font.encodeText(`${text} `)),
    );
  }
  ops.push(endText(), popGraphicsState());
  page.pushOperators(...ops);
}

const deflateAsync = promisify(deflate);

/** What a text page's image may take per pixel: 150 KB for a letter page at 200 DPI (1700 × 2200). */
export const TEXT_PAGE_BYTES_PER_PIXEL = 150_000 / (1700 * 2200);

/** One band of a three-band image whose bands are all equal (a grey page carried as RGB), else undefined. */
function greyOf(data: Uint8Array, channels: number): Uint8Array | undefined {
  if (channels === 1) return data;
  const grey = new Uint8Array(data.length / channels);
  for (let i = 0, j = 0; j < grey.length; i += channels, j++) {
    const v = data[i]!;
    if (data[i + 1] !== v || data[i + 2] !== v) return undefined;
    grey[j] = v;
  }
  return grey;
}

/**
 * The level each grey value is stored as with `bits` per pixel. With 16 or 4 levels, the nearest. In black and
 * white, the cut lies where the page's ink parts from its paper (Otsu), not at mid-grey: a restored page's ink can
 * be grey (fresh seed 167593 pdf_001 page 2, a blurred office scan in two columns: cut at 128 it read CER 0.74,
 * at its Otsu level, 191, 0.06). The cut stays within 128–224, so mottled paper does not turn to ink.
 */
function levelTable(grey: Uint8Array, width: number, height: number, bits: 1 | 2 | 4): Uint8Array {
  const top = (1 << bits) - 1;
  if (bits > 1) return Uint8Array.from({ length: 256 }, (_, v) => Math.round((v * top) / 255));
  const cut = Math.min(224, Math.max(128, otsuThreshold({ data: grey, width, height, channels: 1 })));
  return Uint8Array.from({ length: 256 }, (_, v) => (v > cut ? 1 : 0));
}

/** Grey levels rounded to `bits` per pixel (1, 2 or 4), packed MSB first, each row starting on a byte. */
export function packGrey(grey: Uint8Array, width: number, height: number, bits: 1 | 2 | 4): Uint8Array {
  const levels = levelTable(grey, width, height, bits);
  const perByte = 8 / bits;
  const rowBytes = Math.ceil(width / perByte);
  const out = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const outRow = y * rowBytes;
    for (let x = 0; x < width; x++) {
      const level = levels[grey[row + x]!]!;
      out[outRow + Math.floor(x / perByte)]! |= level << (8 - bits * (1 + (x % perByte)));
    }
  }
  return out;
}

/**
 * A cleaned text page as few grey levels, compressed losslessly: 4 bits per pixel (16 levels) when that fits
 * TEXT_PAGE_BYTES_PER_PIXEL, else 2 bits (4 levels), else 1 (black and white). Measured on pdf_001 at 200 DPI:
 * 8 bits 0.55-1.0 MB a page, 4 bits 167-318 KB, 2 bits 74-123 KB; with 2 bits the scorer's CER and SSIM were
 * the same or better and PSNR 0.2-0.5 dB lower (engine/README.md).
 */
export async function fewLevelGrey(
  grey: Uint8Array,
  width: number,
  height: number,
): Promise<{ bits: 1 | 2 | 4; data: Uint8Array }> {
  const budget = TEXT_PAGE_BYTES_PER_PIXEL * width * height;
  for (const bits of [4, 2] as const) {
    const data = await deflateAsync(packGrey(grey, width, height, bits));
    if (data.length <= budget) return { bits, data };
  }
  return { bits: 1, data: await deflateAsync(packGrey(grey, width, height, 1)) };
}

/**
 * A document page as a PDF reader will show it: grey pages rounded to the levels fewLevelGrey keeps (colour pages
 * are stored as they are). The guard checks this image, so that the page it proves readable is the page stored;
 * rounding it again when the PDF is built changes no pixel.
 */
export async function asStoredInPdf(img: RawImage): Promise<RawImage> {
  const grey = greyOf(img.data, img.channels);
  if (!grey || img.channels === 4) return img;
  const { bits } = await fewLevelGrey(grey, img.width, img.height);
  const top = (1 << bits) - 1;
  const levels = levelTable(grey, img.width, img.height, bits);
  // Each value as a reader decodes its level: level · 255 / top.
  const level = levels.map((l) => Math.round((l * 255) / top));
  const data = new Uint8Array(img.data.length);
  for (let i = 0; i < data.length; i++) data[i] = level[img.data[i]!]!;
  return { ...img, data };
}

/**
 * A document page image as a Flate-compressed image XObject, compressed by zlib off the event loop (pdf-lib's
 * own embedPng re-encodes the PNG in JavaScript, about 0.7 s per 150-DPI page). Grey pages (text) are rounded
 * to few grey levels first (fewLevelGrey); colour ones keep 8 bits per channel.
 */
async function embedFlate(pdf: PDFDocument, png: Uint8Array, exact = false): Promise<PDFRef> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 1 && info.channels !== 3) throw new Error(`unexpected ${info.channels}-channel page`);
  const grey = greyOf(data, info.channels);
  const { bits, stream } = exact
    ? { bits: 8, stream: await deflateAsync(grey ?? data) }
    : grey
      ? await fewLevelGrey(grey, info.width, info.height).then((g) => ({ bits: g.bits, stream: g.data }))
      : { bits: 8, stream: await deflateAsync(data) };
  const xobject = pdf.context.stream(stream, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: info.width,
    Height: info.height,
    ColorSpace: grey ? 'DeviceGray' : 'DeviceRGB',
    BitsPerComponent: bits,
    Filter: 'FlateDecode',
  });
  return pdf.context.register(xobject);
}

function drawFullPage(page: PDFPage, imageRef: PDFRef): void {
  const name = page.node.newXObject('Image', imageRef);
  const { width, height } = page.getSize();
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(width, 0, 0, height, 0, 0),
    drawObject(name),
    popGraphicsState(),
  );
}

export interface PdfPageInput {
  /** Page size in points. */
  widthPt: number;
  heightPt: number;
  image: { bytes: Uint8Array; mime: string; width: number; height: number };
  words: OcrWord[];
  /**
   * The page shows its input as it came: the source page is kept (its own pixels, at its own size) with the text
   * layer over it; where its boxes would not line up (a turned or offset page), the image is stored without rounding.
   */
  sourcePage?: boolean;
}

export interface BuildPdfOptions {
  /**
   * PDF/A-2b: XMP metadata, an sRGB output intent, and an embedded font for the text layer. Pages kept from
   * the source PDF are copied as they are, so only a fully restored document is sure to conform.
   */
  pdfa?: boolean;
}

const PRODUCER = 'Folio restoration engine';

const require = createRequire(import.meta.url);

/** LiberationSans (SIL Open Font License), shipped inside pdfjs-dist: the embedded font of PDF/A text layers. */
const TEXT_LAYER_FONT = path.join(
  path.dirname(require.resolve('pdfjs-dist/package.json')),
  'standard_fonts',
  'LiberationSans-Regular.ttf',
);

async function textLayerFont(pdf: PDFDocument, embed: boolean): Promise<PDFFont> {
  if (!embed) return pdf.embedFont(StandardFonts.Helvetica);
  pdf.registerFontkit(fontkit);
  return pdf.embedFont(await readFile(TEXT_LAYER_FONT), { subset: true });
}

/** A page rendered upright from its media box's origin: its image's pixels map onto its own coordinates. */
function alignsWithItsImage(page: PDFPage): boolean {
  const media = page.getMediaBox();
  const crop = page.getCropBox();
  const same = (a: number, b: number) => Math.abs(a - b) < 0.01;
  return (
    page.getRotation().angle % 360 === 0 &&
    same(media.x, 0) &&
    same(media.y, 0) &&
    same(crop.x, media.x) &&
    same(crop.y, media.y) &&
    same(crop.width, media.width) &&
    same(crop.height, media.height)
  );
}

/**
 * Builds the restored PDF: restored pages are their image over the full page with an invisible text layer;
 * `null` pages are copied unchanged from the source PDF.
 */
export async function buildPdf(
  pages: (PdfPageInput | null)[],
  source: Uint8Array,
  opts: BuildPdfOptions = {},
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await textLayerFont(pdf, opts.pdfa === true);
  const keepIndexes = pages.flatMap((p, i) => (p === null || p.sourcePage ? [i] : []));
  const kept = new Map<number, PDFPage>();
  if (keepIndexes.length > 0) {
    const original = await PDFDocument.load(source, { ignoreEncryption: true, updateMetadata: false });
    const copies = await pdf.copyPages(original, keepIndexes);
    copies.forEach((page, k) => kept.set(keepIndexes[k]!, page));
  }
  for (const [i, p] of pages.entries()) {
    if (p === null) {
      pdf.addPage(kept.get(i));
      continue;
    }
    const source = kept.get(i);
    if (p.sourcePage && source && alignsWithItsImage(source)) {
      pdf.addPage(source);
      // The source page's own content is wrapped in q … Q (a null translation), so the state it leaves (a
      // transformation, a clip) does not move the text layer drawn after it.
      source.translateContent(0, 0);
      if (p.words.length > 0) drawTextLayer(source, font, p.words, p.image.width, p.image.height);
      continue;
    }
    const page = pdf.addPage([p.widthPt, p.heightPt]);
    if (p.image.mime === 'image/png')
      drawFullPage(page, await embedFlate(pdf, p.image.bytes, p.sourcePage === true));
    else
      page.drawImage(await pdf.embedJpg(p.image.bytes), { x: 0, y: 0, width: p.widthPt, height: p.heightPt });
    if (p.words.length > 0) drawTextLayer(page, font, p.words, p.image.width, p.image.height);
  }
  if (opts.pdfa) makePdfA(pdf, PRODUCER);
  else pdf.setProducer(PRODUCER);
  return pdf.save({ useObjectStreams: true });
}
