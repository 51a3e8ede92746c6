// Before/after comparison of a restored file against its original, at full resolution: the restored image is drawn
// over the original and clipped at the divider, which follows a drag on the image or the slider (focused when the
// dialog opens: arrows move it). Zoom enlarges both (scroll to pan); a PDF is paged through, page by page.
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { focusRing, secondaryButton } from '../../../components/ui/styles.js';
import { downloadFile } from '../api/files-api.js';
import type { FileItem } from '../logic/model.js';
import { TEXTS } from '../logic/texts.js';
import { Dialog } from '../../../components/ui/Dialog.js';
import { openPdf, pdfPageImage, type PdfDocument } from '../../../lib/pdf.js';
import { useObjectUrl } from '../../../lib/use-object-url.js';

const COMPARE_WIDTH_PX = 1200;
export const COMPARE_ZOOMS = [1, 1.5, 2, 3, 4] as const;

/** The divider position (0–100 %) for a pointer at `clientX` over an element spanning `left`…`left + width`. */
export function dividerPosition(clientX: number, rect: { left: number; width: number }): number {
  if (rect.width <= 0) return 50;
  return Math.round(Math.min(100, Math.max(0, ((clientX - rect.left) / rect.width) * 100)));
}

type Source = { kind: 'image'; blob: Blob } | { kind: 'pdf'; doc: PdfDocument };

/** The file as something to draw: an image as it is, a PDF opened by pdf.js (destroyed when done). */
function useSource(file: FileItem | undefined): { source: Source | null; failed: boolean } {
  const [result, setResult] = useState<{ source: Source | null; failed: boolean }>({
    source: null,
    failed: false,
  });
  const id = file?.id;
  const filename = file?.filename;
  useEffect(() => {
    if (!id || !filename) {
      setResult({ source: null, failed: true });
      return;
    }
    let alive = true;
    let opened: PdfDocument | null = null;
    setResult({ source: null, failed: false });
    (async (): Promise<Source> => {
      const blob = await downloadFile(id, filename);
      const isPdf = blob.type === 'application/pdf' || filename.toLowerCase().endsWith('.pdf');
      if (!isPdf) return { kind: 'image', blob };
      opened = await openPdf(await blob.arrayBuffer());
      return { kind: 'pdf', doc: opened };
    })().then(
      (source) => {
        if (alive) setResult({ source, failed: false });
        else if (source.kind === 'pdf') void source.doc.destroy();
      },
      (error: unknown) => {
        console.error(error);
        if (alive) setResult({ source: null, failed: true });
      },
    );
    return () => {
      alive = false;
      if (opened) void opened.destroy();
    };
  }, [id, filename]);
  return result;
}

/** Page `page` of the source as an image (the last page when the source has fewer). */
function usePageImage(source: Source | null, page: number): { blob: Blob | null; failed: boolean } {
  const [result, setResult] = useState<{ blob: Blob | null; failed: boolean }>({ blob: null, failed: false });
  useEffect(() => {
    if (!source) return;
    if (source.kind === 'image') {
      setResult({ blob: source.blob, failed: false });
      return;
    }
    let alive = true;
    pdfPageImage(source.doc, Math.min(page, source.doc.numPages), COMPARE_WIDTH_PX).then(
      (blob) => alive && setResult({ blob, failed: false }),
      (error: unknown) => {
        console.error(error);
        if (alive) setResult({ blob: null, failed: true });
      },
    );
    return () => {
      alive = false;
    };
  }, [source, page]);
  return result;
}

const pagesOf = (source: Source | null): number => (source?.kind === 'pdf' ? source.doc.numPages : 1);
const toolButton = `inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 disabled:opacity-40 dark:text-slate-200 dark:hover:bg-slate-800 ${focusRing}`;

export function CompareDialog({
  restored,
  original,
  onClose,
}: {
  restored: FileItem;
  original: FileItem | undefined;
  onClose: () => void;
}) {
  const [position, setPosition] = useState(50);
  const [page, setPage] = useState(1);
  const [zoomIndex, setZoomIndex] = useState(0);
  const dragging = useRef(false);
  const before = useSource(original);
  const after = useSource(restored);
  const beforePage = usePageImage(before.source, page);
  const afterPage = usePageImage(after.source, page);
  const beforeUrl = useObjectUrl(beforePage.blob);
  const afterUrl = useObjectUrl(afterPage.blob);
  const failed = before.failed || after.failed || beforePage.failed || afterPage.failed;
  const pages = Math.max(pagesOf(before.source), pagesOf(after.source));
  const zoom = COMPARE_ZOOMS[zoomIndex] ?? 1;

  const follow = (e: PointerEvent<HTMLDivElement>) =>
    setPosition(dividerPosition(e.clientX, e.currentTarget.getBoundingClientRect()));
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    follow(e);
  };

  return (
    <Dialog title={`${TEXTS.card.compare}: ${restored.filename}`} onClose={onClose} size="lg">
      <div className="mt-4 space-y-3" data-testid="compare-view">
        <div role="toolbar" aria-label="Comparison" className="flex flex-wrap items-center gap-1">
          <button
            type="button"
            className={toolButton}
            aria-label="Zoom out"
            disabled={zoomIndex === 0}
            onClick={() => setZoomIndex((i) => Math.max(0, i - 1))}
          >
            −
          </button>
          <span className="w-12 text-center text-sm tabular-nums" data-testid="compare-zoom">
            {Math.round(zoom * 100)}%
          </span>
          <button
            type="button"
            className={toolButton}
            aria-label="Zoom in"
            disabled={zoomIndex === COMPARE_ZOOMS.length - 1}
            onClick={() => setZoomIndex((i) => Math.min(COMPARE_ZOOMS.length - 1, i + 1))}
          >
            +
          </button>
          {pages > 1 ? (
            <span className="ml-auto flex items-center gap-1">
              <button
                type="button"
                className={toolButton}
                aria-label="Previous page"
                disabled={page <= 1}
                onClick={() => setPage((p) => Math.max(1, p - 1))}
              >
                ‹
              </button>
              <span className="text-sm tabular-nums" data-testid="compare-page">
                Page {page} of {pages}
              </span>
              <button
                type="button"
                className={toolButton}
                aria-label="Next page"
                disabled={page >= pages}
                onClick={() => setPage((p) => Math.min(pages, p + 1))}
              >
                ›
              </button>
            </span>
          ) : null}
        </div>
        {failed ? (
          <p role="alert" className="py-10 text-center text-sm text-slate-500">
            {TEXTS.card.previewUnavailable} — {TEXTS.card.previewUnavailableHint}
          </p>
        ) : beforeUrl && afterUrl ? (
          <div
            className="max-h-[60vh] overflow-auto rounded-lg bg-slate-100 dark:bg-slate-800"
            data-testid="compare-scroll"
            // Keyboard users scroll a zoomed picture with the arrow keys.
            tabIndex={0}
            role="region"
            aria-label="Comparison picture"
          >
            <div
              className="relative mx-auto cursor-ew-resize touch-none select-none"
              style={{ width: `${zoom * 100}%` }}
              data-testid="compare-stage"
              onPointerDown={onPointerDown}
              onPointerMove={(e) => dragging.current && follow(e)}
              onPointerUp={() => (dragging.current = false)}
              onPointerCancel={() => (dragging.current = false)}
            >
              <img
                src={beforeUrl}
                alt={`Original: ${original?.filename ?? ''}`}
                className="block h-auto w-full"
                draggable={false}
              />
              <img
                src={afterUrl}
                alt={`Restored: ${restored.filename}`}
                data-testid="compare-after"
                className="absolute inset-0 h-full w-full object-fill"
                style={{ clipPath: `inset(0 0 0 ${position}%)` }}
                draggable={false}
              />
              <div
                aria-hidden="true"
                className="absolute inset-y-0 w-0.5 bg-white shadow-[0_0_0_1px_rgba(0,0,0,0.3)]"
                style={{ left: `${position}%` }}
              />
              <span className="absolute left-2 top-2 rounded bg-black/60 px-2 py-0.5 text-xs text-white">
                Before
              </span>
              <span className="absolute right-2 top-2 rounded bg-black/60 px-2 py-0.5 text-xs text-white">
                After
              </span>
            </div>
          </div>
        ) : (
          <p className="py-10 text-center text-sm text-slate-500">{TEXTS.card.generatingPreview}</p>
        )}
        {/* Always present, so the dialog focuses it on opening. */}
        <input
          type="range"
          min={0}
          max={100}
          value={position}
          aria-label="Comparison position: left shows the original, right the restored file"
          aria-valuetext={`${position}% original`}
          onChange={(e) => setPosition(Number(e.target.value))}
          className="h-6 w-full accent-indigo-600"
          data-autofocus
        />
      </div>
      <div className="mt-4 flex justify-end">
        <button type="button" className={secondaryButton} onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
