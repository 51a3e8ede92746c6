// pdf.js in the browser: loaded on first use, its worker served from the package via Vite `?url`.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

export async function loadPdfjs() {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  return pdfjs;
}

/** Page 1 of a PDF drawn `widthPx` wide, as a PNG. */
export async function pdfFirstPageImage(bytes: ArrayBuffer, widthPx: number): Promise<Blob> {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes) }).promise;
  try {
    const page = await doc.getPage(1);
    const viewport = page.getViewport({ scale: widthPx / page.getViewport({ scale: 1 }).width });
    const canvas = document.createElement('canvas');
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    await page.render({ canvas, viewport }).promise;
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('Canvas export failed'))),
        'image/png',
      ),
    );
  } finally {
    void doc.destroy();
  }
}
