// Encoding: restored pages to the input's format family, and the restored PDF with its invisible text layer.
import { promisify } from 'node:util';
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

/** Characters Helvetica's WinAnsi encoding cannot show become '?', so the layer never fails on odd OCR output. */
function encodable(font: PDFFont, text: string): string {
  let out = '';
  for (const ch of text) {
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      out += '?';
    }
  }
  return out;
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
  for (const word of words) {
    const text = encodable(font, word.text.trim());
    if (text.length === 0) continue;
    const boxW = (word.x1 - word.x0) * sx;
    const boxH = (word.y1 - word.y0) * sy;
    if (boxW <= 0 || boxH <= 0) continue;
    const size = Math.max(1, boxH);
    const natural = font.widthOfTextAtSize(text, size);
    const squeeze = natural > 0 ? (100 * boxW) / natural : 100;
    const baseline = ph - word.y1 * sy + boxH * 0.2;
    ops.push(
      setFontAndSize(fontKey, size),
      setCharacterSqueeze(squeeze),
      setTextMatrix(1, 0, 0, 1, word.x0 * sx, baseline),
      showText(font.encodeText(text)),
    );
  }
  ops.push(endText(), popGraphicsState());
  page.pushOperators(...ops);
}

const deflateAsync = promisify(deflate);

/**
 * A lossless page image as a Flate-compressed image XObject, compressed by zlib off the event loop. pdf-lib's
 * own embedPng re-encodes the PNG in JavaScript, which took about 0.7 s per 150-DPI page.
 */
async function embedLossless(pdf: PDFDocument, png: Uint8Array): Promise<PDFRef> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 1 && info.channels !== 3) throw new Error(`unexpected ${info.channels}-channel page`);
  const stream = pdf.context.stream(await deflateAsync(data), {
    Type: 'XObject',
    Subtype: 'Image',
    Width: info.width,
    Height: info.height,
    ColorSpace: info.channels === 1 ? 'DeviceGray' : 'DeviceRGB',
    BitsPerComponent: 8,
    Filter: 'FlateDecode',
  });
  return pdf.context.register(stream);
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
}

/**
 * Builds the restored PDF: restored pages are their image over the full page with an invisible text layer;
 * `null` pages are copied unchanged from the source PDF.
 */
export async function buildPdf(pages: (PdfPageInput | null)[], source: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const keepIndexes = pages.flatMap((p, i) => (p === null ? [i] : []));
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
    const page = pdf.addPage([p.widthPt, p.heightPt]);
    if (p.image.mime === 'image/png') drawFullPage(page, await embedLossless(pdf, p.image.bytes));
    else
      page.drawImage(await pdf.embedJpg(p.image.bytes), { x: 0, y: 0, width: p.widthPt, height: p.heightPt });
    if (p.words.length > 0) drawTextLayer(page, font, p.words, p.image.width, p.image.height);
  }
  pdf.setProducer('Folio restoration engine');
  return pdf.save({ useObjectStreams: true });
}
