import { initialUploadState, uploadReducer, type UploadAction, type UploadState } from './upload-state.js';

type F = { name: string; size: number };
const f = (name: string, size = 100): F => ({ name, size });
const run = (s: UploadState<F>, ...actions: UploadAction<F>[]) =>
  actions.reduce<UploadState<F>>((acc, a) => uploadReducer(acc, a), s);
const start: UploadState<F> = initialUploadState;

describe('uploadReducer', () => {
  it('selects valid files as pending and keeps per-name errors', () => {
    const s = run(start, { type: 'select', files: [f('a.pdf'), f('b.txt')] });
    expect(s.items).toEqual([{ file: f('a.pdf'), status: 'pending', error: null }]);
    expect(s.rejected.map((r) => r.name)).toEqual(['b.txt']);
  });

  it('runs a single upload to completion with progress', () => {
    const s = run(
      start,
      { type: 'select', files: [f('a.pdf')] },
      { type: 'start' },
      { type: 'progress', percent: 40 },
    );
    expect(s.status).toBe('uploading');
    expect(s.progress).toBe(40);
    const done = run(s, { type: 'finished', jobId: 'j1' });
    expect(done).toMatchObject({ status: 'completed', progress: 100, jobId: 'j1', completedCount: 1 });
    // The list clears once everything is uploaded; "Upload Complete!" counts what went up.
    expect(done.items).toEqual([]);
  });

  it('a batch with a rejected file fails with that file error, and the file can be retried', () => {
    const s = run(
      start,
      { type: 'select', files: [f('a.pdf'), f('b.png')] },
      { type: 'start' },
      { type: 'item/failed', name: 'b.png', error: 'Unsupported image' },
      { type: 'finished', batchJobId: 'b1' },
    );
    expect(s.status).toBe('failed');
    expect(s.error).toBe('b.png: Unsupported image');
    expect(s.items.map((i) => i.status)).toEqual(['success', 'failed']);
    const retried = run(s, { type: 'item/retry', name: 'b.png' });
    expect(retried.items[1]).toMatchObject({ status: 'uploading', error: null });
    expect(run(retried, { type: 'item/succeeded', name: 'b.png' }).status).toBe('completed');
  });

  it('a failed request fails every uploading file; Try Again resets all to pending', () => {
    const s = run(
      start,
      { type: 'select', files: [f('a.pdf'), f('b.png')] },
      { type: 'start' },
      { type: 'failed', error: 'Network Error' },
    );
    expect(s).toMatchObject({ status: 'failed', error: 'Network Error' });
    expect(s.items.every((i) => i.status === 'failed' && i.error === 'Network Error')).toBe(true);
    const again = run(s, { type: 'tryAgain' });
    expect(again).toMatchObject({ status: 'idle', error: null, progress: 0 });
    expect(again.items.every((i) => i.status === 'pending' && i.error === null)).toBe(true);
  });

  it('a new pick replaces the selection instead of adding to it', () => {
    const s = run(
      start,
      { type: 'select', files: [f('a.pdf'), f('b.pdf')] },
      { type: 'select', files: [f('c.png')] },
    );
    expect(s.items.map((i) => i.file.name)).toEqual(['c.png']);
  });

  it('selecting files resets the upload state and starts afresh after completion', () => {
    const done = run(start, { type: 'select', files: [f('a.pdf')] }, { type: 'start' }, { type: 'finished' });
    const next = run(done, { type: 'select', files: [f('c.jpg')] });
    expect(next.status).toBe('idle');
    expect(next.items.map((i) => i.file.name)).toEqual(['c.jpg']);
  });

  it('Try Again keeps the files that made it and sets only the others pending', () => {
    const s = run(
      start,
      { type: 'select', files: [f('a.pdf'), f('b.png')] },
      { type: 'start' },
      { type: 'item/failed', name: 'b.png', error: 'Unsupported image' },
      { type: 'finished' },
      { type: 'tryAgain' },
    );
    expect(s.items.map((i) => i.status)).toEqual(['success', 'pending']);
  });

  it('removes and clears', () => {
    const s = run(
      start,
      { type: 'select', files: [f('a.pdf'), f('b.pdf')] },
      { type: 'remove', name: 'a.pdf' },
    );
    expect(s.items.map((i) => i.file.name)).toEqual(['b.pdf']);
    expect(run(s, { type: 'clear' }).items).toEqual([]);
  });
});
