// First page of a selected PDF at 280 px width with "Page 1 of N" (spec §2), rendered in the browser by pdf.js.
// pdf.js and its worker load only when a PDF is previewed.
import { PDF_PREVIEW_WIDTH_PX } from '@folio/shared';
import { useEffect, useRef, useState } from 'react';
import { TEXTS, pageOfText } from '../logic/texts.js';
import { loadPdfjs } from '../../../lib/pdf.js';

type State = { kind: 'loading' } | { kind: 'ready'; pages: number } | { kind: 'failed' } | { kind: 'broken' };

/** Instead of "still valid for upload" when the PDF itself cannot be read: the server will refuse it. */
export const PDF_UNREADABLE =
  'This PDF is damaged or locked and cannot be uploaded. Please choose another file.';

export function PdfFirstPage({ file }: { file: File }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let cancelled = false;
    setState({ kind: 'loading' });
    const task = (async () => {
      const pdfjs = await loadPdfjs();
      const loading = pdfjs.getDocument({ data: new Uint8Array(await file.arrayBuffer()) });
      const doc = await loading.promise;
      try {
        const page = await doc.getPage(1);
        const scale = PDF_PREVIEW_WIDTH_PX / page.getViewport({ scale: 1 }).width;
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: scale * ratio });
        const el = canvas.current;
        if (cancelled || !el) return;
        el.width = Math.floor(viewport.width);
        el.height = Math.floor(viewport.height);
        el.style.width = `${PDF_PREVIEW_WIDTH_PX}px`;
        el.style.height = `${Math.floor(viewport.height / ratio)}px`;
        await page.render({ canvas: el, viewport }).promise;
        if (!cancelled) setState({ kind: 'ready', pages: doc.numPages });
      } finally {
        void doc.destroy();
      }
    })();
    task.catch((error: unknown) => {
      console.error(TEXTS.upload.pdfPreviewFailed, error);
      // A PDF that pdf.js cannot parse or open (damaged, password) is one the server refuses too.
      const name = error instanceof Error ? error.name : '';
      const broken = name === 'InvalidPDFException' || name === 'PasswordException';
      if (!cancelled) setState({ kind: broken ? 'broken' : 'failed' });
    });
    return () => {
      cancelled = true;
    };
  }, [file]);

  if (state.kind === 'broken') {
    return (
      <div role="alert" className="rounded-lg bg-red-50 p-4 text-center text-sm dark:bg-red-950/40">
        <p className="font-medium text-red-800 dark:text-red-200">{TEXTS.upload.pdfPreviewFailed}</p>
        <p className="text-red-700 dark:text-red-300">{PDF_UNREADABLE}</p>
      </div>
    );
  }
  if (state.kind === 'failed') {
    return (
      <div role="status" className="rounded-lg bg-amber-50 p-4 text-center text-sm dark:bg-amber-950/40">
        <p className="font-medium text-amber-800 dark:text-amber-200">{TEXTS.upload.pdfPreviewFailed}</p>
        <p className="text-amber-700 dark:text-amber-300">{TEXTS.upload.pdfPreviewStillValid}</p>
      </div>
    );
  }
  return (
    <figure className="flex flex-col items-center gap-2">
      {state.kind === 'loading' ? <p className="text-sm text-slate-500">{TEXTS.upload.pdfLoading}</p> : null}
      <canvas
        ref={canvas}
        data-testid="pdf-preview"
        aria-label={`First page of ${file.name}`}
        className={`rounded border border-slate-200 bg-white shadow-sm dark:border-slate-700 ${state.kind === 'loading' ? 'hidden' : ''}`}
      />
      {state.kind === 'ready' ? (
        <figcaption className="text-xs text-slate-500 dark:text-slate-400">
          {pageOfText(state.pages)}
        </figcaption>
      ) : null}
    </figure>
  );
}
