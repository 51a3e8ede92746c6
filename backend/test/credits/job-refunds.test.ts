// A restoration job charges only for pages the user can download. A job that ends without a file (its
// attempts used up, or its original deleted while it ran) refunds every page, restored ones included, each
// page once; the ledger adds up to the balance after every path.
import { randomUUID } from 'node:crypto';
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FilePurger } from '../../src/files/file-purger.js';
import { FileRepository } from '../../src/files/file-repository.js';
import { contentKey, FILE_OBJECTS_PREFIX } from '../../src/files/storage-keys.js';
import { JobAbortedError } from '../../src/restoration/restoration-runner.js';
import { createTestApp } from '../helpers/app.js';
import { signIn } from '../helpers/auth.js';
import { addOriginal, balanceOf, grantCredits, ledgerOf, tiffPages } from '../restoration/fixtures.js';
import { createRunnerHarness, type RunnerHarness } from '../restoration/runner-harness.js';

let h: RunnerHarness;
let fourPages: Buffer;

beforeAll(async () => {
  h = await createRunnerHarness();
  fourPages = await tiffPages(4);
});

afterAll(async () => {
  await h.close();
});

beforeEach(() => {
  h.events.length = 0;
  h.engine.restoredPages.length = 0;
  h.engine.failPages = new Set();
});

const never = new AbortController().signal;
const STARTING_CREDITS = 10;

async function newUser(): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await h.database.db
    .insertInto('users')
    .values({
      id,
      google_sub: null,
      email: `${id}@example.test`,
      name: 'Refunds',
      given_name: null,
      family_name: null,
      credits_remaining: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await grantCredits(h.database.db, id, STARTING_CREDITS);
  return id;
}

/** A user with a 4-page original whose restoration was started (4 credits charged). */
async function startedJob(): Promise<{ userId: string; fileId: string; jobId: string }> {
  const userId = await newUser();
  const fileId = await addOriginal(h.database.db, h.storage, userId, {
    bytes: fourPages,
    filename: 'letters.tiff',
    mime: 'image/tiff',
    fileType: 'tiff',
    pageCount: 4,
  });
  const { jobId, creditsRemaining } = await h.service.start(userId, fileId);
  expect(creditsRemaining).toBe(STARTING_CREDITS - 4);
  return { userId, fileId, jobId };
}

/** Calls `action` (awaited by the runner) right after the progress event of page `page`. */
function afterProgressOf(page: number, action: () => Promise<void>): () => void {
  const bus = h.eventBus;
  const original = Object.getOwnPropertyDescriptor(bus, 'publish');
  const publish = bus.publish.bind(bus);
  bus.publish = async (userId: string, event: RealtimeEvent) => {
    await publish(userId, event);
    if (event.type === 'restoration.progress' && event.currentPage === page) await action();
  };
  return () => {
    if (original) Object.defineProperty(bus, 'publish', original);
  };
}

/** What FileService.delete does: tombstone, then bytes and row. */
async function deleteOriginal(userId: string, fileId: string): Promise<void> {
  const files = new FileRepository(h.database.db);
  const row = await files.tombstone(userId, fileId, new Date().toISOString());
  if (!row) throw new Error(`file ${fileId} was not live`);
  await new FilePurger(files, h.storage, h.eventBus).purge(row);
}

async function expectEverythingRefunded(userId: string, jobId: string): Promise<void> {
  const ledger = await ledgerOf(h.database.db, userId);
  const refunds = ledger.filter((row) => row.reason === 'refund');
  expect(refunds.map((row) => [row.reference, row.delta]).sort()).toEqual([
    [`refund:${jobId}:1`, 1],
    [`refund:${jobId}:2`, 1],
    [`refund:${jobId}:3`, 1],
    [`refund:${jobId}:4`, 1],
  ]);
  expect(await balanceOf(h.database.db, userId)).toBe(STARTING_CREDITS);
  expect(ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(STARTING_CREDITS);
}

async function restoredFilesOf(jobId: string) {
  return h.database.db
    .withTables<{ files: { job_id: string | null; type: string } }>()
    .selectFrom('files')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('type', '=', 'restored')
    .execute();
}

async function storedObjects(): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of h.storage.list(FILE_OBJECTS_PREFIX)) keys.push(object.key);
  return keys.sort();
}

describe('job refunds', () => {
  it('a job whose attempts run out after restoring pages refunds every page, restored ones included', async () => {
    const { userId, fileId, jobId } = await startedJob();
    h.engine.failPages = new Set([1]); // page 2 fails and is refunded at once
    // The worker is lost once page 3 starts (pages run two at a time, so which of pages 1 and 2 are done by
    // then varies), and the job has no attempt left.
    const lost = new AbortController();
    const restore = afterProgressOf(3, () => Promise.resolve(lost.abort()));
    try {
      await expect(h.runner(1).run(jobId, lost.signal)).rejects.toBeInstanceOf(JobAbortedError);
    } finally {
      restore();
    }
    expect(await balanceOf(h.database.db, userId)).toBeLessThanOrEqual(STARTING_CREDITS - 3);

    await h.runner(1).run(jobId, never);
    const job = await h.jobs.find(h.database.db, jobId);
    expect(job).toMatchObject({ status: 'failed', restored_file_id: null });
    expect(await restoredFilesOf(jobId)).toEqual([]);
    const failed = h.events.map((e) => e.event).find((event) => event.type === 'restoration.failed');
    expect(failed).toMatchObject({ jobId, credits_remaining: STARTING_CREDITS });
    await expectEverythingRefunded(userId, jobId);
    expect((await new FileRepository(h.database.db).findLive(userId, fileId))?.status).toBe('error');

    // Stale queue entries of the finished job change nothing.
    await h.runner(1).run(jobId, never);
    await h.runner(3).run(jobId, never);
    await expectEverythingRefunded(userId, jobId);
  });

  it('deleting the original during its restoration stops the job and refunds every page', async () => {
    const { userId, fileId, jobId } = await startedJob();
    const restore = afterProgressOf(1, () => deleteOriginal(userId, fileId));
    try {
      await h.runner().run(jobId, never);
    } finally {
      restore();
    }
    expect(h.engine.restoredPages).toEqual([0]);
    expect(await h.jobs.find(h.database.db, jobId)).toMatchObject({
      status: 'failed',
      error: 'The original file was deleted.',
    });
    expect(await restoredFilesOf(jobId)).toEqual([]);
    await expectEverythingRefunded(userId, jobId);
  });

  it('deleting the original after its last page, before the file is delivered, refunds every page', async () => {
    const { userId, fileId, jobId } = await startedJob();
    const objectsBefore = await storedObjects();
    const restore = afterProgressOf(4, () => deleteOriginal(userId, fileId));
    try {
      await h.runner().run(jobId, never);
    } finally {
      restore();
    }
    expect(h.engine.restoredPages).toEqual([0, 1, 2, 3]);
    expect(await h.jobs.find(h.database.db, jobId)).toMatchObject({
      status: 'failed',
      error: 'The original file was deleted.',
    });
    expect(h.events.some((e) => e.event.type === 'restoration.completed')).toBe(false);
    expect(await restoredFilesOf(jobId)).toEqual([]);
    // The assembled output was not left in storage (and the original's bytes are gone).
    expect(await storedObjects()).toEqual(objectsBefore.filter((key) => key !== contentKey(fileId)));
    await expectEverythingRefunded(userId, jobId);
  });

  it('deleting the original of a queued job refunds every page when the job runs', async () => {
    const { userId, fileId, jobId } = await startedJob();
    await deleteOriginal(userId, fileId);
    await h.runner().run(jobId, never);
    expect(h.engine.restoredPages).toEqual([]);
    expect((await h.jobs.find(h.database.db, jobId))?.status).toBe('failed');
    await expectEverythingRefunded(userId, jobId);
  });
});

describe('job refunds through the API', () => {
  it('DELETE of the original while its restoration runs stops the job and refunds every page', async () => {
    const testApp = await createTestApp({ env: { SIGNUP_CREDITS: '0' } });
    try {
      const { app } = testApp;
      const db = testApp.database.db;
      const user = await signIn(app, 'deletes-while-restoring@example.test');
      await grantCredits(db, user.userId, STARTING_CREDITS);
      const fileId = await addOriginal(db, testApp.storage, user.userId, {
        bytes: fourPages,
        filename: 'letters.tiff',
        mime: 'image/tiff',
        fileType: 'tiff',
        pageCount: 4,
      });
      const { jobId } = await app.jobs.service.start(user.userId, fileId);
      expect(await balanceOf(db, user.userId)).toBe(STARTING_CREDITS - 4);

      // The user deletes the original once page 2 is reported (the runner waits for the delete).
      const bus = app.eventBus;
      const publish = bus.publish.bind(bus);
      const statuses: number[] = [];
      bus.publish = async (userId: string, event: RealtimeEvent) => {
        await publish(userId, event);
        // Progress comes at each page's start and end: delete once, the first time page 2 is reported.
        if (event.type !== 'restoration.progress' || event.currentPage !== 2 || statuses.length > 0) return;
        const response = await app.inject({
          method: 'DELETE',
          url: `/api/v1/files/file/${fileId}`,
          headers: user.headers,
        });
        statuses.push(response.statusCode);
      };
      await app.jobs.runner.run(jobId, never);

      expect(statuses).toEqual([200]);
      const job = await h.jobs.find(db, jobId);
      expect(job).toMatchObject({
        status: 'failed',
        error: 'The original file was deleted.',
      });
      // The job stopped before its last pages: the pages running when the original went were its last.
      expect(job?.successful_pages).toBeLessThan(4);
      const ledger = await ledgerOf(db, user.userId);
      expect(ledger.filter((row) => row.reason === 'refund')).toHaveLength(4);
      expect(await balanceOf(db, user.userId)).toBe(STARTING_CREDITS);
      expect(ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(STARTING_CREDITS);
    } finally {
      await testApp.close();
    }
  });
});
