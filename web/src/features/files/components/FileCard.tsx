// File card (spec §2): badges, preview, dates, credit cost; clicking the card (or Space/Enter on its checkbox)
// toggles the selection; actions do not. Progress placeholders show the live restoration instead.
import { memo } from 'react';
import { focusRing } from '../../../components/ui/styles.js';
import { daysLeftBadge, formatDate, formatSize, statusBadge } from '../logic/format.js';
import { isPlaceholder, type FileItem, type FileKind } from '../logic/model.js';
import { TEXTS, plural } from '../logic/texts.js';
import { Badge } from './Badge.js';
import { FilePreview } from './FilePreview.js';

export interface FileCardProps {
  file: FileItem;
  selected: boolean;
  onToggle: (kind: FileKind, id: string) => void;
  onRestore?: (file: FileItem) => void;
  onDownload: (file: FileItem) => void;
  onDelete: (file: FileItem) => void;
  onCompare?: (file: FileItem) => void;
  /** Opens the file in the viewer (PDF viewer and annotation editor, or the image at full size). */
  onView?: (file: FileItem) => void;
}

const iconButton = `inline-flex size-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white ${focusRing}`;

function Icon({ d }: { d: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className="size-5"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
    >
      <path strokeLinecap="round" strokeLinejoin="round" d={d} />
    </svg>
  );
}

const ICONS = {
  restore:
    'M12 3l1.9 4.6L18.5 9l-4.6 1.9L12 15.5l-1.9-4.6L5.5 9l4.6-1.4L12 3zM19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8L19 15z',
  download: 'M12 4v11m0 0l-4-4m4 4l4-4M5 19h14',
  delete: 'M6 7h12M10 7V5h4v2m-7 0l1 12h8l1-12',
  compare: 'M12 4v16M4 7h5v10H4zM15 7h5v10h-5z',
  view: 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12zm10 3a3 3 0 100-6 3 3 0 000 6z',
};

function PlaceholderCard({ file }: { file: FileItem }) {
  const p = file.progress;
  // Pages finished (restored or failed) over all pages: at the start of page 1 the bar is still empty.
  const done = p ? p.successfulPages + p.failedPages : 0;
  const percent = p && p.totalPages > 0 ? Math.round((done / p.totalPages) * 100) : 0;
  return (
    <article
      aria-busy="true"
      data-testid="progress-card"
      className="flex flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50/60 p-4 dark:border-amber-700 dark:bg-amber-950/30"
    >
      <h3 className="break-words text-sm font-semibold text-slate-900 dark:text-white">{file.filename}</h3>
      <div className="flex">
        <Badge tone="amber">{statusBadge(file.status).label}</Badge>
      </div>
      {p ? (
        <p className="text-sm font-medium text-slate-800 dark:text-slate-100">
          Page {Math.min(p.currentPage, p.totalPages)} of {p.totalPages}
        </p>
      ) : null}
      <div
        role="progressbar"
        aria-label={file.filename}
        aria-valuetext={p ? `${done} of ${p.totalPages} pages done` : undefined}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-amber-100 dark:bg-amber-900/50"
      >
        <div
          className="h-full bg-amber-500 transition-[width] motion-reduce:transition-none"
          style={{ width: `${percent}%` }}
        />
      </div>
      {p ? (
        <p className="text-xs text-slate-600 dark:text-slate-300">
          {p.successfulPages} restored{p.failedPages > 0 ? `, ${p.failedPages} failed` : ''} of {p.totalPages}
        </p>
      ) : null}
    </article>
  );
}

function FileCardImpl({
  file,
  selected,
  onToggle,
  onRestore,
  onDownload,
  onDelete,
  onCompare,
  onView,
}: FileCardProps) {
  if (isPlaceholder(file)) return <PlaceholderCard file={file} />;
  const status = statusBadge(file.status);
  const days = daysLeftBadge(file.days_remaining, false, file.type);
  const daysMobile = daysLeftBadge(file.days_remaining, true, file.type);
  const isOriginal = file.type === 'original';
  const cost = file.credit_cost ?? file.page_count ?? 1;
  const checkboxId = `select-${file.id}`;

  return (
    <article
      data-testid="file-card"
      data-file-id={file.id}
      data-selected={selected}
      onClick={() => onToggle(file.type, file.id)}
      className={`group flex cursor-pointer flex-col gap-3 rounded-xl border bg-white p-4 shadow-sm transition hover:shadow-md dark:bg-slate-900 ${
        selected ? 'border-indigo-500 ring-2 ring-indigo-500/40' : 'border-slate-200 dark:border-slate-700'
      }`}
    >
      <div className="flex items-start gap-2">
        <input
          id={checkboxId}
          type="checkbox"
          checked={selected}
          onChange={() => onToggle(file.type, file.id)}
          onClick={(e) => e.stopPropagation()}
          aria-label={`Select ${file.filename}`}
          className={`size-6 shrink-0 accent-indigo-600 ${focusRing}`}
        />
        <label
          htmlFor={checkboxId}
          onClick={(e) => e.stopPropagation()}
          className="min-w-0 flex-1 cursor-pointer break-words text-sm font-semibold text-slate-900 dark:text-white"
          title={file.filename}
        >
          {file.filename}
        </label>
      </div>
      <div className="flex flex-wrap gap-1.5">
        <Badge tone={status.tone}>{status.label}</Badge>
        {isOriginal && file.has_restored ? (
          <Badge tone="green" label="Already restored: a restored version exists">
            Already restored
          </Badge>
        ) : null}
        <Badge tone="indigo">{file.file_type.toUpperCase()}</Badge>
        {file.page_count !== null ? (
          <Badge tone="neutral" label={`${file.page_count} ${plural(file.page_count, 'page', 'pages')}`}>
            {file.page_count}p
          </Badge>
        ) : null}
        <Badge tone="neutral">{formatSize(file.file_size)}</Badge>
        {days && daysMobile ? (
          <Badge tone={days.tone}>
            <span className="hidden sm:inline">{days.label}</span>
            <span className="sm:hidden">{daysMobile.label}</span>
          </Badge>
        ) : null}
      </div>
      {file.failure ? (
        <p
          data-testid="file-failure"
          className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950/50 dark:text-red-200"
        >
          {file.failure}
        </p>
      ) : null}
      <FilePreview file={file} />
      <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-xs text-slate-500 dark:text-slate-400">
        <dt>{TEXTS.card.created}</dt>
        <dd>{formatDate(file.created_at)}</dd>
        <dt>{TEXTS.card.updated}</dt>
        <dd>{formatDate(file.updated_at)}</dd>
        {!isOriginal && file.original_filename ? (
          <>
            <dt>{TEXTS.card.originalFilename}</dt>
            <dd className="break-words">{file.original_filename}</dd>
          </>
        ) : null}
      </dl>
      {isOriginal ? (
        <div className="flex items-center justify-between rounded-lg bg-indigo-50 px-3 py-2 text-sm dark:bg-indigo-950/40">
          <span className="text-slate-600 dark:text-slate-300">{TEXTS.card.creditCost}</span>
          <span className="font-semibold text-indigo-700 dark:text-indigo-300">
            {cost} {plural(cost, 'credit', 'credits')}
          </span>
        </div>
      ) : null}
      <div className="mt-auto flex justify-end gap-1" onClick={(e) => e.stopPropagation()}>
        {isOriginal && onRestore ? (
          <button
            type="button"
            className={iconButton}
            aria-label={`Restore ${file.filename}`}
            title="AI Restoration"
            onClick={() => onRestore(file)}
          >
            <Icon d={ICONS.restore} />
          </button>
        ) : null}
        {onView ? (
          <button
            type="button"
            className={iconButton}
            aria-label={`Open ${file.filename}`}
            title="Open"
            onClick={() => onView(file)}
          >
            <Icon d={ICONS.view} />
          </button>
        ) : null}
        {!isOriginal && onCompare && file.original_file_id ? (
          <button
            type="button"
            className={iconButton}
            aria-label={`Compare ${file.filename} with its original`}
            title={TEXTS.card.compare}
            onClick={() => onCompare(file)}
          >
            <Icon d={ICONS.compare} />
          </button>
        ) : null}
        <button
          type="button"
          className={iconButton}
          aria-label={`Download ${file.filename}`}
          title="Download"
          onClick={() => onDownload(file)}
        >
          <Icon d={ICONS.download} />
        </button>
        <button
          type="button"
          className={`${iconButton} hover:text-red-600`}
          aria-label={`Delete ${file.filename}`}
          title="Delete"
          onClick={() => onDelete(file)}
        >
          <Icon d={ICONS.delete} />
        </button>
      </div>
    </article>
  );
}

export const FileCard = memo(FileCardImpl);
