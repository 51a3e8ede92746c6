// Original Files / Restored Files card (spec §2): collapsible, count badge, select-all toggle, bulk actions and
// the windowed grid of file cards (FileGrid).
import { useId, useMemo, useState, type ReactNode } from 'react';
import { focusRing, primaryButton, secondaryButton } from '../../../components/ui/styles.js';
import type { AsyncStatus } from '../logic/file-state.js';
import { isPlaceholder, type FileItem, type FileKind } from '../logic/model.js';
import { TEXTS, countBadge, selectAllLabel } from '../logic/texts.js';
import type { FileCardProps } from './FileCard.js';
import { FileGrid } from './FileGrid.js';
import { HIGHLIGHT_CLASS } from './highlight.js';
import { Pager } from './Pager.js';

export interface FileListCardProps extends Omit<FileCardProps, 'file' | 'selected'> {
  kind: FileKind;
  title: string;
  files: FileItem[];
  selectedIds: readonly string[];
  listStatus: AsyncStatus;
  listError: string | null;
  expanded: boolean;
  onExpandedChange: (expanded: boolean) => void;
  onSelectAll: (kind: FileKind) => void;
  onClear: (kind: FileKind) => void;
  onDownloadSelected: (kind: FileKind) => void;
  onDeleteSelected: (kind: FileKind) => void;
  /** Extra toolbar content (the Start AI Restoration button on originals). */
  actions?: ReactNode;
  highlighted?: boolean;
  busy?: boolean;
  /** Paging: every file of the section that matches the search (the grid shows one page of them). */
  total?: number;
  page?: number;
  onPage?: (page: number) => void;
  /** A search or filter is on: the empty text says nothing matched. */
  filtered?: boolean;
}

export function FileListCard(props: FileListCardProps) {
  const { kind, title, files, selectedIds, listStatus, listError, expanded, onExpandedChange, actions } =
    props;
  const bodyId = useId();
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const selectable = files.filter((f) => !isPlaceholder(f));
  const count = selectable.length;
  const total = props.total ?? count;
  const selectedCount = selectable.filter((f) => selected.has(f.id)).length;
  const allSelected = count > 0 && selectedCount === count;

  let body: ReactNode;
  if (listStatus === 'loading' && files.length === 0) {
    body = <p className="py-8 text-center text-sm text-slate-500">{TEXTS.list.loading}</p>;
  } else if (listStatus === 'error' && files.length === 0) {
    body = (
      <p
        role="alert"
        className="flex items-center justify-center gap-2 py-8 text-sm text-red-600 dark:text-red-400"
      >
        <svg
          viewBox="0 0 24 24"
          aria-hidden="true"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
        >
          <circle cx="12" cy="12" r="9" />
          <path d="M12 7v6m0 4h.01" strokeLinecap="round" />
        </svg>
        {listError}
      </p>
    );
  } else if (files.length === 0 && props.filtered) {
    body = <p className="py-8 text-center text-sm text-slate-500">No files match your search.</p>;
  } else if (files.length === 0) {
    body =
      kind === 'restored' ? (
        <div className="py-8 text-center">
          <p className="font-medium text-slate-700 dark:text-slate-200">{TEXTS.list.restoredEmpty}</p>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{TEXTS.list.restoredEmptyHint}</p>
        </div>
      ) : (
        <p className="py-8 text-center text-sm text-slate-500">{TEXTS.list.empty}</p>
      );
  } else {
    body = (
      <FileGrid
        kind={kind}
        title={title}
        files={files}
        selected={selected}
        onToggle={props.onToggle}
        onRestore={props.onRestore}
        onDownload={props.onDownload}
        onDelete={props.onDelete}
        onCompare={props.onCompare}
        onView={props.onView}
      />
    );
  }

  return (
    <section
      aria-labelledby={`${bodyId}-title`}
      data-testid={`${kind}-files`}
      className={`rounded-2xl border bg-white transition dark:bg-slate-900 ${
        props.highlighted ? HIGHLIGHT_CLASS : 'border-slate-200 shadow-sm dark:border-slate-800'
      }`}
    >
      <h2 className="m-0">
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={bodyId}
          onClick={() => onExpandedChange(!expanded)}
          className={`flex w-full items-center justify-between gap-3 rounded-2xl px-5 py-4 text-left ${focusRing}`}
        >
          <span>
            <span className="flex items-center gap-2">
              <span id={`${bodyId}-title`} className="text-lg font-semibold text-slate-900 dark:text-white">
                {title}
              </span>
              <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
                {countBadge(total)}
              </span>
            </span>
            <span className="mt-0.5 block text-sm text-slate-500 dark:text-slate-400">
              {expanded ? TEXTS.list.subtitle : TEXTS.list.collapsedHint}
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
      </h2>
      <div id={bodyId} hidden={!expanded} className="px-5 pb-5">
        {count > 0 ? (
          <div
            className="mb-4 flex flex-wrap items-center gap-2"
            role="toolbar"
            aria-label={`${title} actions`}
          >
            <button
              type="button"
              className={secondaryButton}
              aria-pressed={allSelected}
              onClick={() => (allSelected ? props.onClear(kind) : props.onSelectAll(kind))}
            >
              {selectAllLabel(selectedCount, count)}
            </button>
            {selectedCount > 0 ? (
              <>
                <button
                  type="button"
                  className={secondaryButton}
                  disabled={props.busy}
                  onClick={() => props.onDownloadSelected(kind)}
                >
                  {TEXTS.list.downloadSelected}
                </button>
                <button
                  type="button"
                  className={`${secondaryButton} text-red-700 dark:text-red-400`}
                  disabled={props.busy}
                  onClick={() => props.onDeleteSelected(kind)}
                >
                  {TEXTS.list.deleteSelected}
                </button>
              </>
            ) : null}
            {actions}
          </div>
        ) : null}
        {body}
        {props.onPage && files.length > 0 ? (
          <Pager
            label={title}
            page={props.page ?? 0}
            shown={selectable.length}
            total={total}
            onPage={props.onPage}
          />
        ) : null}
      </div>
    </section>
  );
}

export function StartRestorationButton({ loading, onClick }: { loading: boolean; onClick: () => void }) {
  return (
    <button type="button" className={`${primaryButton} sm:ml-auto`} disabled={loading} onClick={onClick}>
      {loading ? TEXTS.upload.processing : TEXTS.upload.startRestoration}
    </button>
  );
}

/** Expanded-state helper: the Restored Files card opens by itself the first time a restored file exists. */
export function useAutoExpand(initial: boolean, hasItems: boolean): [boolean, (v: boolean) => void] {
  const [expanded, setExpanded] = useState(initial);
  const [opened, setOpened] = useState(initial);
  if (hasItems && !opened) {
    setOpened(true);
    setExpanded(true);
  }
  return [expanded, setExpanded];
}
