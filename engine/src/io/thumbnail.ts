// Preview of page 1 for the file list.
import sharp from 'sharp';
import { inputErrors } from '../errors.js';
import { checkPageOperators, openPdf, renderPdfPage } from './pdf.js';
import { checkPdfPage, openWithPdfLib } from './pdf-bounds.js';
import { sniffFormat } from './sniff.js';

export interface Thumbnail {
  data: Buffer;
  mime: 'image/webp' | 'image/png';
}

/** Thumbnails never decode more than this; inspectInput enforces the real limit first. */
const THUMBNAIL_PIXEL_LIMIT = 200_000_000;

export async function renderThumbnail(bytes: Buffer, opts: { width: number }): Promise<Thumbnail> {
  if (bytes.length === 0) throw inputErrors.empty();
  const width = Math.max(1, Math.round(opts.width));
  const format = sniffFormat(bytes);
  if (format === null) throw inputErrors.unsupported();
  try {
    if (format === 'pdf') {
      const lib = await openWithPdfLib(bytes);
      if (lib) checkPdfPage(lib, 0);
      const doc = await openPdf(bytes);
      try {
        const page = await doc.getPage(1);
        if (!lib || lib.getPageCount() === 0) await checkPageOperators(page);
        const widthPt = page.getViewport({ scale: 1 }).width;
        const image = await renderPdfPage(doc, 0, (width / widthPt) * 72);
        const data = await sharp(image.data, { raw: image })
          .resize({ width })
          .webp({ quality: 82 })
          .toBuffer();
        return { data, mime: 'image/webp' };
      } finally {
        await doc.destroy();
      }
    }
    const data = await sharp(bytes, { page: 0, limitInputPixels: THUMBNAIL_PIXEL_LIMIT })
      .rotate() // EXIF orientation
      .resize({ width, withoutEnlargement: false })
      .webp({ quality: 82 })
      .toBuffer();
    return { data, mime: 'image/webp' };
  } catch (error) {
    if (error instanceof Error && error.name === 'EngineInputError') throw error;
    throw inputErrors.corrupt(error);
  }
}
