import { buffer } from 'node:stream/consumers';
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FileRepository } from '../../src/files/file-repository.js';
import { pageCheckpointKey } from '../../src/restoration/checkpoint.js';
import { JobAbortedError, type RestorationRunner } from '../../src/restoration/restoration-runner.js';
import { addOriginal, balanceOf, grantCredits, ledgerOf, png, pngCrop, tiffPages } from './fixtures.js';
import { createRunnerHarness, type RunnerHarness } from './runner-harness.js';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as bombs from '../../../engine/test/fixtures/pdf-bombs.js';

let h: RunnerHarness;
let crop: Buffer;
let twoPages: Buffer;

beforeAll(async () => {
  h = await createRunnerHarness();
  crop = await pngCrop();
  twoPages = await tiffPages(2);
});

afterAll(async () => {
  await h.close();
});

beforeEach(() => {
  h.events.length = 0;
  h.engine.restoredPages.length = 0;
  h.engine.failPages = new Set();
});

async function newUser(credits: number): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await h.database.db
    .insertInto('users')
    .values({
      id,
      google_sub: null,
      email: `${id}@example.test`,
      name: 'Runner',
      given_name: null,
      family_name: null,
      credits_remaining: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await grantCredits(h.database.db, id, credits);
  return id;
}

const tiff = (bytes: Buffer, pageCount: number) => ({
  bytes,
  filename: 'letters.tiff',
  mime: 'image/tiff',
  fileType: 'tiff',
  pageCount,
});

function eventsOf<T extends RealtimeEvent['type']>(type: T): Extract<RealtimeEvent, { type: T }>[] {
  return h.events
    .map((e) => e.event)
    .filter((e): e is Extract<RealtimeEvent, { type: T }> => e.type === type);
}

const never = new AbortController().signal;

/** Pages (0-based) whose outcome is checkpointed in storage under the job. */
async function checkpointedPages(jobId: string, pageCount: number): Promise<number[]> {
  const pages: number[] = [];
  for (let index = 0; index < pageCount; index += 1)
    if (await h.storage.exists(pageCheckpointKey(jobId, index))) pages.push(index);
  return pages;
}

/** Runs the job and takes it away from the runner as soon as its first page is reported done. */
async function runUntilFirstPageDone(
  userId: string,
  jobId: string,
  runner: RestorationRunner,
): Promise<void> {
  const lost = new AbortController();
  const unsubscribe = h.eventBus.subscribe(userId, (event) => {
    if (event.type === 'restoration.progress' && event.successfulPages + event.failedPages > 0) lost.abort();
  });
  try {
    await runner.run(jobId, lost.signal);
  } finally {
    unsubscribe();
  }
}

describe('RestorationRunner', () => {
  it('restores a page, publishes progress at its start and end then completed, and creates the restored file', async () => {
    const db = h.database.db;
    const userId = await newUser(5);
    const fileId = await addOriginal(db, h.storage, userId, png(crop, 'scan.png'));
    const { jobId } = await h.service.start(userId, fileId);

    await h.runner().run(jobId, never);

    expect(h.events.every((e) => e.userId === userId)).toBe(true);
    const progress = {
      type: 'restoration.progress',
      original_file_id: fileId,
      fileId,
      jobId,
      currentPage: 1,
      totalPages: 1,
      credits_remaining: 4,
    };
    expect(eventsOf('restoration.progress')).toEqual([
      { ...progress, successfulPages: 0, failedPages: 0 },
      { ...progress, successfulPages: 1, failedPages: 0 },
    ]);
    const [completed] = eventsOf('restoration.completed');
    expect(completed).toMatchObject({
      original_file_id: fileId,
      jobId,
      totalPages: 1,
      successfulPages: 1,
      failedPages: 0,
      credits_remaining: 4,
    });
    expect(completed?.file).toMatchObject({
      type: 'restored',
      filename: 'restored_scan.png',
      original_filename: 'scan.png',
      original_file_id: fileId,
      job_id: jobId,
      status: 'processed',
      days_remaining: 30,
      file_type: 'png',
    });
    expect(h.events.map((e) => e.event.type)).toEqual([
      'restoration.progress',
      'restoration.progress',
      'restoration.completed',
    ]);

    const files = new FileRepository(db);
    const restored = await files.findLive(userId, completed?.file.id ?? '');
    const bytes = await buffer(await h.storage.get(restored?.storage_key ?? ''));
    expect((await sharp(bytes).metadata()).format).toBe('png');
    expect(restored?.size_bytes).toBe(bytes.length);
    expect((await files.findLive(userId, fileId))?.status).toBe('processed');
    expect((await h.jobs.find(db, jobId))?.status).toBe('completed');
    expect(await balanceOf(db, userId)).toBe(4);
    expect(await h.storage.exists(pageCheckpointKey(jobId, 0))).toBe(false);
  });

  it('refunds a failed page once and keeps the original page in the output', async () => {
    const db = h.database.db;
    const userId = await newUser(5);
    const fileId = await addOriginal(db, h.storage, userId, tiff(twoPages, 2));
    const { jobId } = await h.service.start(userId, fileId);
    h.engine.failPages = new Set([1]);

    await h.runner().run(jobId, never);

    // Both pages start at once (two engine threads); page 2 fails at once and is refunded, page 1 ends later.
    const progress = eventsOf('restoration.progress');
    expect(
      progress.map((p) => [p.currentPage, p.successfulPages, p.failedPages, p.credits_remaining]),
    ).toEqual([
      [1, 0, 0, 3],
      [2, 0, 0, 3],
      [2, 0, 1, 4],
      [2, 1, 1, 4],
    ]);
    const [completed] = eventsOf('restoration.completed');
    expect(completed).toMatchObject({ successfulPages: 1, failedPages: 1, credits_remaining: 4 });
    const refunds = (await ledgerOf(db, userId)).filter((row) => row.reason === 'refund');
    expect(refunds.map((row) => [row.reference, row.delta])).toEqual([[`refund:${jobId}:2`, 1]]);
    const restored = await new FileRepository(db).findLive(userId, completed?.file.id ?? '');
    const output = await buffer(await h.storage.get(restored?.storage_key ?? ''));
    expect((await sharp(output, { pages: -1 }).metadata()).pages).toBe(2);
  });

  it('ends failed with every page refunded when no page can be restored', async () => {
    const db = h.database.db;
    const userId = await newUser(3);
    const fileId = await addOriginal(db, h.storage, userId, tiff(twoPages, 2));
    const { jobId } = await h.service.start(userId, fileId);
    h.engine.failPages = new Set([0, 1]);

    await h.runner().run(jobId, never);

    expect(eventsOf('restoration.completed')).toEqual([]);
    const [failed] = eventsOf('restoration.failed');
    expect(failed).toMatchObject({ jobId, original_file_id: fileId, fileId, credits_remaining: 3 });
    expect(await balanceOf(db, userId)).toBe(3);
    const ledger = await ledgerOf(db, userId);
    expect(ledger.filter((row) => row.reason === 'refund')).toHaveLength(2);
    expect(ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(3);
    expect((await new FileRepository(db).findLive(userId, fileId))?.status).toBe('error');
    expect((await h.jobs.find(db, jobId))?.status).toBe('failed');
  });

  it('a page stopped at the reader’s memory ceiling fails and is refunded, the process staying small', async () => {
    const db = h.database.db;
    const userId = await newUser(3);
    const bytes = bombs.hiddenFrameJpegPdf(); // its frame header hidden from the page checks; pdfjs would fill about 3.6 GB
    const spec = { bytes, filename: 'lying.pdf', fileType: 'pdf', mime: 'application/pdf', pageCount: 1 };
    const fileId = await addOriginal(db, h.storage, userId, spec);
    const { jobId } = await h.service.start(userId, fileId);

    await h.runner().run(jobId, never);

    expect(eventsOf('restoration.failed')).toHaveLength(1);
    expect(await balanceOf(db, userId)).toBe(3);
    expect((await ledgerOf(db, userId)).filter((row) => row.reason === 'refund')).toHaveLength(1);
    expect((await h.jobs.find(db, jobId))?.status).toBe('failed');
    const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
    expect(peakKb / 1024).toBeLessThan(2048);
  }, 180_000);

  it('resumes an interrupted job without redoing finished pages or charging again', async () => {
    const db = h.database.db;
    const userId = await newUser(4);
    const fileId = await addOriginal(db, h.storage, userId, tiff(twoPages, 2));
    const { jobId } = await h.service.start(userId, fileId);

    // First run: both pages start; the worker loses the job right after the first one is checkpointed.
    await expect(runUntilFirstPageDone(userId, jobId, h.runner())).rejects.toBeInstanceOf(JobAbortedError);
    expect(h.engine.restoredPages).toEqual([0, 1]);
    expect((await h.jobs.find(db, jobId))?.status).toBe('running');
    const saved = await checkpointedPages(jobId, 2);
    expect(saved.length).toBeGreaterThanOrEqual(1);

    h.engine.restoredPages.length = 0;
    await h.runner().run(jobId, never);
    expect(h.engine.restoredPages).toEqual([0, 1].filter((index) => !saved.includes(index)));
    expect(eventsOf('restoration.completed')).toHaveLength(1);
    const ledger = await ledgerOf(db, userId);
    expect(ledger.filter((row) => row.reason === 'restoration').map((row) => row.delta)).toEqual([-2]);
    expect(ledger.filter((row) => row.reason === 'refund')).toEqual([]);
    expect(await balanceOf(db, userId)).toBe(2);
    expect((await h.jobs.find(db, jobId))?.attempts).toBe(2);
  });

  it('hands a job back, not delivered, when it is taken away as its last page ends', async () => {
    // A page stops only between its steps, so pages can still end after the abort (CI once saw the job delivered).
    const db = h.database.db;
    const userId = await newUser(2);
    const fileId = await addOriginal(db, h.storage, userId, tiff(twoPages, 2));
    const { jobId } = await h.service.start(userId, fileId);
    const lost = new AbortController();
    const unsubscribe = h.eventBus.subscribe(userId, (event) => {
      if (event.type === 'restoration.progress' && event.successfulPages + event.failedPages === 2)
        lost.abort();
    });
    try {
      await expect(h.runner().run(jobId, lost.signal)).rejects.toBeInstanceOf(JobAbortedError);
    } finally {
      unsubscribe();
    }
    expect(eventsOf('restoration.completed')).toEqual([]);
    expect((await h.jobs.find(db, jobId))?.status).toBe('running');
    expect(await checkpointedPages(jobId, 2)).toEqual([0, 1]);
  });

  it('ends a job that used up its attempts failed, refunding every page (no file was delivered)', async () => {
    const db = h.database.db;
    const userId = await newUser(2);
    const fileId = await addOriginal(db, h.storage, userId, tiff(twoPages, 2));
    const { jobId } = await h.service.start(userId, fileId);
    await expect(runUntilFirstPageDone(userId, jobId, h.runner(1))).rejects.toBeInstanceOf(JobAbortedError);
    const saved = await checkpointedPages(jobId, 2);
    expect(saved.length).toBeGreaterThanOrEqual(1);

    h.engine.restoredPages.length = 0;
    await h.runner(1).run(jobId, never);
    expect(h.engine.restoredPages).toEqual([]);
    const [failed] = eventsOf('restoration.failed');
    expect(failed?.error).toMatch(/after 1 attempts/);
    expect(failed?.credits_remaining).toBe(2);
    const refunds = (await ledgerOf(db, userId)).filter((row) => row.reason === 'refund');
    expect(refunds.map((row) => row.reference).sort()).toEqual([`refund:${jobId}:1`, `refund:${jobId}:2`]);

    // Running it again (a stale queue entry) changes nothing.
    await h.runner(1).run(jobId, never);
    expect(await balanceOf(db, userId)).toBe(2);
    expect(eventsOf('restoration.failed')).toHaveLength(1);
  });
});
