// Upload panel (spec §2 "Upload panel", §4 upload states, §5 validation): collapsible card, drop zone and
// picker, single-file preview or a per-file list, XHR upload with real progress, retry and Try Again.
import { MAX_UPLOAD_MB_DEFAULT, UPLOAD_EXTENSIONS } from '@folio/shared';
import { useCallback, useEffect, useId, useReducer, useRef, useState, type DragEvent } from 'react';
import { focusRing, primaryButton, secondaryButton } from '../../../components/ui/styles.js';
import { MAX_BATCH_FILES, uploadBatch, uploadFile } from '../api/upload-xhr.js';
import { formatSize } from '../logic/format.js';
import {
  TEXTS,
  filesReady,
  filesSelectedHeading,
  selectedFilesTitle,
  uploadButton,
  uploadCompleteText,
  uploadingLabel,
} from '../logic/texts.js';
import {
  initialUploadState,
  uploadReducer,
  type ItemStatus,
  type UploadState,
} from '../logic/upload-state.js';
import { Badge } from './Badge.js';
import { HIGHLIGHT_CLASS } from './highlight.js';
import { PdfFirstPage } from './PdfFirstPage.js';
import { useObjectUrl } from '../../../lib/use-object-url.js';

const ACCEPT = UPLOAD_EXTENSIONS.join(',');
const FORMATS = `Supported formats: ${UPLOAD_EXTENSIONS.map((e) => e.slice(1).toUpperCase()).join(', ')} (max ${MAX_UPLOAD_MB_DEFAULT} MB per file)`;

const ITEM_BADGE: Record<ItemStatus, { label: string; tone: 'neutral' | 'amber' | 'green' | 'red' }> = {
  pending: { label: 'Pending', tone: 'neutral' },
  uploading: { label: 'Uploading', tone: 'amber' },
  success: { label: 'Uploaded', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
};

const chunk = <T,>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

const messageOf = (error: unknown): string =>
  error instanceof Error && error.message ? error.message : TEXTS.upload.failedFallback;

function ImagePreview({ file }: { file: File }) {
  const url = useObjectUrl(file);
  return url ? (
    <img
      src={url}
      alt={`Preview of ${file.name}`}
      className="max-h-72 w-auto max-w-full rounded border border-slate-200 object-contain dark:border-slate-700"
    />
  ) : null;
}

export interface UploadPanelProps {
  onUploaded: () => void;
  highlighted?: boolean;
}

export function UploadPanel({ onUploaded, highlighted }: UploadPanelProps) {
  const [state, dispatch] = useReducer(
    (s: UploadState, a: Parameters<typeof uploadReducer<File>>[1]) => uploadReducer(s, a),
    initialUploadState,
  );
  const [open, setOpen] = useState(false);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const bodyId = useId();
  const uploading = state.status === 'uploading';
  // The panel opens by itself when files are selected or an upload runs.
  const expanded = open || state.items.length > 0 || uploading;
  const count = state.items.length;

  const select = useCallback(
    (list: FileList | null) => {
      if (uploading || !list || list.length === 0) return;
      dispatch({ type: 'select', files: [...list] });
      setOpen(true);
    },
    [uploading],
  );

  // A file dropped anywhere on the dashboard (the collapsed card included) opens the panel and is taken. The
  // drop zone's own handler runs first and marks its drops handled (defaultPrevented).
  useEffect(() => {
    const take = (event: globalThis.DragEvent) => {
      if (event.defaultPrevented || !event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      select(event.dataTransfer.files);
    };
    document.addEventListener('drop', take);
    return () => document.removeEventListener('drop', take);
  }, [select]);

  const upload = async (files = state.items.filter((i) => i.status !== 'success').map((i) => i.file)) => {
    if (files.length === 0 || uploading) return;
    dispatch({ type: 'start' });
    const onProgress = (percent: number) => dispatch({ type: 'progress', percent });
    if (files.length === 1) {
      try {
        const answer = await uploadFile(files[0] as File, onProgress);
        dispatch({ type: 'finished', jobId: answer.job_id });
      } catch (error) {
        dispatch({ type: 'failed', error: messageOf(error) });
      }
      onUploaded();
      return;
    }
    // The server takes at most MAX_BATCH_FILES per request: larger selections go up in several batches.
    const parts = chunk(files, MAX_BATCH_FILES);
    let failedParts = 0;
    let lastError = '';
    let batchJobId: string | undefined;
    for (const [i, part] of parts.entries()) {
      try {
        const answer = await uploadBatch(part, (p) =>
          onProgress(Math.round(((i + p / 100) / parts.length) * 100)),
        );
        for (const r of answer.rejected) dispatch({ type: 'item/failed', name: r.filename, error: r.error });
        batchJobId = answer.batch_job_id;
      } catch (error) {
        failedParts += 1;
        lastError = messageOf(error);
        if (parts.length > 1)
          for (const f of part) dispatch({ type: 'item/failed', name: f.name, error: lastError });
      }
    }
    if (failedParts === parts.length) dispatch({ type: 'failed', error: lastError });
    else dispatch({ type: 'finished', batchJobId });
    onUploaded();
  };

  const retry = async (file: File) => {
    dispatch({ type: 'item/retry', name: file.name });
    try {
      await uploadFile(file, (percent) => dispatch({ type: 'progress', percent }));
      dispatch({ type: 'item/succeeded', name: file.name });
      onUploaded();
    } catch (error) {
      dispatch({ type: 'item/failed', name: file.name, error: messageOf(error) });
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    select(event.dataTransfer.files);
  };

  const single = count === 1 ? state.items[0] : undefined;
  const heading = dragging
    ? TEXTS.upload.headingDragging
    : count === 0
      ? TEXTS.upload.headingIdle
      : filesSelectedHeading(count);
  const pendingCount = state.items.filter((i) => i.status !== 'success').length;

  return (
    <section
      aria-labelledby={`${bodyId}-title`}
      data-testid="upload-panel"
      className={`rounded-2xl border bg-white dark:bg-slate-900 ${
        highlighted ? HIGHLIGHT_CLASS : 'border-slate-200 shadow-sm dark:border-slate-800'
      }`}
    >
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={bodyId}
        onClick={() => setOpen(!expanded)}
        className={`flex w-full items-center justify-between gap-3 rounded-2xl px-5 py-4 text-left ${focusRing}`}
      >
        <span>
          <span id={`${bodyId}-title`} className="block text-lg font-semibold text-slate-900 dark:text-white">
            {TEXTS.upload.title}
          </span>
          <span className="block text-sm text-slate-500 dark:text-slate-400">
            {expanded ? TEXTS.upload.expandedHint : TEXTS.upload.collapsedHint}
          </span>
        </span>
        <svg
          viewBox="0 0 24 24"
          aria-hidden="true"
          className={`size-5 shrink-0 text-slate-500 transition-transform ${expanded ? 'rotate-180' : ''}`}
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
        >
          <path d="M6 9l6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>

      <div id={bodyId} hidden={!expanded} className="space-y-4 px-5 pb-5">
        <div
          data-testid="drop-zone"
          data-dragging={dragging}
          aria-disabled={uploading}
          onClick={() => !uploading && input.current?.click()}
          onDragOver={(e) => {
            e.preventDefault();
            if (!uploading) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={`flex cursor-pointer flex-col items-center gap-2 rounded-xl border-2 border-dashed px-4 py-8 text-center transition ${
            dragging
              ? 'border-indigo-500 bg-indigo-50 dark:bg-indigo-950/40'
              : 'border-slate-300 hover:border-indigo-400 dark:border-slate-700'
          } ${uploading ? 'cursor-not-allowed opacity-60' : ''}`}
        >
          <svg
            viewBox="0 0 24 24"
            aria-hidden="true"
            className="size-10 text-indigo-500"
            fill="none"
            stroke="currentColor"
            strokeWidth={1.5}
          >
            <path d="M12 16V4m0 0l-4 4m4-4l4 4M4 16v3h16v-3" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <p className="font-semibold text-slate-900 dark:text-white">{heading}</p>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            {dragging ? TEXTS.upload.draggingText : TEXTS.upload.idleText}
          </p>
          <button
            type="button"
            className={secondaryButton}
            disabled={uploading}
            onClick={(e) => {
              e.stopPropagation();
              input.current?.click();
            }}
          >
            {TEXTS.upload.chooseFiles}
          </button>
          <p className="text-xs text-slate-500 dark:text-slate-400">{FORMATS}</p>
          <input
            ref={input}
            type="file"
            multiple
            accept={ACCEPT}
            disabled={uploading}
            className="sr-only"
            tabIndex={-1}
            aria-label={TEXTS.upload.chooseFiles}
            data-testid="file-input"
            onChange={(e) => {
              select(e.target.files);
              e.target.value = '';
            }}
          />
        </div>

        {state.rejected.length > 0 ? (
          <ul
            role="alert"
            data-testid="upload-rejected"
            className="space-y-1 rounded-lg bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950/40 dark:text-red-300"
          >
            {state.rejected.map((r) => (
              <li key={r.name}>
                <span className="font-semibold">{r.name}</span>: {r.message}
              </li>
            ))}
          </ul>
        ) : null}

        {single ? (
          <div className="flex flex-col items-center gap-2 rounded-xl bg-slate-50 p-4 dark:bg-slate-800/50">
            {single.file.name.toLowerCase().endsWith('.pdf') ? (
              <PdfFirstPage file={single.file} />
            ) : (
              <ImagePreview file={single.file} />
            )}
            <p className="break-all text-sm font-medium text-slate-900 dark:text-white">
              {single.file.name}{' '}
              <span className="font-normal text-slate-500">({formatSize(single.file.size)})</span>
            </p>
            {single.status === 'pending' ? (
              <p className="text-sm text-emerald-700 dark:text-emerald-400">{TEXTS.upload.fileReady}</p>
            ) : null}
            {!uploading ? (
              <button
                type="button"
                className={`min-h-6 text-sm font-medium text-slate-600 hover:text-red-700 dark:text-slate-300 ${focusRing}`}
                aria-label={`Remove ${single.file.name}`}
                onClick={() => dispatch({ type: 'remove', name: single.file.name })}
              >
                Remove
              </button>
            ) : null}
          </div>
        ) : null}

        {count > 1 ? (
          <div className="rounded-xl border border-slate-200 dark:border-slate-700">
            <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2 dark:border-slate-700">
              <h3 className="text-sm font-semibold text-slate-900 dark:text-white">
                {selectedFilesTitle(count)}
              </h3>
              <button
                type="button"
                className={`min-h-6 px-1 text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400 ${focusRing}`}
                disabled={uploading}
                onClick={() => dispatch({ type: 'clear' })}
              >
                {TEXTS.upload.clearAll}
              </button>
            </div>
            <ul
              className="max-h-60 divide-y divide-slate-100 overflow-y-auto dark:divide-slate-800"
              data-testid="upload-list"
            >
              {state.items.map((item) => (
                <li
                  key={item.file.name}
                  data-status={item.status}
                  className="flex items-start gap-3 px-4 py-2"
                >
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm text-slate-900 dark:text-white" title={item.file.name}>
                      {item.file.name}
                    </p>
                    <p className="text-xs text-slate-500">{formatSize(item.file.size)}</p>
                    {item.error ? (
                      <p className="text-xs text-red-600 dark:text-red-400">{item.error}</p>
                    ) : null}
                  </div>
                  <Badge tone={ITEM_BADGE[item.status].tone}>{ITEM_BADGE[item.status].label}</Badge>
                  {/* While the Upload Error panel offers Try Again, that is the one retry control. */}
                  {item.status === 'failed' && state.status !== 'failed' ? (
                    <button
                      type="button"
                      className={`min-h-6 px-1 text-xs font-medium text-indigo-600 hover:underline ${focusRing}`}
                      aria-label={`Retry ${item.file.name}`}
                      onClick={() => void retry(item.file)}
                    >
                      Retry
                    </button>
                  ) : null}
                  {item.status !== 'uploading' ? (
                    <button
                      type="button"
                      className={`min-h-6 px-1 text-xs font-medium text-slate-600 hover:text-red-600 dark:text-slate-300 ${focusRing}`}
                      aria-label={`Remove ${item.file.name}`}
                      disabled={uploading}
                      onClick={() => dispatch({ type: 'remove', name: item.file.name })}
                    >
                      Remove
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
            {pendingCount > 0 ? (
              <p className="border-t border-slate-200 px-4 py-2 text-xs text-slate-500 dark:border-slate-700">
                {filesReady(pendingCount)}
              </p>
            ) : null}
          </div>
        ) : null}

        {state.status === 'failed' && state.error ? (
          <div
            role="alert"
            className="rounded-lg border border-red-200 bg-red-50 p-4 dark:border-red-900 dark:bg-red-950/40"
          >
            <p className="font-semibold text-red-800 dark:text-red-200">{TEXTS.upload.errorTitle}</p>
            <p className="whitespace-pre-line text-sm text-red-700 dark:text-red-300">{state.error}</p>
            <button
              type="button"
              className={`${secondaryButton} mt-3`}
              onClick={() => {
                // The one retry control: the files that did not make it go up again at once.
                const again = state.items.filter((i) => i.status !== 'success').map((i) => i.file);
                dispatch({ type: 'tryAgain' });
                void upload(again);
              }}
            >
              {TEXTS.upload.tryAgain}
            </button>
          </div>
        ) : null}

        {uploading ? (
          <div className="space-y-2" data-testid="upload-progress">
            <p className="text-sm font-medium text-slate-700 dark:text-slate-200">
              {uploadingLabel(Math.max(1, state.items.filter((i) => i.status === 'uploading').length))}
            </p>
            <div
              role="progressbar"
              aria-label="Upload progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={state.progress}
              className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
            >
              <div
                className="h-full bg-indigo-600 transition-[width] motion-reduce:transition-none"
                style={{ width: `${state.progress}%` }}
              />
            </div>
          </div>
        ) : null}

        {state.status === 'completed' ? (
          <div
            role="status"
            className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 dark:border-emerald-900 dark:bg-emerald-950/40"
          >
            <p className="font-semibold text-emerald-800 dark:text-emerald-200">{TEXTS.upload.complete}</p>
            <p className="text-sm text-emerald-700 dark:text-emerald-300">
              {uploadCompleteText(state.completedCount)}
            </p>
          </div>
        ) : null}

        {state.status === 'idle' && pendingCount > 0 ? (
          <button type="button" className={`${primaryButton} w-full`} onClick={() => void upload()}>
            {uploadButton(pendingCount)}
          </button>
        ) : null}
      </div>
    </section>
  );
}
