// The dashboard (spec §2): upload panel, Original Files and Restored Files, live restoration progress over the
// realtime socket, confirmation and comparison dialogs, and the first-visit onboarding.
import { useCallback, useMemo, useState } from 'react';
import { useAuth } from '../../lib/auth/auth-store.js';
import {
  CompareDialog,
  ConfirmDialog,
  FileFinder,
  FileListCard,
  StartRestorationButton,
  TEXTS,
  UploadPanel,
  isFiltered,
  originalsOf,
  restoredOf,
  useAutoExpand,
  useFilesController,
  useRealtime,
  type ConfirmAnswer,
  type ConfirmRequest,
  type FileItem,
  type FileKind,
} from '../files/index.js';
import { FileViewerDialog } from '../viewer/index.js';
import { OnboardingModal, type OnboardingTarget } from './components/OnboardingModal.js';

type PendingConfirm = ConfirmRequest & { resolve: (answer: ConfirmAnswer) => void };

export function DashboardPage() {
  const token = useAuth((s) => s.token);
  const userName = useAuth((s) => s.user?.name);
  const [pending, setPending] = useState<PendingConfirm | null>(null);
  const confirm = useCallback(
    (request: ConfirmRequest) => new Promise<ConfirmAnswer>((resolve) => setPending({ ...request, resolve })),
    [],
  );
  const files = useFilesController(confirm);
  useRealtime(token, files.handleRealtime);

  const [highlight, setHighlight] = useState<OnboardingTarget | null>(null);
  const [comparingId, setComparingId] = useState<string | null>(null);
  const [viewingId, setViewingId] = useState<string | null>(null);
  const originals = useMemo(() => originalsOf(files.state), [files.state]);
  const restored = useMemo(() => restoredOf(files.state), [files.state]);
  const [originalsOpen, setOriginalsOpen] = useState(true);
  const [restoredOpen, setRestoredOpen] = useAutoExpand(false, restored.length > 0);
  // The live entry, so a preview that becomes ready while the comparison is open shows up.
  const comparing = restored.find((f) => f.id === comparingId);

  const { state, selection, restore, paging } = files;
  const filtered = isFiltered(paging.view);
  const pagingOf = (kind: FileKind) => ({
    total: paging.totals[kind],
    page: paging.pages[kind],
    onPage: (page: number) => paging.setPage(kind, page),
    filtered,
  });
  // Stable handlers: every card is memoised, so a selection change re-renders only the card it touches.
  const restoreOne = useCallback((file: FileItem) => void restore([file]), [restore]);
  const compare = useCallback((file: FileItem) => setComparingId(file.id), []);
  const view = useCallback((file: FileItem) => setViewingId(file.id), []);
  const busy = state.actions.bulkDelete === 'loading' || state.actions.batchDownload === 'loading';
  const restoring = state.actions.restoration === 'loading';

  const settle = (answer: ConfirmAnswer) => {
    pending?.resolve(answer);
    setPending(null);
  };

  const shared = {
    listStatus: state.listStatus,
    listError: state.listError,
    onToggle: selection.toggle,
    onSelectAll: selection.selectAll,
    onClear: selection.clear,
    onDownload: files.downloadOne,
    onDelete: files.deleteOne,
    onDownloadSelected: files.downloadSelected,
    onDeleteSelected: files.deleteSelected,
    onView: view,
    busy,
  };

  return (
    <section aria-labelledby="dashboard-title" className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <div>
        <h1 id="dashboard-title" className="text-2xl font-bold text-slate-900 dark:text-white">
          Dashboard
        </h1>
        {userName ? <p className="mt-1 text-slate-600 dark:text-slate-300">Welcome, {userName}.</p> : null}
      </div>

      <UploadPanel onUploaded={() => void files.reloadFiles()} highlighted={highlight === 'upload'} />

      <FileFinder view={paging.view} onChange={paging.setView} />

      <FileListCard
        {...shared}
        {...pagingOf('original')}
        kind="original"
        title={TEXTS.list.originalTitle}
        files={originals}
        selectedIds={state.selectedOriginalIds}
        expanded={originalsOpen}
        onExpandedChange={setOriginalsOpen}
        onRestore={restoreOne}
        highlighted={highlight === 'originals'}
        actions={
          state.selectedOriginalIds.length > 0 ? (
            <StartRestorationButton loading={restoring} onClick={() => void files.restoreSelected()} />
          ) : null
        }
      />

      <FileListCard
        {...shared}
        {...pagingOf('restored')}
        kind="restored"
        title={TEXTS.list.restoredTitle}
        files={restored}
        selectedIds={state.selectedRestoredIds}
        expanded={restoredOpen}
        onExpandedChange={setRestoredOpen}
        onCompare={compare}
        highlighted={highlight === 'restored'}
      />

      {pending ? (
        <ConfirmDialog
          title={pending.title}
          message={pending.message}
          confirmLabel={pending.confirmLabel}
          variant={pending.variant}
          onConfirm={() => settle(true)}
          onCancel={() => settle(false)}
          alternativeLabel={pending.alternativeLabel}
          onAlternative={() => settle('alternative')}
        />
      ) : null}
      {comparing ? (
        <CompareDialog
          restored={comparing}
          original={originals.find((f) => f.id === comparing.original_file_id)}
          onClose={() => setComparingId(null)}
        />
      ) : null}
      {viewingId ? (
        <FileViewerDialog
          file={[...originals, ...restored].find((f) => f.id === viewingId)}
          onClose={() => setViewingId(null)}
        />
      ) : null}
      <p role="status" aria-live="polite" className="sr-only" data-testid="restoration-announcement">
        {state.announcement}
      </p>
      <OnboardingModal onHighlight={setHighlight} />
    </section>
  );
}
