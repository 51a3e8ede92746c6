// Why a restoration fell short is kept (migration 008): each failed page's reason and the credits the job gave
// back, in the job row, its events, its status and the file list after a reload.
import { randomUUID } from 'node:crypto';
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.js';
import { FileRepository } from '../../src/files/file-repository.js';
import { JobFailuresRepository } from '../../src/jobs/job-failures.repository.js';
import { createTestDatabase } from '../helpers/database.js';
import { addOriginal, grantCredits, tiffPages } from './fixtures.js';
import { createRunnerHarness, type RunnerHarness } from './runner-harness.js';

let h: RunnerHarness;
let twoPages: Buffer;
const never = new AbortController().signal;

beforeAll(async () => {
  h = await createRunnerHarness();
  twoPages = await tiffPages(2);
});

afterAll(async () => {
  await h.close();
});

beforeEach(() => {
  h.events.length = 0;
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
      name: 'Failures',
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

async function startedTwoPageJob(userId: string) {
  const fileId = await addOriginal(h.database.db, h.storage, userId, {
    bytes: twoPages,
    filename: 'letters.tiff',
    mime: 'image/tiff',
    fileType: 'tiff',
    pageCount: 2,
  });
  const { jobId } = await h.service.start(userId, fileId);
  return { fileId, jobId };
}

function eventOf<T extends RealtimeEvent['type']>(type: T): Extract<RealtimeEvent, { type: T }> | undefined {
  return h.events.map((e) => e.event).find((e): e is Extract<RealtimeEvent, { type: T }> => e.type === type);
}

async function listedFailures(userId: string) {
  const rows = await new FileRepository(h.database.db).listLive(userId);
  return new JobFailuresRepository(h.database.db).forFiles(rows);
}

describe('failure reasons', () => {
  it('keep why a page failed and the credit it gave back, for the original and its restored file', async () => {
    const userId = await newUser(5);
    const { fileId, jobId } = await startedTwoPageJob(userId);
    h.engine.failPages = new Set([1]);

    await h.runner().run(jobId, never);

    const expected = {
      job_id: jobId,
      outcome: 'partial',
      reason: 'page 2 failed on purpose',
      failed_pages: 1,
      total_pages: 2,
      credits_refunded: 1,
    };
    const completed = eventOf('restoration.completed');
    expect(completed?.failure).toEqual(expected);
    const status = await h.service.status(userId, jobId);
    expect(status).toMatchObject({
      status: 'completed',
      credits_refunded: 1,
      page_failures: [{ page: 2, reason: 'page 2 failed on purpose' }],
    });
    const failures = await listedFailures(userId);
    expect(failures.get(fileId)).toEqual(expected);
    expect(failures.get(completed?.file.id ?? '')).toEqual(expected);
  });

  it('name the pages’ reason when no page could be restored, refund every page, and clear on a new start', async () => {
    const userId = await newUser(5);
    const { fileId, jobId } = await startedTwoPageJob(userId);
    h.engine.failPages = new Set([0, 1]);

    await h.runner().run(jobId, never);

    const failed = eventOf('restoration.failed');
    expect(failed?.error).toBe('No page could be restored: page 1 failed on purpose');
    const expected = {
      job_id: jobId,
      outcome: 'failed',
      reason: 'No page could be restored: page 1 failed on purpose',
      failed_pages: 2,
      total_pages: 2,
      credits_refunded: 2,
    };
    expect(failed?.failure).toEqual(expected);
    expect((await listedFailures(userId)).get(fileId)).toEqual(expected);
    expect((await h.service.status(userId, jobId)).page_failures).toEqual([
      { page: 1, reason: 'page 1 failed on purpose' },
      { page: 2, reason: 'page 2 failed on purpose' },
    ]);

    // Once the original is restored again, its latest job is the one that counts.
    await h.service.start(userId, fileId);
    expect((await listedFailures(userId)).has(fileId)).toBe(false);
  });

  it('count the refunds of jobs older than the migration from the ledger', async () => {
    const database = await createTestDatabase({ migrate: false });
    try {
      const db = database.db;
      const { '008_job_failures': _latest, ...before } = migrations;
      const migrator = (all: typeof migrations) =>
        new Migrator({
          db,
          provider: { getMigrations: () => Promise.resolve(all) },
          ...(database.pgSchema ? { migrationTableSchema: database.pgSchema } : {}),
        });
      expect((await migrator(before).migrateToLatest()).error).toBeUndefined();
      const now = new Date().toISOString();
      await sql`insert into users (id, email, name, credits_remaining, created_at, updated_at)
        values ('u1', 'u1@example.test', 'U', 3, ${now}, ${now})`.execute(db);
      await sql`insert into jobs (id, user_id, original_file_id, status, total_pages, credits_charged,
        created_at, updated_at) values ('j1', 'u1', 'f1', 'failed', 3, 3, ${now}, ${now}),
        ('j2', 'u1', 'f2', 'completed', 1, 1, ${now}, ${now})`.execute(db);
      await sql`insert into credit_ledger (id, user_id, delta, reason, reference, balance_after, created_at)
        values ('l1', 'u1', 1, 'refund', 'refund:j1:1', 1, ${now}),
               ('l2', 'u1', 1, 'refund', 'refund:j1:3', 2, ${now})`.execute(db);

      expect((await migrator(migrations).migrateToLatest()).error).toBeUndefined();
      const rows = await db.selectFrom('jobs').select(['id', 'credits_refunded']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 'j1', credits_refunded: 2 },
        { id: 'j2', credits_refunded: 0 },
      ]);
    } finally {
      await database.cleanup();
    }
  });
});
