// Fast validation of an upload: format, page count and size from headers, before any full decode.
import sharp, { type Metadata } from 'sharp';
import { EngineInputError, inputErrors } from '../errors.js';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { checkPageOperators, openPdf } from './pdf.js';
import { checkPdfPages, openWithPdfLib } from './pdf-bounds.js';
import { MIME_BY_FORMAT, sniffFormat, type InputFormat } from './sniff.js';

export interface InputLimits {
  maxPages: number;
  /** Largest decoded raster size accepted, in pixels per page. */
  maxPixels: number;
}

export interface InputInfo {
  format: InputFormat;
  mime: string;
  pageCount: number;
  /** Pixel size of the first page (images only). */
  width?: number;
  height?: number;
}

export async function inspectInput(bytes: Buffer, limits: InputLimits): Promise<InputInfo> {
  if (bytes.length === 0) throw inputErrors.empty();
  const format = sniffFormat(bytes);
  if (format === null) throw inputErrors.unsupported();
  if (format === 'pdf') return inspectPdf(bytes, limits);
  return inspectRaster(bytes, format, limits);
}

async function inspectPdf(bytes: Buffer, limits: InputLimits): Promise<InputInfo> {
  const doc = await openPdf(bytes);
  try {
    const pageCount = doc.numPages;
    if (pageCount < 1) throw inputErrors.corrupt();
    if (pageCount > limits.maxPages) throw inputErrors.tooManyPages(pageCount, limits.maxPages);
    // Every page within PDF_BOUNDS, so that no later preview or restoration hits a bomb. When pdf-lib cannot
    // read the file (encrypted with an empty password), the operator lists below, pdfjs's image size limit and
    // the caller's thread limits are what is left.
    const opened = await openWithPdfLib(bytes);
    // A damaged page tree that pdf-lib reads differently from pdfjs is checked the pdfjs way.
    const lib = opened?.getPageCount() === pageCount ? opened : null;
    if (lib) checkPdfPages(lib);
    // Reading the first page's content catches broken page trees and content streams cheaply; without
    // pdf-lib's check, every page's operator list is checked instead.
    for (let pageNumber = 1; pageNumber <= (lib ? 1 : pageCount); pageNumber++) {
      let page: PDFPageProxy;
      try {
        page = await doc.getPage(pageNumber);
      } catch (error) {
        throw inputErrors.corrupt(error);
      }
      await checkPageOperators(page);
      page.cleanup();
    }
    return { format: 'pdf', mime: MIME_BY_FORMAT.pdf, pageCount };
  } finally {
    await doc.destroy();
  }
}

async function inspectRaster(bytes: Buffer, format: InputFormat, limits: InputLimits): Promise<InputInfo> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw inputErrors.corrupt(error);
  }
  const width = meta.width;
  const height = meta.height;
  if (!width || !height) throw inputErrors.corrupt();
  // Decompression bombs are refused from the header, before a single pixel is decoded.
  if (width * height > limits.maxPixels) throw inputErrors.tooLargePixels(width, height, limits.maxPixels);
  const pageCount = format === 'tiff' ? (meta.pages ?? 1) : 1;
  if (pageCount > limits.maxPages) throw inputErrors.tooManyPages(pageCount, limits.maxPages);
  await checkDecodes(bytes, format, pageCount, limits.maxPixels);
  const upright = (meta.orientation ?? 1) >= 5; // EXIF 5-8 swap width and height
  return {
    format,
    mime: MIME_BY_FORMAT[format],
    pageCount,
    width: upright ? height : width,
    height: upright ? width : height,
  };
}

/** A small shrink-on-load decode of every page: libvips reads all the data, so truncation shows. */
async function checkDecodes(
  bytes: Buffer,
  format: InputFormat,
  pageCount: number,
  maxPixels: number,
): Promise<void> {
  for (let page = 0; page < pageCount; page++) {
    try {
      const meta =
        format === 'tiff' ? await sharp(bytes, { page, limitInputPixels: false }).metadata() : undefined;
      if (meta?.width && meta.height && meta.width * meta.height > maxPixels) {
        throw inputErrors.tooLargePixels(meta.width, meta.height, maxPixels);
      }
      await sharp(bytes, { failOn: 'truncated', limitInputPixels: maxPixels, page })
        .resize(32, 32, { fit: 'inside' })
        .raw()
        .toBuffer();
    } catch (error) {
      if (error instanceof EngineInputError) throw error;
      throw inputErrors.corrupt(error);
    }
  }
}
