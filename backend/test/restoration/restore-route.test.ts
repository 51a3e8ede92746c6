import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRepository } from '../../src/files/file-repository.js';
import { JobsRepository } from '../../src/jobs/jobs.repository.js';
import type { ObjectStorage } from '../../src/storage/storage.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { addOriginal, balanceOf, grantCredits, ledgerOf, png, pngCrop } from './fixtures.js';

// No worker runs in this app (JOB_CONCURRENCY is only used by main.ts): jobs stay queued, so the
// starting transaction can be observed on its own.
let harness: TestApp;
let app: FastifyInstance;
let storage: ObjectStorage;
let crop: Buffer;
const jobsRepo = new JobsRepository();

beforeAll(async () => {
  harness = await createTestApp({ env: { SIGNUP_CREDITS: '0' } });
  app = harness.app;
  storage = harness.storage;
  crop = await pngCrop();
});

afterAll(async () => {
  await harness.close();
});

function multipart(fields: Record<string, string>): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----folio-test-boundary';
  const body = Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  return {
    payload: Buffer.from(`${body}--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function restore(user: SignedIn, fileId: string, filename = 'scan.png') {
  const { payload, headers } = multipart({ file_id: fileId, filename });
  return app.inject({
    method: 'POST',
    url: '/api/v1/restoration/restore',
    headers: { ...headers, ...user.headers },
    payload,
  });
}

async function newUser(email: string, credits: number): Promise<SignedIn> {
  const user = await signIn(app, email);
  if (credits > 0) await grantCredits(harness.database.db, user.userId, credits);
  return user;
}

describe('POST /api/v1/restoration/restore', () => {
  it('charges the page count once, creates the job and marks the original processing', async () => {
    const db = harness.database.db;
    const user = await newUser('starts@example.test', 10);
    const fileId = await addOriginal(db, storage, user.userId, png(crop, 'letter.tiff', 3));

    const response = await restore(user, fileId, 'letter.tiff');
    expect(response.statusCode).toBe(200);
    const body = response.json<{ data: { job_id: string }; credits_remaining: number }>();
    expect(body.credits_remaining).toBe(7);
    expect(await balanceOf(db, user.userId)).toBe(7);

    const job = await jobsRepo.find(db, body.data.job_id);
    expect(job).toMatchObject({
      status: 'queued',
      user_id: user.userId,
      original_file_id: fileId,
      total_pages: 3,
    });
    const debit = (await ledgerOf(db, user.userId)).filter(
      (row) => row.reference === `restore:${body.data.job_id}`,
    );
    expect(debit).toHaveLength(1);
    expect(debit[0]?.delta).toBe(-3);
    expect((await new FileRepository(db).findLive(user.userId, fileId))?.status).toBe('processing');
  });

  it('accepts the fields as JSON too', async () => {
    const user = await newUser('json@example.test', 1);
    const fileId = await addOriginal(harness.database.db, storage, user.userId, png(crop));
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/restoration/restore',
      headers: user.headers,
      payload: { file_id: fileId, filename: 'scan.png' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ credits_remaining: number }>().credits_remaining).toBe(0);
  });

  it('refuses with 402 and the spec text when credits do not cover the pages, and changes nothing', async () => {
    const db = harness.database.db;
    const user = await newUser('poor@example.test', 2);
    const fileId = await addOriginal(db, storage, user.userId, png(crop, 'three.tiff', 3));
    const ledgerBefore = await ledgerOf(db, user.userId);

    const response = await restore(user, fileId);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({
      detail: 'You need 3 credit(s) but only have 2. Please purchase more credits to continue.',
    });
    expect(await balanceOf(db, user.userId)).toBe(2);
    expect(await ledgerOf(db, user.userId)).toEqual(ledgerBefore);
    expect((await new FileRepository(db).findLive(user.userId, fileId))?.status).toBe('uploaded');
    expect(await jobsRepo.findActiveForFile(db, fileId)).toBeUndefined();
  });

  it('refuses a file being restored (409), a restored file (400), deleted or foreign files (404), no file_id (422)', async () => {
    const db = harness.database.db;
    const user = await newUser('edges@example.test', 20);
    const other = await newUser('other@example.test', 20);
    const fileId = await addOriginal(db, storage, user.userId, png(crop));
    expect((await restore(user, fileId)).statusCode).toBe(200);

    const again = await restore(user, fileId);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ detail: string }>().detail).toMatch(/already being restored/);

    const restoredId = await addOriginal(db, storage, user.userId, {
      ...png(crop),
      type: 'restored',
      status: 'processed',
    });
    const restoredAttempt = await restore(user, restoredId);
    expect(restoredAttempt.statusCode).toBe(400);
    expect(restoredAttempt.json<{ detail: string }>().detail).toMatch(/restored file cannot be restored/);

    const deletedId = await addOriginal(db, storage, user.userId, png(crop));
    await new FileRepository(db).tombstone(user.userId, deletedId, new Date().toISOString());
    expect((await restore(user, deletedId)).statusCode).toBe(404);
    expect((await restore(other, fileId)).statusCode).toBe(404);
    expect((await restore(user, 'no-such-file')).statusCode).toBe(404);

    const missing = await app.inject({
      method: 'POST',
      url: '/api/v1/restoration/restore',
      headers: { ...multipart({ filename: 'x.png' }).headers, ...user.headers },
      payload: multipart({ filename: 'x.png' }).payload,
    });
    expect(missing.statusCode).toBe(422);
    expect(await balanceOf(db, user.userId)).toBe(19);
    expect(await balanceOf(db, other.userId)).toBe(20);
  });

  it('needs a signed-in user', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/restoration/restore',
      payload: { file_id: 'x' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('50 concurrent restores against credits for 10 pages: exactly 10 start, balance 0, ledger consistent', async () => {
    const db = harness.database.db;
    const user = await newUser('rush@example.test', 10);
    const fileIds = await Promise.all(
      Array.from({ length: 50 }, (_, i) => addOriginal(db, storage, user.userId, png(crop, `page-${i}.png`))),
    );
    const responses = await Promise.all(fileIds.map((fileId) => restore(user, fileId)));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(40);
    expect(await balanceOf(db, user.userId)).toBe(0);

    const ledger = await ledgerOf(db, user.userId);
    expect(ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(0);
    expect(ledger.filter((row) => row.reason === 'restoration')).toHaveLength(10);
    expect(ledger.every((row) => row.balance_after >= 0)).toBe(true);
    const started = responses.filter((response) => response.statusCode === 200);
    for (const response of started) {
      const jobId = response.json<{ data: { job_id: string } }>().data.job_id;
      expect((await jobsRepo.find(db, jobId))?.status).toBe('queued');
    }
    const processing = await db
      .selectFrom('files')
      .select('id')
      .where('user_id', '=', user.userId)
      .where('status', '=', 'processing')
      .execute();
    expect(processing).toHaveLength(10);
  });

  it('starts one restoration of a file however many requests race for it', async () => {
    const db = harness.database.db;
    const user = await newUser('double@example.test', 10);
    const fileId = await addOriginal(db, storage, user.userId, png(crop));
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => restore(user, fileId)))).map(
      (r) => r.statusCode,
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(7);
    expect(await balanceOf(db, user.userId)).toBe(9);
  });
});
