import type { RealtimeEvent } from '../../../api/types.js';
import { dto } from './fixtures.test-util.js';
import {
  filesReducer,
  initialFilesState,
  originalsOf,
  realtimeWarning,
  restoredOf,
  selectedCostOf,
  type FilesAction,
  type FilesState,
} from './file-state.js';
import { fromDto } from './model.js';

const AT = '2026-11-22T05:00:00.000Z';
const run = (s: FilesState, ...actions: FilesAction[]) => actions.reduce(filesReducer, s);
const rt = (event: RealtimeEvent): FilesAction => ({ type: 'realtime', event, at: AT });

const loaded = run(initialFilesState, {
  type: 'list/loaded',
  files: [
    fromDto(dto({ id: 'o1', filename: 'letter.pdf', credit_cost: 3 })),
    fromDto(dto({ id: 'o2', filename: 'photo.png', credit_cost: null, page_count: null })),
    fromDto(dto({ id: 'r1', type: 'restored', original_file_id: 'o1', original_filename: 'letter.pdf' })),
  ],
});

const progress = (over: Partial<RealtimeEvent & { type: 'restoration.progress' }> = {}): RealtimeEvent => ({
  type: 'restoration.progress',
  original_file_id: 'o1',
  fileId: 'o1',
  jobId: 'j1',
  currentPage: 1,
  totalPages: 3,
  successfulPages: 1,
  failedPages: 0,
  credits_remaining: 7,
  ...over,
});

/** o1's job j1 completed: restored file r2, all 3 pages done unless `over` says otherwise. */
const completed = (over: Partial<RealtimeEvent & { type: 'restoration.completed' }> = {}): RealtimeEvent => ({
  type: 'restoration.completed',
  original_file_id: 'o1',
  fileId: 'o1',
  jobId: 'j1',
  file: dto({ id: 'r2', type: 'restored', status: 'processed', original_file_id: 'o1' }),
  totalPages: 3,
  successfulPages: 3,
  failedPages: 0,
  credits_remaining: 4,
  ...over,
});

describe('file list and selection', () => {
  it('splits originals and restored and maps size_bytes', () => {
    expect(originalsOf(loaded).map((f) => f.id)).toEqual(['o1', 'o2']);
    expect(restoredOf(loaded).map((f) => f.id)).toEqual(['r1']);
    expect(loaded.files[0]?.file_size).toBe(2048);
  });

  it('keeps separate selections and toggles per file', () => {
    const s = run(
      loaded,
      { type: 'select/toggle', kind: 'original', id: 'o1' },
      { type: 'select/toggle', kind: 'restored', id: 'r1' },
      { type: 'select/toggle', kind: 'original', id: 'o2' },
      { type: 'select/toggle', kind: 'original', id: 'o1' },
    );
    expect(s.selectedOriginalIds).toEqual(['o2']);
    expect(s.selectedRestoredIds).toEqual(['r1']);
  });

  it('selects all and clears one kind only', () => {
    const all = run(
      loaded,
      { type: 'select/all', kind: 'original' },
      { type: 'select/all', kind: 'restored' },
    );
    expect(all.selectedOriginalIds).toEqual(['o1', 'o2']);
    const cleared = run(all, { type: 'select/clear', kind: 'original' });
    expect(cleared.selectedOriginalIds).toEqual([]);
    expect(cleared.selectedRestoredIds).toEqual(['r1']);
  });

  it('costs credit_cost, else page count, else one page', () => {
    const s = run(loaded, { type: 'select/all', kind: 'original' });
    expect(selectedCostOf(s)).toBe(4);
  });

  it('never selects progress placeholders', () => {
    const s = run(loaded, rt(progress()), { type: 'select/all', kind: 'restored' });
    expect(s.selectedRestoredIds).toEqual(['r1']);
    expect(
      run(s, { type: 'select/toggle', kind: 'restored', id: 'progress-o1' }).selectedRestoredIds,
    ).toEqual(['r1']);
  });

  it('records a failed list load', () => {
    const s = run(initialFilesState, { type: 'list/loading' }, { type: 'list/failed', error: 'boom' });
    expect(s.listStatus).toBe('error');
    expect(s.listError).toBe('boom');
  });
});

describe('after-action rules', () => {
  it('a successful batch download clears both selections', () => {
    const s = run(
      loaded,
      { type: 'select/all', kind: 'original' },
      { type: 'select/all', kind: 'restored' },
      { type: 'batchDownload/succeeded' },
    );
    expect(s.selectedOriginalIds).toEqual([]);
    expect(s.selectedRestoredIds).toEqual([]);
    expect(s.actions.batchDownload).toBe('success');
  });

  it('a successful bulk delete removes the files and clears that selection', () => {
    const s = run(
      loaded,
      { type: 'select/all', kind: 'original' },
      { type: 'select/all', kind: 'restored' },
      { type: 'bulkDelete/succeeded', kind: 'original', ids: ['o1', 'o2'] },
    );
    expect(originalsOf(s)).toEqual([]);
    expect(s.selectedOriginalIds).toEqual([]);
    expect(s.selectedRestoredIds).toEqual(['r1']);
  });

  it('a single delete removes the file from the list and the selection', () => {
    const s = run(loaded, { type: 'select/all', kind: 'original' }, { type: 'delete/succeeded', id: 'o2' });
    expect(originalsOf(s).map((f) => f.id)).toEqual(['o1']);
    expect(s.selectedOriginalIds).toEqual(['o1']);
  });

  it('starting restoration clears the selection, marks failures as error and keeps jobs processing', () => {
    const s = run(
      loaded,
      { type: 'select/all', kind: 'original' },
      {
        type: 'restoration/started',
        results: [
          { fileId: 'o1', filename: 'letter.pdf', ok: true, jobId: 'j1', creditsRemaining: 9 },
          { fileId: 'o2', filename: 'photo.png', ok: false, error: 'Payment required' },
        ],
      },
    );
    expect(s.selectedOriginalIds).toEqual([]);
    expect(s.files.find((f) => f.id === 'o2')?.status).toBe('error');
    expect(s.files.find((f) => f.id === 'o2')?.failure).toBe(
      'Restoration could not start: Payment required. No credits were used.',
    );
    expect(s.files.find((f) => f.id === 'o1')?.status).toBe('processing');
    expect(s.files.find((f) => f.id === 'o1')?.failure).toBeUndefined();
    expect(s.announcement).toBe('1 restoration could not start.');
    expect(s.jobs).toEqual([
      {
        fileId: 'o1',
        filename: 'letter.pdf',
        jobId: 'j1',
        status: 'processing',
        error: null,
        creditsRemaining: 9,
      },
      {
        fileId: 'o2',
        filename: 'photo.png',
        jobId: null,
        status: 'error',
        error: 'Payment required',
        creditsRemaining: null,
      },
    ]);
    expect(s.credits).toBe(9);
    expect(s.actions.restoration).toBe('error');
  });

  it('keeps announcing a page that started before the start was answered', () => {
    const started = {
      type: 'restoration/started' as const,
      results: [
        { fileId: 'o1', filename: 'letter.pdf', ok: true as const, jobId: 'j1', creditsRemaining: 7 },
      ],
    };
    expect(run(loaded, started).announcement).toBe('1 restoration started.');
    const s = run(loaded, rt(progress()), started);
    expect(s.announcement).toBe('Restoring letter.pdf: page 1 of 3.');
    expect(s.files.find((f) => f.id === 'o1')?.status).toBe('processing');
  });

  it('takes the lowest balance of parallel starts', () => {
    const s = run(loaded, {
      type: 'restoration/started',
      results: [
        { fileId: 'o1', filename: 'a', ok: true, jobId: 'j1', creditsRemaining: 5 },
        { fileId: 'o2', filename: 'b', ok: true, jobId: 'j2', creditsRemaining: 2 },
      ],
    });
    expect(s.credits).toBe(2);
    expect(s.actions.restoration).toBe('success');
  });
});

describe('realtime events', () => {
  it('file.upload.completed adds an original at the top, once', () => {
    const event: RealtimeEvent = {
      type: 'file.upload.completed',
      file: dto({ id: 'o3', filename: 'new.jpg' }),
    };
    const s = run(loaded, rt(event), rt(event));
    expect(originalsOf(s).map((f) => f.id)).toEqual(['o3', 'o1', 'o2']);
  });

  it('restoration.progress inserts then updates the placeholder and credits', () => {
    const first = run(loaded, rt(progress()));
    const placeholder = first.files[0];
    expect(placeholder).toMatchObject({
      id: 'progress-o1',
      type: 'restored',
      status: 'processing',
      filename: 'Processing page 1/3: letter.pdf',
      file_size: 0,
      original_file_id: 'o1',
      progress: { currentPage: 1, totalPages: 3, successfulPages: 1, failedPages: 0 },
    });
    expect(first.credits).toBe(7);
    const second = run(first, rt(progress({ currentPage: 2, successfulPages: 2, credits_remaining: 7 })));
    expect(restoredOf(second).filter((f) => f.id === 'progress-o1')).toHaveLength(1);
    expect(second.files[0]?.filename).toBe('Processing page 2/3: letter.pdf');
  });

  it('restoration.progress for an unknown original changes nothing but credits and warns', () => {
    const event = progress({ original_file_id: 'ghost', credits_remaining: 3 });
    const s = run(loaded, rt(event));
    expect(s.files).toEqual(loaded.files);
    expect(s.credits).toBe(3);
    expect(realtimeWarning(loaded, event)).toBe('Restoration progress for unknown original file ghost');
    expect(realtimeWarning(loaded, progress())).toBeNull();
  });

  it('restoration.completed removes the placeholder and adds the restored file at the top', () => {
    const s = run(loaded, rt(progress()), rt(completed()));
    expect(restoredOf(s).map((f) => f.id)).toEqual(['r2', 'r1']);
    expect(s.credits).toBe(4);
    expect(s.files.find((f) => f.id === 'o1')?.status).toBe('processed');
  });

  it('restoration.failed removes the placeholder and updates credits', () => {
    const s = run(
      loaded,
      rt(progress()),
      rt({
        type: 'restoration.failed',
        original_file_id: 'o1',
        fileId: 'o1',
        jobId: 'j1',
        error: 'x',
        credits_remaining: 10,
        failure: {
          job_id: 'j1',
          outcome: 'failed',
          reason: 'x',
          failed_pages: 3,
          total_pages: 3,
          credits_refunded: 3,
        },
      }),
    );
    expect(restoredOf(s).map((f) => f.id)).toEqual(['r1']);
    expect(s.credits).toBe(10);
    expect(s.files.find((f) => f.id === 'o1')?.status).toBe('error');
  });

  it('restoration.failed gives the reason and the credits the server returned', () => {
    const failed = (refunded: number) =>
      rt({
        type: 'restoration.failed',
        original_file_id: 'o1',
        fileId: 'o1',
        jobId: 'j1',
        error: 'No page could be restored: Page 1 took longer than 1000 ms.',
        credits_remaining: 10,
        failure: {
          job_id: 'j1',
          outcome: 'failed',
          reason: 'No page could be restored: Page 1 took longer than 1000 ms.',
          failed_pages: 3,
          total_pages: 3,
          credits_refunded: refunded,
        },
      });
    const refunded = run(loaded, rt(progress()), failed(3));
    const o1 = refunded.files.find((f) => f.id === 'o1');
    const text =
      'Restoration failed: No page could be restored: Page 1 took longer than 1000 ms. 3 credits were returned.';
    expect(o1?.failure).toBe(text);
    expect(refunded.announcement).toBe(`${o1?.filename}: ${text}`);
    expect(run(loaded, failed(0)).files.find((f) => f.id === 'o1')?.failure).toBe(
      'Restoration failed: No page could be restored: Page 1 took longer than 1000 ms.',
    );
  });

  it('restoration.completed with failed pages says which share failed, why, and the credit returned', () => {
    const failure = {
      job_id: 'j1',
      outcome: 'partial' as const,
      reason: 'Page 2 took longer than 1000 ms.',
      failed_pages: 1,
      total_pages: 3,
      credits_refunded: 1,
    };
    const s = run(
      loaded,
      rt(completed({ successfulPages: 2, failedPages: 1, credits_remaining: 5, failure })),
    );
    const text =
      '1 of 3 pages could not be restored: Page 2 took longer than 1000 ms. 1 credit was returned.';
    expect(s.files.find((f) => f.id === 'o1')?.failure).toBe(text);
    expect(s.files.find((f) => f.id === 'r2')?.failure).toBe(text);
  });

  it('keeps a failure the server lists, so it is still there after a reload', () => {
    const item = fromDto({
      ...dto({ id: 'o9', type: 'original', status: 'error' }),
      restoration_failure: {
        job_id: 'j9',
        outcome: 'failed',
        reason: 'No page could be restored: Page 1 took longer than 1000 ms.',
        failed_pages: 1,
        total_pages: 1,
        credits_refunded: 1,
      },
    });
    expect(item.failure).toBe(
      'Restoration failed: No page could be restored: Page 1 took longer than 1000 ms. 1 credit was returned.',
    );
  });

  it('file.deleted removes the file and its selection', () => {
    const s = run(
      loaded,
      { type: 'select/all', kind: 'restored' },
      { type: 'select/toggle', kind: 'original', id: 'o1' },
      rt({ type: 'file.deleted', fileId: 'r1' }),
      rt({ type: 'file.deleted', fileId: 'o1' }),
    );
    expect(s.files.map((f) => f.id)).toEqual(['o2']);
    expect(s.selectedRestoredIds).toEqual([]);
    expect(s.selectedOriginalIds).toEqual([]);
  });

  it('file.preview.ready updates the file in place', () => {
    const s = run(
      loaded,
      rt({ type: 'file.preview.ready', fileId: 'o2', file: dto({ id: 'o2', preview_available: true }) }),
    );
    expect(s.files.map((f) => f.id)).toEqual(['o1', 'o2', 'r1']);
    expect(s.files[1]?.preview_available).toBe(true);
  });

  it('credits.updated sets the balance; a non-numeric balance is ignored', () => {
    expect(run(loaded, rt({ type: 'credits.updated', credits_remaining: 12 })).credits).toBe(12);
    const bad = { type: 'credits.updated', credits_remaining: 'many' } as unknown as RealtimeEvent;
    expect(run(loaded, rt(bad)).credits).toBeNull();
  });

  it('a refused start keeps its reason on the card through a preview event and a list reload', () => {
    const refused = run(loaded, {
      type: 'restoration/started',
      results: [
        { fileId: 'o1', filename: 'letter.pdf', ok: false, error: 'This file is already being restored' },
      ],
    });
    const reason = 'Restoration could not start: This file is already being restored. No credits were used.';
    const afterPreview = run(
      refused,
      rt({ type: 'file.preview.ready', fileId: 'o1', file: dto({ id: 'o1', preview_available: true }) }),
    );
    expect(afterPreview.files.find((f) => f.id === 'o1')).toMatchObject({
      preview_available: true,
      failure: reason,
    });
    const afterReload = run(afterPreview, { type: 'list/loaded', files: loaded.files });
    expect(afterReload.files.find((f) => f.id === 'o1')?.failure).toBe(reason);
    // A restoration that completes clears it.
    const done = run(afterReload, rt(completed({ credits_remaining: 7 })));
    expect(done.files.find((f) => f.id === 'o1')?.failure).toBeUndefined();
  });

  it('a list reload keeps live placeholders', () => {
    const s = run(loaded, rt(progress()), { type: 'list/loaded', files: loaded.files });
    expect(s.files.map((f) => f.id)).toEqual(['progress-o1', 'o1', 'o2', 'r1']);
  });
});
