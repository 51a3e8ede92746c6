// A real worker process is SIGKILLed in the middle of a 5-page PDF; another picks the job up from its
// checkpoints and finishes it, charged once. A job whose workers keep dying ends failed, refunded.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buffer } from 'node:stream/consumers';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreditsService } from '../../src/credits/credits.service.js';
import { FileRepository } from '../../src/files/file-repository.js';
import { DatabaseJobQueue } from '../../src/jobs/database-queue.js';
import { JobsRepository } from '../../src/jobs/jobs.repository.js';
import { pageCheckpointKey } from '../../src/restoration/checkpoint.js';
import { RepositoryRestorationFiles } from '../../src/restoration/restoration-files.adapter.js';
import { RestorationService } from '../../src/restoration/restoration.service.js';
import { LocalStorage } from '../../src/storage/local-storage.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { addOriginal, balanceOf, FIVE_PAGE_PDF, grantCredits, ledgerOf } from './fixtures.js';
import { startWorker, waitFor, workerEnv, type WorkerProcess } from './worker-process.js';

let database: TestDatabase;
let storage: LocalStorage;
let service: RestorationService;
let queue: DatabaseJobQueue;
const jobs = new JobsRepository();
const workers: WorkerProcess[] = [];
const pdf = readFileSync(FIVE_PAGE_PDF);

beforeAll(async () => {
  database = await createTestDatabase();
  storage = new LocalStorage(`${database.dataDir}/files`);
  queue = new DatabaseJobQueue(database.db, { leaseMs: 3000, pollMs: 60_000 });
  service = new RestorationService(
    database.db,
    new CreditsService(),
    new RepositoryRestorationFiles(30),
    queue,
  );
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill()));
  await queue.close();
  await database.cleanup();
});

async function startJob(credits: number): Promise<{ userId: string; jobId: string; fileId: string }> {
  const userId = randomUUID();
  const now = new Date().toISOString();
  await database.db
    .insertInto('users')
    .values({
      id: userId,
      google_sub: null,
      email: `${userId}@example.test`,
      name: 'Crash',
      given_name: null,
      family_name: null,
      credits_remaining: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await grantCredits(database.db, userId, credits);
  const fileId = await addOriginal(database.db, storage, userId, {
    bytes: pdf,
    filename: 'degraded.pdf',
    mime: 'application/pdf',
    fileType: 'pdf',
    pageCount: 5,
  });
  const { jobId } = await service.start(userId, fileId);
  return { userId, jobId, fileId };
}

// What is tested is the job's bookkeeping across a crash, not the restoration: the engine runs without its OCR
// (no text layer, no word guard), a real setting (the first test here: 61 -> 27 s).
function spawnWorker(extra: Record<string, string> = {}): WorkerProcess {
  const worker = startWorker(workerEnv(database, { FOLIO_ENGINE_OCR: 'off', ...extra }));
  workers.push(worker);
  return worker;
}

const job = (jobId: string) => jobs.find(database.db, jobId);
const pagesDone = (worker: WorkerProcess) =>
  worker.logs.filter((line) => line.msg === 'page done').map((line) => [line.page, line.fromCheckpoint]);

describe('worker processes killed mid-job', () => {
  it('a new worker resumes the job from its checkpoints and finishes it, charged once', async () => {
    const { userId, jobId, fileId } = await startJob(10);
    expect(await balanceOf(database.db, userId)).toBe(5);

    const first = spawnWorker();
    await waitFor('a first page done by the first worker', async () => {
      const row = await job(jobId);
      return row && row.successful_pages + row.failed_pages >= 1 ? row : undefined;
    });
    await first.kill('SIGKILL');
    // Pages run two at a time, so the pages saved before the kill need not be the first ones.
    const saved: number[] = [];
    for (let page = 1; page <= 5; page += 1)
      if (await storage.exists(pageCheckpointKey(jobId, page - 1))) saved.push(page);
    expect(saved.length).toBeGreaterThanOrEqual(1);
    expect(saved.length).toBeLessThan(5);

    const second = spawnWorker();
    const done = await waitFor('the job to finish', async () => {
      const row = await job(jobId);
      return row && row.status !== 'running' && row.status !== 'queued' ? row : undefined;
    });
    expect(done.status).toBe('completed');
    expect(done.attempts).toBe(2);

    // The second worker took the saved pages from the checkpoints and ran only the others.
    const resumed = pagesDone(second);
    expect(resumed.slice(0, saved.length)).toEqual(saved.map((page) => [page, true]));
    const rest = resumed.slice(saved.length);
    expect(rest.every(([, fromCheckpoint]) => fromCheckpoint === false)).toBe(true);
    expect(rest.map(([page]) => page).sort()).toEqual(
      [1, 2, 3, 4, 5].filter((page) => !saved.includes(page)),
    );

    const ledger = await ledgerOf(database.db, userId);
    const debits = ledger.filter((row) => row.reason === 'restoration');
    expect(debits.map((row) => row.delta)).toEqual([-5]);
    const refunds = ledger.filter((row) => row.reason === 'refund');
    expect(refunds).toHaveLength(done.failed_pages);
    expect(await balanceOf(database.db, userId)).toBe(5 + done.failed_pages);

    const restored = await new FileRepository(database.db).findLive(userId, done.restored_file_id ?? '');
    expect(restored).toMatchObject({
      type: 'restored',
      original_file_id: fileId,
      filename: 'restored_degraded.pdf',
    });
    const output = await PDFDocument.load(await buffer(await storage.get(restored?.storage_key ?? '')));
    expect(output.getPageCount()).toBe(5);
    await second.kill('SIGTERM');
  }, 240_000);

  it('a job whose workers keep dying ends failed, with every page refunded', async () => {
    const { userId, jobId, fileId } = await startJob(10);
    const env = { JOB_MAX_ATTEMPTS: '2' };

    // Each worker dies as soon as it has started the job.
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const worker = spawnWorker(env);
      await waitFor(`attempt ${attempt} to start`, async () => {
        const row = await job(jobId);
        return row && row.attempts === attempt ? row : undefined;
      });
      await worker.kill('SIGKILL');
    }

    const last = spawnWorker(env);
    const done = await waitFor('the job to end', async () => {
      const row = await job(jobId);
      return row && (row.status === 'failed' || row.status === 'completed') ? row : undefined;
    });
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/after 2 attempts/);
    expect(pagesDone(last)).toEqual([]);

    const ledger = await ledgerOf(database.db, userId);
    const refunds = ledger.filter((row) => row.reason === 'refund');
    // No file was delivered, so pages restored before the crashes are refunded too.
    expect(refunds).toHaveLength(5);
    expect(new Set(refunds.map((row) => row.reference)).size).toBe(refunds.length);
    expect(await balanceOf(database.db, userId)).toBe(10);
    expect(ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(10);
    expect((await new FileRepository(database.db).findLive(userId, fileId))?.status).toBe('error');
    await last.kill('SIGTERM');
  }, 120_000);
});
