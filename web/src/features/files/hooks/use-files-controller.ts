// The dashboard's file controller: the pure reducer for client state, TanStack Query for the server list and
// the balance, and the actions of spec §4/§5 (restore with credit check, delete, download) wired to the API.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { ApiError } from '../../../api/errors.js';
import { useAuth } from '../../../lib/auth/auth-store.js';
import { useMe } from '../../../lib/auth/use-me.js';
import { queryKeys, setCreditsRemaining } from '../../../lib/query-client.js';
import { WINDOW_EVENTS, emit } from '../../../lib/window-events.js';
import { selectionCostStore } from '../../../stores/selection-cost.js';
import {
  deleteFile,
  downloadFile,
  downloadZip,
  listFilesPage,
  saveBlob,
  startRestoration,
} from '../api/files-api.js';
import {
  filesReducer,
  initialFilesState,
  realtimeWarning,
  selectedCostOf,
  selectedIdsOf,
  type FilesState,
  type RestorationResult,
} from '../logic/file-state.js';
import { zipName } from '../logic/format.js';
import { initialListView, listQuery, type ListView } from '../logic/list-view.js';
import { fileCost, type FileItem, type FileKind } from '../logic/model.js';
import { parseRealtimeMessage } from '../logic/realtime.js';
import {
  TEXTS,
  alreadyRestoredText,
  insufficientCreditsText,
  leaveOutLabel,
  restoreConfirmText,
} from '../logic/texts.js';

export interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel?: string;
  variant?: 'default' | 'danger';
  /** A third choice beside Cancel and confirm; the answer is then 'alternative'. */
  alternativeLabel?: string;
}

export type ConfirmAnswer = boolean | 'alternative';
export type Confirm = (request: ConfirmRequest) => Promise<ConfirmAnswer>;

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function useFilesController(confirm: Confirm) {
  const [state, dispatch] = useReducer(filesReducer, initialFilesState);
  const stateRef = useRef<FilesState>(state);
  stateRef.current = state;
  const queryClient = useQueryClient();
  const me = useMe();
  const balance = me.data?.credits_remaining ?? 0;

  // Dashboard load: the file list and the user data, once per user. The list key carries the user so one
  // user's cached list never shows for another.
  const userId = useAuth((s) => s.user?.id ?? null);
  useEffect(() => {
    if (userId) void queryClient.invalidateQueries({ queryKey: queryKeys.me });
  }, [userId, queryClient]);
  // Server lists → reducer: one page per section, searched, filtered and sorted by the server. Realtime events
  // and actions change the reducer state in between. The previous page stays shown while the next one loads.
  const [view, setViewState] = useState<ListView>(initialListView);
  const [pages, setPages] = useState<Record<FileKind, number>>({ original: 0, restored: 0 });
  const setView = useCallback((next: ListView) => {
    setViewState(next);
    setPages({ original: 0, restored: 0 });
  }, []);
  const setPage = useCallback(
    (kind: FileKind, page: number) => setPages((p) => ({ ...p, [kind]: page })),
    [],
  );
  const pageQuery = (kind: FileKind) => {
    const query = listQuery(kind, view, pages[kind]);
    return {
      queryKey: [...queryKeys.files, userId, query],
      queryFn: () => listFilesPage(query),
      enabled: userId !== null,
      refetchOnMount: 'always' as const,
      placeholderData: keepPreviousData,
    };
  };
  const originalsPage = useQuery(pageQuery('original'));
  const restoredPage = useQuery(pageQuery('restored'));
  const pending = originalsPage.isPending || restoredPage.isPending;
  const fetching = originalsPage.fetchStatus === 'fetching' || restoredPage.fetchStatus === 'fetching';
  useEffect(() => {
    if (pending && fetching) dispatch({ type: 'list/loading' });
  }, [pending, fetching]);
  useEffect(() => {
    if (originalsPage.data && restoredPage.data) {
      dispatch({ type: 'list/loaded', files: [...originalsPage.data.files, ...restoredPage.data.files] });
    }
  }, [originalsPage.data, restoredPage.data]);
  const listError = originalsPage.error ?? restoredPage.error;
  useEffect(() => {
    if (listError) dispatch({ type: 'list/failed', error: errorMessage(listError) });
  }, [listError]);
  const paging = {
    view,
    setView,
    pages,
    setPage,
    totals: {
      original: originalsPage.data?.total ?? 0,
      restored: restoredPage.data?.total ?? 0,
    } as Record<FileKind, number>,
  };

  // The reducer learns balances from events and restoration answers; the header reads them from the me query.
  useEffect(() => {
    if (state.credits !== null) setCreditsRemaining(state.credits);
  }, [state.credits]);

  const selectedCost = selectedCostOf(state);
  useEffect(() => {
    selectionCostStore.setState(state.selectedOriginalIds.length > 0 ? selectedCost : null);
  }, [selectedCost, state.selectedOriginalIds.length]);
  useEffect(() => () => selectionCostStore.setState(null), []);

  const reloadFiles = useCallback(
    () => queryClient.invalidateQueries({ queryKey: queryKeys.files }),
    [queryClient],
  );

  const handleRealtime = useCallback((raw: unknown) => {
    const event = parseRealtimeMessage(raw, (msg, data) => console.error(msg, data));
    if (!event) return;
    const warning = realtimeWarning(stateRef.current, event);
    if (warning) console.warn(warning);
    dispatch({ type: 'realtime', event, at: new Date().toISOString() });
  }, []);

  /**
   * Spec §5 credit check, then confirmation, then one start call per file in parallel. When some of the files
   * already have a restored version, the dialog says how many and offers to leave them out.
   */
  const restore = useCallback(
    async (chosen: FileItem[]) => {
      if (chosen.length === 0) return;
      const credits =
        queryClient.getQueryData<{ credits_remaining?: number }>(queryKeys.me)?.credits_remaining ?? 0;
      const costOf = (list: FileItem[]) => list.reduce((sum, f) => sum + fileCost(f), 0);
      const fresh = chosen.filter((f) => !f.has_restored);
      const already = chosen.length - fresh.length;
      const cost = costOf(chosen);
      if (cost > credits && (fresh.length === 0 || costOf(fresh) > credits)) {
        emit(WINDOW_EVENTS.creditsInsufficient, { message: insufficientCreditsText(cost, credits) });
        return;
      }
      const offerLeaveOut = already > 0 && fresh.length > 0;
      const answer = await confirm({
        title: TEXTS.dialog.startRestoration,
        message:
          already > 0
            ? `${restoreConfirmText(chosen.length, cost)} ${alreadyRestoredText(already, chosen.length)}`
            : restoreConfirmText(chosen.length, cost),
        confirmLabel: already > 0 ? 'Restore all again' : TEXTS.dialog.ok,
        ...(offerLeaveOut ? { alternativeLabel: leaveOutLabel(fresh.length, costOf(fresh)) } : {}),
      });
      if (!answer) return;
      const files = answer === 'alternative' ? fresh : chosen;
      if (costOf(files) > credits) {
        emit(WINDOW_EVENTS.creditsInsufficient, { message: insufficientCreditsText(costOf(files), credits) });
        return;
      }
      dispatch({ type: 'action/status', key: 'restoration', status: 'loading' });
      const settled = await Promise.allSettled(files.map((f) => startRestoration(f.id, f.filename)));
      const results: RestorationResult[] = settled.map((outcome, i) => {
        const file = files[i] as FileItem;
        if (outcome.status === 'fulfilled') {
          const credits = outcome.value.credits_remaining;
          return {
            fileId: file.id,
            filename: file.filename,
            ok: true,
            jobId: outcome.value.data.job_id,
            creditsRemaining: typeof credits === 'number' ? credits : null,
          };
        }
        console.error('Restoration failed to start', file.filename, outcome.reason);
        if (outcome.reason instanceof ApiError && outcome.reason.status === 402) {
          emit(WINDOW_EVENTS.creditsInsufficient, { message: outcome.reason.message });
        }
        return { fileId: file.id, filename: file.filename, ok: false, error: errorMessage(outcome.reason) };
      });
      dispatch({ type: 'restoration/started', results });
    },
    [confirm, queryClient],
  );

  const restoreSelected = useCallback(() => {
    const s = stateRef.current;
    return restore(s.files.filter((f) => f.type === 'original' && s.selectedOriginalIds.includes(f.id)));
  }, [restore]);

  const deleteOne = useCallback(
    async (file: FileItem) => {
      const restored = file.type === 'restored';
      const ok = await confirm({
        title: restored ? TEXTS.dialog.deleteRestored : TEXTS.dialog.deleteFile,
        message: `"${file.filename}" will be deleted. ${TEXTS.dialog.cannotBeUndone}`,
        variant: 'danger',
      });
      if (!ok) return;
      dispatch({ type: 'action/status', key: 'delete', status: 'loading' });
      try {
        await deleteFile(file.id);
        dispatch({ type: 'delete/succeeded', id: file.id });
      } catch (error) {
        console.error('Delete failed', file.filename, error);
        dispatch({ type: 'action/status', key: 'delete', status: 'error' });
      }
    },
    [confirm],
  );

  const deleteSelected = useCallback(
    async (kind: FileKind) => {
      const ids = selectedIdsOf(stateRef.current, kind);
      if (ids.length === 0) return;
      const ok = await confirm({
        title: kind === 'original' ? TEXTS.dialog.deleteSelected : TEXTS.dialog.deleteSelectedRestored,
        message: `${ids.length} ${ids.length === 1 ? 'file' : 'files'} will be deleted. ${TEXTS.dialog.cannotBeUndone}`,
        variant: 'danger',
      });
      if (!ok) return;
      dispatch({ type: 'action/status', key: 'bulkDelete', status: 'loading' });
      const settled = await Promise.allSettled(ids.map((id) => deleteFile(id)));
      const deleted = ids.filter((_, i) => settled[i]?.status === 'fulfilled');
      settled.forEach((s) => {
        if (s.status === 'rejected') console.error('Delete failed', s.reason);
      });
      if (deleted.length === ids.length) dispatch({ type: 'bulkDelete/succeeded', kind, ids });
      else {
        for (const id of deleted) dispatch({ type: 'delete/succeeded', id });
        dispatch({ type: 'action/status', key: 'bulkDelete', status: 'error' });
      }
    },
    [confirm],
  );

  const downloadOne = useCallback(async (file: FileItem) => {
    dispatch({ type: 'action/status', key: 'download', status: 'loading' });
    try {
      saveBlob(await downloadFile(file.id, file.filename), file.filename);
      dispatch({ type: 'action/status', key: 'download', status: 'success' });
    } catch (error) {
      console.error('Download failed', file.filename, error);
      dispatch({ type: 'action/status', key: 'download', status: 'error' });
    }
  }, []);

  const downloadSelected = useCallback(async (kind: FileKind) => {
    const ids = selectedIdsOf(stateRef.current, kind);
    if (ids.length === 0) {
      console.error(TEXTS.errors.noFilesSelected);
      return;
    }
    dispatch({ type: 'action/status', key: 'batchDownload', status: 'loading' });
    try {
      saveBlob(await downloadZip(ids), zipName(ids.length));
      dispatch({ type: 'batchDownload/succeeded' });
    } catch (error) {
      console.error('Batch download failed', error);
      dispatch({ type: 'action/status', key: 'batchDownload', status: 'error' });
    }
  }, []);

  const selection = useMemo(
    () => ({
      toggle: (kind: FileKind, id: string) => dispatch({ type: 'select/toggle', kind, id }),
      selectAll: (kind: FileKind) => dispatch({ type: 'select/all', kind }),
      clear: (kind: FileKind) => dispatch({ type: 'select/clear', kind }),
    }),
    [],
  );

  return {
    state,
    paging,
    balance,
    selectedCost,
    selection,
    reloadFiles,
    handleRealtime,
    restore,
    restoreSelected,
    deleteOne,
    deleteSelected,
    downloadOne,
    downloadSelected,
  };
}

export type FilesController = ReturnType<typeof useFilesController>;
