// pdf.js in the browser: loaded on first use, its worker served from the package via Vite `?url`.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

export async function loadPdfjs() {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  return pdfjs;
}

export type PdfDocument = Awaited<
  ReturnType<Awaited<ReturnType<typeof loadPdfjs>>['getDocument']>['promise']
>;

/** A PDF opened by pdf.js; the caller destroys it. */
export async function openPdf(bytes: ArrayBuffer): Promise<PdfDocument> {
  const pdfjs = await loadPdfjs();
  return pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
}

/** One page of an open PDF drawn `widthPx` wide, as a PNG. */
export async function pdfPageImage(doc: PdfDocument, pageNumber: number, widthPx: number): Promise<Blob> {
  const page = await doc.getPage(pageNumber);
  const viewport = page.getViewport({ scale: widthPx / page.getViewport({ scale: 1 }).width });
  const canvas = document.createElement('canvas');
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  await page.render({ canvas, viewport }).promise;
  page.cleanup();
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('Canvas export failed'))), 'image/png'),
  );
}
