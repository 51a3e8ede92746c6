// Before/after comparison of a restored file against its original, at full resolution (first page for PDFs):
// the restored image is drawn over the original and clipped at the slider position (range input: drag or arrows).
import { useEffect, useState } from 'react';
import { secondaryButton } from '../../../components/ui/styles.js';
import { downloadFile } from '../api/files-api.js';
import type { FileItem } from '../logic/model.js';
import { TEXTS } from '../logic/texts.js';
import { Dialog } from './Dialog.js';
import { pdfFirstPageImage } from './pdf.js';
import { useObjectUrl } from './use-object-url.js';

const COMPARE_WIDTH_PX = 1200;

/** The file itself as an image: images as they are, PDFs as their first page drawn by pdf.js. */
function useFileImage(file: FileItem | undefined): { blob: Blob | null; failed: boolean } {
  const [result, setResult] = useState<{ blob: Blob | null; failed: boolean }>({ blob: null, failed: false });
  const id = file?.id;
  const filename = file?.filename;
  useEffect(() => {
    if (!id || !filename) {
      setResult({ blob: null, failed: true });
      return;
    }
    let alive = true;
    (async () => {
      const blob = await downloadFile(id, filename);
      const isPdf = blob.type === 'application/pdf' || filename.toLowerCase().endsWith('.pdf');
      return isPdf ? pdfFirstPageImage(await blob.arrayBuffer(), COMPARE_WIDTH_PX) : blob;
    })().then(
      (blob) => alive && setResult({ blob, failed: false }),
      (error: unknown) => {
        console.error(error);
        if (alive) setResult({ blob: null, failed: true });
      },
    );
    return () => {
      alive = false;
    };
  }, [id, filename]);
  return result;
}

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
  const before = useFileImage(original);
  const after = useFileImage(restored);
  const beforeUrl = useObjectUrl(before.blob);
  const afterUrl = useObjectUrl(after.blob);
  const failed = before.failed || after.failed;

  return (
    <Dialog title={`${TEXTS.card.compare}: ${restored.filename}`} onClose={onClose} size="lg">
      <div className="mt-4" data-testid="compare-view">
        {failed ? (
          <p role="alert" className="py-10 text-center text-sm text-slate-500">
            {TEXTS.card.previewUnavailable} — {TEXTS.card.previewUnavailableHint}
          </p>
        ) : beforeUrl && afterUrl ? (
          <div className="space-y-3">
            <div className="relative mx-auto w-fit max-w-full select-none overflow-hidden rounded-lg bg-slate-100 dark:bg-slate-800">
              <img
                src={beforeUrl}
                alt={`Original: ${original?.filename ?? ''}`}
                className="block max-h-[65vh] w-auto max-w-full"
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
            <input
              type="range"
              min={0}
              max={100}
              value={position}
              aria-label="Comparison position: left shows the original, right the restored file"
              aria-valuetext={`${position}% original`}
              onChange={(e) => setPosition(Number(e.target.value))}
              className="w-full accent-indigo-600"
              data-autofocus
            />
          </div>
        ) : (
          <p className="py-10 text-center text-sm text-slate-500">{TEXTS.card.generatingPreview}</p>
        )}
      </div>
      <div className="mt-4 flex justify-end">
        <button type="button" className={secondaryButton} onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
