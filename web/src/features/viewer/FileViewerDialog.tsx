// A file opened in the browser: PDFs (originals and restored files) in pdf.js's viewer with its annotation editor,
// images at full size with zoom and pan. A full-window dialog over the dashboard; Escape closes it unless focus is
// inside the document (where pdf.js's editors use Escape themselves).
import { useEffect, useId, useRef, useState } from 'react';
import { secondaryButton } from '../../components/ui/styles.js';
import { useFocusTrap } from '../../components/ui/useFocusTrap.js';
import { useObjectUrl } from '../../lib/use-object-url.js';
import { downloadFile, saveBlob, type FileItem } from '../files/index.js';
import { ImageViewer } from './ImageViewer.js';
import { PdfViewer } from './PdfViewer.js';
import { isPdfFile } from './open-file.js';
import { VIEWER_TEXTS } from './texts.js';

type Download =
  { kind: 'loading' } | { kind: 'ready'; blob: Blob; bytes: Uint8Array | null } | { kind: 'failed' };

function useDownload(file: FileItem | undefined): Download {
  const [state, setState] = useState<Download>({ kind: 'loading' });
  const id = file?.id;
  const filename = file?.filename;
  const pdf = file ? isPdfFile(file) : false;
  useEffect(() => {
    if (!id || !filename) return;
    let alive = true;
    setState({ kind: 'loading' });
    (async () => {
      const blob = await downloadFile(id, filename);
      return { blob, bytes: pdf ? new Uint8Array(await blob.arrayBuffer()) : null };
    })().then(
      ({ blob, bytes }) => alive && setState({ kind: 'ready', blob, bytes }),
      (error: unknown) => {
        console.error(error);
        if (alive) setState({ kind: 'failed' });
      },
    );
    return () => {
      alive = false;
    };
  }, [id, filename, pdf]);
  return state;
}

export function FileViewerDialog({ file, onClose }: { file: FileItem | undefined; onClose: () => void }) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const download = useDownload(file);
  const [actions, setActions] = useState<HTMLDivElement | null>(null);
  const pdf = file ? isPdfFile(file) : true;
  const imageUrl = useObjectUrl(!pdf && download.kind === 'ready' ? download.blob : null);
  useFocusTrap(panel, {
    onEscape: () => {
      if (document.activeElement?.closest('.pdfViewer')) return;
      onClose();
    },
    lockScroll: true,
  });

  let body: React.ReactNode;
  if (!file) {
    body = <PdfViewer data={null} filename="" />;
  } else if (download.kind === 'failed') {
    body = (
      <p role="alert" className="py-10 text-center text-sm text-red-600">
        {pdf ? VIEWER_TEXTS.failed : VIEWER_TEXTS.imageFailed}
      </p>
    );
  } else if (download.kind === 'loading') {
    body = (
      <p role="status" className="py-10 text-center text-sm text-slate-600 dark:text-slate-300">
        {pdf ? VIEWER_TEXTS.loading : 'Loading image…'}
      </p>
    );
  } else if (pdf) {
    body = <PdfViewer data={download.bytes} filename={file.filename} actions={actions} />;
  } else {
    body = imageUrl ? <ImageViewer url={imageUrl} alt={file.filename} /> : null;
  }

  return (
    <div className="fixed inset-0 z-50 flex items-stretch justify-center bg-slate-900/70 p-2 sm:p-4">
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="file-viewer"
        className="flex w-full max-w-7xl flex-col overflow-hidden rounded-xl bg-white shadow-2xl dark:bg-slate-900"
      >
        <div className="flex items-center gap-3 border-b border-slate-200 px-4 py-2 dark:border-slate-700">
          <h2 id={titleId} className="min-w-0 flex-1 truncate font-semibold text-slate-900 dark:text-white">
            {file?.filename ?? VIEWER_TEXTS.noFile}
          </h2>
          {!pdf && file && download.kind === 'ready' ? (
            <button
              type="button"
              className={`${secondaryButton} h-8 py-0`}
              onClick={() => saveBlob(download.blob, file.filename)}
            >
              {VIEWER_TEXTS.download}
            </button>
          ) : null}
          <div ref={setActions} className="contents" />
          <button type="button" className={`${secondaryButton} h-8 py-0`} onClick={onClose} data-autofocus>
            {VIEWER_TEXTS.close}
          </button>
        </div>
        <div className="min-h-0 flex-1">{body}</div>
      </div>
    </div>
  );
}
