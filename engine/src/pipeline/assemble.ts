// The output file from its restored pages, in the current thread (a worker thread calls it: pdf-lib and
// sharp's joins are CPU work that must not hold the caller's event loop).
import sharp from 'sharp';
import type { Doc } from '../io/decode.js';
import { buildPdf, type BuildPdfOptions } from '../io/encode.js';
import { EXTENSION_BY_FORMAT, MIME_BY_FORMAT } from '../io/sniff.js';
import type { RestoredPage } from './page.js';

export interface AssembledOutput {
  bytes: Uint8Array;
  mime: string;
  extension: string;
}

/**
 * A restored page's size in points: the source page's, with width and height swapped when the page was turned a
 * quarter (its image is landscape where the page was portrait, or the reverse).
 */
export function pageSizeOf(
  size: { width: number; height: number },
  page: { width: number; height: number },
): { widthPt: number; heightPt: number } {
  const clearly = (a: number, b: number) => a > 1.02 * b;
  const turned =
    (clearly(page.width, page.height) && clearly(size.height, size.width)) ||
    (clearly(page.height, page.width) && clearly(size.width, size.height));
  return turned
    ? { widthPt: size.height, heightPt: size.width }
    : { widthPt: size.width, heightPt: size.height };
}

/**
 * The output file: a restored PDF for PDF input (PDF/A-2b with `pdf.pdfa`), the same image format otherwise.
 * Null pages stay original.
 */
export async function assembleInThread(
  doc: Doc,
  pages: (RestoredPage | null)[],
  pdf: BuildPdfOptions = {},
): Promise<AssembledOutput> {
  if (pages.length !== doc.pageCount)
    throw new RangeError(`Expected ${doc.pageCount} pages, got ${pages.length}.`);
  if (doc.format === 'pdf') {
    const bytes = await buildPdf(
      pages.map((p, i) =>
        p === null
          ? null
          : {
              ...pageSizeOf(doc.pageSizes[i]!, p),
              image: { bytes: p.bytes, mime: p.mime, width: p.width, height: p.height },
              words: p.words,
              ...(p.asInput ? { sourcePage: true } : {}),
            },
      ),
      doc.bytes,
      pdf,
    );
    return { bytes, mime: MIME_BY_FORMAT.pdf, extension: EXTENSION_BY_FORMAT.pdf };
  }
  const mime = MIME_BY_FORMAT[doc.format];
  const extension = EXTENSION_BY_FORMAT[doc.format];
  // The input's bytes may be shared between threads: an unchanged page goes out as a copy of its own.
  if (doc.pageCount === 1) return { bytes: pages[0]?.bytes ?? new Uint8Array(doc.bytes), mime, extension };
  // Multi-page TIFF: restored pages and untouched originals joined again, in order.
  const frames = await Promise.all(
    pages.map((p, i) => (p ? sharp(p.bytes).toBuffer() : sharp(doc.bytes, { page: i }).rotate().toBuffer())),
  );
  const dpi = pages.find((p) => p !== null)?.dpi ?? doc.pageSizes[0]?.dpi ?? 150;
  const out = await sharp(frames, { join: { animated: true } })
    .withMetadata({ density: dpi })
    .tiff({ compression: 'lzw' })
    .toBuffer();
  return { bytes: new Uint8Array(out.buffer, out.byteOffset, out.length), mime, extension };
}
