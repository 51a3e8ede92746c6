// pdf.js's viewer components (PDFViewer, EventBus, PDFLinkService, PDFFindController) and their stylesheet, loaded on
// first use. The components read the library from `globalThis.pdfjsLib`, so it is set before they are imported.
import type * as PdfViewerModule from 'pdfjs-dist/web/pdf_viewer.mjs';
import { loadPdfjs } from '../../lib/pdf.js';

export type PdfjsLib = Awaited<ReturnType<typeof loadPdfjs>>;
export type PdfViewerLib = typeof PdfViewerModule;

let loading: Promise<{ pdfjs: PdfjsLib; viewerLib: PdfViewerLib }> | null = null;

export function loadPdfViewer(): Promise<{ pdfjs: PdfjsLib; viewerLib: PdfViewerLib }> {
  loading ??= (async () => {
    const pdfjs = await loadPdfjs();
    (globalThis as { pdfjsLib?: unknown }).pdfjsLib = pdfjs;
    const [viewerLib] = await Promise.all([
      import('pdfjs-dist/web/pdf_viewer.mjs'),
      import('pdfjs-dist/web/pdf_viewer.css'),
    ]);
    return { pdfjs, viewerLib };
  })();
  loading.catch(() => (loading = null));
  return loading;
}
