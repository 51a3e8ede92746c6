// PDF reading with pdfjs-dist (legacy build for Node). pdfjs draws on its own @napi-rs/canvas copy, so canvases
// always come from the document's canvasFactory: mixing two canvas builds crashes the process.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { EngineInputError, inputErrors } from '../errors.js';
import type { RawImage } from '../image.js';
import { MAX_PAGE_PIXELS } from './limits.js';
import { PDF_BOUNDS } from './pdf-bounds.js';

const require = createRequire(import.meta.url);
const pdfjsRoot = path.dirname(require.resolve('pdfjs-dist/package.json'));
// pdfjs wants folder URLs with a trailing separator; in Node they are plain paths.
const standardFontDataUrl = path.join(pdfjsRoot, 'standard_fonts') + path.sep;
const cMapUrl = path.join(pdfjsRoot, 'cmaps') + path.sep;

/**
 * pdfjs, loaded on first use: the module and the canvas it brings cost a thread about 170 MB, and a worker that
 * only restores images or scanned pages (decoded by sharp) never needs it.
 */
export function loadPdfjs(): Promise<typeof Pdfjs> {
  return import('pdfjs-dist/legacy/build/pdf.mjs');
}

export interface PdfPageSize {
  /** Page size in PDF points (1/72 inch), after the page's own rotation. */
  widthPt: number;
  heightPt: number;
}

/** Opens a PDF, mapping pdfjs failures to user-facing input errors. The caller must `destroy()` it. */
export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const { getDocument } = await loadPdfjs();
  // pdfjs transfers (detaches) the buffer it gets, so it always gets a private copy.
  const task = getDocument({
    data: new Uint8Array(bytes),
    verbosity: 0,
    isEvalSupported: false,
    useSystemFonts: false,
    standardFontDataUrl,
    cMapUrl,
    cMapPacked: true,
    // A second line behind checkPdfPage (which pdf-lib cannot run on every file): pdfjs leaves out any image
    // over this size instead of decoding it.
    maxImageSize: PDF_BOUNDS.maxImagePixels,
    isOffscreenCanvasSupported: false,
  });
  // pdfjs asks for a password through this callback; we never have one.
  task.onPassword = () => {
    void task.destroy();
  };
  try {
    return await task.promise;
  } catch (error) {
    throw mapPdfError(error);
  }
}

export function mapPdfError(error: unknown): Error {
  if (error instanceof EngineInputError) return error;
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException' || /password/i.test(message)) return inputErrors.encrypted();
  if (/worker was destroyed|Loading aborted/i.test(message)) return inputErrors.encrypted();
  return inputErrors.corrupt(error);
}

/**
 * For a file pdf-lib cannot pre-check (encrypted with an empty password): the page's operator list, which pdfjs
 * keeps for drawing it, against PDF_BOUNDS. Building the list is bounded by the caller's time limit only.
 */
export async function checkPageOperators(page: PDFPageProxy): Promise<void> {
  const { OPS } = await loadPdfjs();
  let ops: Awaited<ReturnType<PDFPageProxy['getOperatorList']>>;
  try {
    ops = await page.getOperatorList();
  } catch (error) {
    throw inputErrors.corrupt(error);
  }
  let segments = 0;
  for (let i = 0; i < ops.fnArray.length; i++) {
    if (ops.fnArray[i] !== OPS.constructPath) continue;
    // [paint operator, [path data: opcode then coordinates, about 3 numbers a segment], bounding box]
    const data = ((ops.argsArray[i] as unknown[])[1] as unknown[] | undefined)?.[0];
    if (data instanceof Float32Array || Array.isArray(data)) segments += data.length / 3;
  }
  if (ops.fnArray.length > PDF_BOUNDS.maxOperators || segments > PDF_BOUNDS.maxPathSegments)
    throw inputErrors.tooComplex();
}

/** What a caller needs to plan a PDF's pages: how many there are and their sizes. */
export interface PdfDescription {
  pageCount: number;
  sizes: PdfPageSize[];
}

/** Page count and sizes of a PDF, read with pdfjs in this thread. Throws the typed input errors of openPdf. */
export async function describePdf(bytes: Uint8Array): Promise<PdfDescription> {
  const pdf = await openPdf(bytes);
  try {
    return { pageCount: pdf.numPages, sizes: await getPdfPageSizes(pdf) };
  } finally {
    await pdf.destroy();
  }
}

async function getPdfPageSizes(doc: PDFDocumentProxy): Promise<PdfPageSize[]> {
  const sizes: PdfPageSize[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const viewport = page.getViewport({ scale: 1 });
    sizes.push({ widthPt: viewport.width, heightPt: viewport.height });
  }
  return sizes;
}

interface PdfCanvasFactory {
  create(
    width: number,
    height: number,
  ): {
    canvas: { width: number; height: number };
    context: { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
  };
  destroy(canvasAndContext: unknown): void;
}

/** Largest DPI not above `dpi` at which the page stays within `maxPixels`. */
export function fitDpi(size: PdfPageSize, dpi: number, maxPixels: number): number {
  const pixelsAt = (d: number) => ((size.widthPt * d) / 72) * ((size.heightPt * d) / 72);
  if (pixelsAt(dpi) <= maxPixels) return dpi;
  return Math.floor(dpi * Math.sqrt(maxPixels / pixelsAt(dpi)));
}

/** Renders one page (0-based) to RGB on white at the given DPI. */
export async function renderPdfPage(
  doc: PDFDocumentProxy,
  pageIndex: number,
  dpi: number,
): Promise<RawImage> {
  try {
    const page = await doc.getPage(pageIndex + 1);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const width = Math.max(1, Math.round(viewport.width));
    const height = Math.max(1, Math.round(viewport.height));
    // A page of extreme proportions can ask for a huge canvas even at a small width.
    if (width * height > MAX_PAGE_PIXELS) throw inputErrors.tooComplex();
    const factory = (doc as unknown as { canvasFactory: PdfCanvasFactory }).canvasFactory;
    const target = factory.create(width, height);
    try {
      const params = {
        canvas: target.canvas,
        canvasContext: target.context,
        viewport,
        background: 'rgb(255,255,255)',
      } as unknown as Parameters<PDFPageProxy['render']>[0];
      const task = page.render(params);
      // pdfjs draws in slices of about 15 ms and asks onContinue for the next one: past the budget it gets
      // none. One operator (a single huge path) is not cut; PDF_BOUNDS.maxPathSegments bounds that one.
      const deadline = Date.now() + PDF_BOUNDS.renderTimeoutMs;
      let timedOut = false;
      task.onContinue = (next: () => void) => {
        if (Date.now() <= deadline) return void setImmediate(next);
        timedOut = true;
        task.cancel();
      };
      try {
        await task.promise;
      } catch (error) {
        throw timedOut ? inputErrors.tooComplex() : error;
      }
      const rgba = target.context.getImageData(0, 0, width, height).data;
      const rgb = new Uint8Array(width * height * 3);
      for (let i = 0, j = 0; j < rgb.length; i += 4, j += 3) {
        rgb[j] = rgba[i]!;
        rgb[j + 1] = rgba[i + 1]!;
        rgb[j + 2] = rgba[i + 2]!;
      }
      page.cleanup();
      return { data: rgb, width, height, channels: 3 };
    } finally {
      factory.destroy(target);
    }
  } catch (error) {
    throw mapPdfError(error);
  }
}
