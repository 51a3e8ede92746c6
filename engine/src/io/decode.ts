// Decoding: a Doc describes the input (serialisable); decodePage turns one page into pixels.
import { randomUUID } from 'node:crypto';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { inputErrors } from '../errors.js';
import type { RawImage } from '../image.js';
import { dropAlpha } from '../pixels/index.js';
import {
  describePdf,
  checkPageOperators,
  fitDpi,
  loadPdfjs,
  openPdf,
  renderPdfPage,
  type PdfDescription,
  type PdfPageSize,
} from './pdf.js';
import { checkPdfPage, openWithPdfLib, PDF_BOUNDS } from './pdf-bounds.js';
import { Sandbox } from './sandbox.js';
import { findScanImage } from './pdf-scan.js';
import { MAX_PAGE_PIXELS } from './limits.js';
import type { PDFDocument } from 'pdf-lib';
import { sniffFormat, type InputFormat } from './sniff.js';

export { MAX_PAGE_PIXELS };

export interface PageSize {
  /** PDF: points (1/72 inch); images: pixels. */
  width: number;
  height: number;
  unit: 'pt' | 'px';
  /** Images: resolution stored in the file, when it has one. */
  dpi?: number;
}

export interface Doc {
  id: string;
  format: InputFormat;
  pageCount: number;
  pageSizes: PageSize[];
  bytes: Uint8Array;
}

export interface DecodedPage {
  image: RawImage;
  dpi: number;
}

/** Render resolution limits for PDF pages. */
const PDF_MIN_DPI = 150;
const PDF_MAX_DPI = 300;
const PDF_VECTOR_DPI = 200;

/**
 * Reads what the pages of a file are, without decoding them. `readPdf` says where a PDF's page count and sizes
 * are read: in this thread by default; the engine's public `loadDocument` reads them in a worker thread.
 */
export async function loadDocument(
  bytes: Uint8Array,
  readPdf: (bytes: Uint8Array) => Promise<PdfDescription> = describePdf,
): Promise<Doc> {
  if (bytes.length === 0) throw inputErrors.empty();
  const format = sniffFormat(bytes);
  if (format === null) throw inputErrors.unsupported();
  const id = randomUUID();
  if (format === 'pdf') {
    const { pageCount, sizes } = await readPdf(bytes);
    return {
      id,
      format,
      pageCount,
      pageSizes: sizes.map((s) => ({ width: s.widthPt, height: s.heightPt, unit: 'pt' })),
      bytes,
    };
  }
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    const pageCount = format === 'tiff' ? (meta.pages ?? 1) : 1;
    const pageSizes: PageSize[] = [];
    for (let page = 0; page < pageCount; page++) {
      const m = page === 0 ? meta : await sharp(bytes, { page, limitInputPixels: false }).metadata();
      const swap = (m.orientation ?? 1) >= 5;
      pageSizes.push({
        width: (swap ? m.height : m.width) ?? 0,
        height: (swap ? m.width : m.height) ?? 0,
        unit: 'px',
        ...(m.density ? { dpi: m.density } : {}),
      });
    }
    return { id, format, pageCount, pageSizes, bytes };
  } catch (error) {
    throw inputErrors.corrupt(error);
  }
}

/** Workers keep the last opened PDF, since pages of one document arrive one after another. */
let openDoc: { id: string; pdf: PDFDocumentProxy } | undefined;

async function pdfFor(doc: Doc): Promise<PDFDocumentProxy> {
  if (openDoc?.id === doc.id) return openDoc.pdf;
  if (openDoc) await openDoc.pdf.destroy();
  openDoc = undefined;
  const pdf = await openPdf(doc.bytes);
  openDoc = { id: doc.id, pdf };
  return pdf;
}

/** Resolution of the scan inside a PDF page: its largest image's pixels per inch of page width. */
async function scanDpi(pdf: PDFDocumentProxy, index: number, size: PdfPageSize): Promise<number | undefined> {
  const { OPS } = await loadPdfjs();
  const page = await pdf.getPage(index + 1);
  const ops = await page.getOperatorList();
  let best: number | undefined;
  for (let i = 0; i < ops.fnArray.length; i++) {
    if (ops.fnArray[i] !== OPS.paintImageXObject) continue;
    const args = ops.argsArray[i] as unknown[];
    const w = typeof args[1] === 'number' ? args[1] : undefined;
    const h = typeof args[2] === 'number' ? args[2] : undefined;
    if (!w || !h) continue;
    const long = Math.max(w, h) / (Math.max(size.widthPt, size.heightPt) / 72);
    best = Math.max(best ?? 0, long);
  }
  return best;
}

/**
 * The same for the pdf-lib view of the document, which checks each page against PDF_BOUNDS before pdfjs sees
 * it and finds pages that are one plain JPEG scan.
 */
let libDoc: { id: string; pdf: PDFDocument | null } | undefined;

async function pdfLibFor(doc: Doc): Promise<PDFDocument | null> {
  if (libDoc?.id !== doc.id) libDoc = { id: doc.id, pdf: await openWithPdfLib(doc.bytes) };
  return libDoc.pdf;
}

async function decodeScanPage(doc: Doc, pdf: PDFDocument | null, index: number): Promise<DecodedPage | null> {
  const scan = pdf && findScanImage(pdf, index);
  if (!scan) return null;
  const size = doc.pageSizes[index]!;
  const dpi = Math.round((scan.width * 72) / size.width);
  if (dpi < 50 || dpi > 1200 || scan.width * scan.height > MAX_PAGE_PIXELS) return null;
  try {
    const { data, info } = await sharp(scan.jpeg, { limitInputPixels: MAX_PAGE_PIXELS })
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (
      info.width !== scan.width ||
      info.height !== scan.height ||
      (info.channels !== 1 && info.channels !== 3)
    )
      return null;
    const image: RawImage = {
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
      channels: info.channels,
    };
    return { image, dpi };
  } catch {
    return null; // pdfjs decodes what sharp cannot (and reports real damage)
  }
}

/**
 * A PDF page in this process: checked against PDF_BOUNDS, then a plain JPEG scan decoded by sharp or the page
 * drawn by pdfjs. Runs in the reader child of sandbox.ts (decodePage sends PDF pages there).
 */
export async function decodePdfPageHere(doc: Doc, index: number): Promise<DecodedPage> {
  const lib = await pdfLibFor(doc);
  if (lib) checkPdfPage(lib, index);
  const scan = await decodeScanPage(doc, lib, index);
  if (scan) return scan;
  const pdf = await pdfFor(doc);
  if (!lib || index >= lib.getPageCount()) await checkPageOperators(await pdf.getPage(index + 1));
  const size = doc.pageSizes[index]!;
  const pt = { widthPt: size.width, heightPt: size.height };
  const native = await scanDpi(pdf, index, pt);
  const wanted = native ? Math.min(PDF_MAX_DPI, Math.max(PDF_MIN_DPI, Math.round(native))) : PDF_VECTOR_DPI;
  const dpi = fitDpi(pt, wanted, MAX_PAGE_PIXELS);
  return { image: await renderPdfPage(pdf, index, dpi), dpi };
}

/** The reader child of this thread, for PDF pages. */
let pageReader: Sandbox | undefined;

/** Time budget of one PDF page in the reader child: the checks, then at most PDF_BOUNDS.renderTimeoutMs drawing. */
const PDF_PAGE_BUDGET_MS = PDF_BOUNDS.renderTimeoutMs + 30_000;

export async function decodePage(doc: Doc, index: number): Promise<DecodedPage> {
  if (index < 0 || index >= doc.pageCount) throw new RangeError(`Page ${index + 1} does not exist.`);
  if (doc.format === 'pdf') {
    pageReader ??= new Sandbox();
    const task = {
      op: 'decode' as const,
      docId: doc.id,
      bytes: doc.bytes,
      pageSizes: doc.pageSizes.map(({ width, height }) => ({ width, height })),
      index,
    };
    return (await pageReader.run(task, PDF_PAGE_BUDGET_MS)) as DecodedPage;
  }
  try {
    const { data, info } = await sharp(doc.bytes, { page: index, limitInputPixels: MAX_PAGE_PIXELS })
      .rotate() // EXIF orientation
      .raw()
      .toBuffer({ resolveWithObject: true });
    const channels = info.channels === 2 ? 1 : info.channels;
    let image: RawImage = {
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
      channels: info.channels === 2 ? 4 : channels,
    };
    if (info.channels === 2) image = greyAlphaToRgba(image);
    image = dropAlpha(image);
    return { image, dpi: imageDpi(doc.pageSizes[index]!) };
  } catch (error) {
    throw inputErrors.corrupt(error);
  }
}

function greyAlphaToRgba(img: RawImage): RawImage {
  const n = img.width * img.height;
  const out = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    const g = img.data[i * 2]!;
    out[i * 4] = g;
    out[i * 4 + 1] = g;
    out[i * 4 + 2] = g;
    out[i * 4 + 3] = img.data[i * 2 + 1]!;
  }
  return { data: out, width: img.width, height: img.height, channels: 4 };
}

/** The file's own resolution when plausible for a scan; otherwise guessed from a letter-width page. */
export function imageDpi(size: PageSize): number {
  if (size.dpi && size.dpi >= 100 && size.dpi <= 1200) return size.dpi;
  return Math.min(600, Math.max(100, Math.round(Math.min(size.width, size.height) / 8.5)));
}
