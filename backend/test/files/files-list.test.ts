// GET /files/all with paging, search, filters and sorts, on the real database of the run (SQLite file or
// PostgreSQL schema). Rows are written through the repository so hundreds of files take no uploads.
import type { FileDto } from '../../src/files/file.schemas.js';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRepository, type FileRow } from '../../src/files/file-repository.js';
import { contentKey } from '../../src/files/storage-keys.js';
import type { SignedIn } from '../helpers/auth.js';
import { listFiles, startFilesApp, type FilesHarness } from './files-harness.js';

const DAY_MS = 86_400_000;
const NOW = Date.now();

let h: FilesHarness;
let alice: SignedIn;
let bob: SignedIn;
let rows: FileRow[];

function row(userId: string, i: number, overrides: Partial<FileRow> = {}): FileRow {
  const id = randomUUID();
  const filename = overrides.filename ?? `scan-${String(i).padStart(3, '0')}.${i % 4 === 0 ? 'png' : 'pdf'}`;
  return {
    id,
    user_id: userId,
    type: 'original',
    filename,
    original_filename: filename,
    file_type: filename.split('.').pop() ?? 'pdf',
    mime: 'application/pdf',
    size_bytes: 1000 + ((i * 7919) % 500) * 10,
    page_count: 1 + (i % 5),
    status: i % 10 === 0 ? 'error' : 'uploaded',
    storage_key: contentKey(id),
    preview_key: null,
    preview_status: 'none',
    original_file_id: null,
    job_id: null,
    expires_at: new Date(NOW + (1 + (i % 7)) * DAY_MS).toISOString(),
    deleted_at: null,
    created_at: new Date(NOW - (1000 - i) * 60_000).toISOString(),
    updated_at: new Date(NOW - (1000 - i) * 60_000).toISOString(),
    ...overrides,
  };
}

interface Page {
  files: FileDto[];
  total?: number;
}

async function list(who: SignedIn, query: string): Promise<{ status: number; body: Page }> {
  const response = await h.test.app.inject({
    method: 'GET',
    url: `/api/v1/files/all?${query}`,
    headers: who.headers,
  });
  return { status: response.statusCode, body: response.json<Page>() };
}

async function page(who: SignedIn, query: string): Promise<Page> {
  const answer = await list(who, query);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

beforeAll(async () => {
  h = await startFilesApp();
  alice = await h.signIn('alice-list@example.test');
  bob = await h.signIn('bob-list@example.test');
  const repo = new FileRepository(h.test.database.db);
  rows = [];
  for (let i = 0; i < 120; i++) rows.push(row(alice.userId, i));
  rows.push(row(alice.userId, 200, { filename: '100%_done.pdf' }));
  rows.push(row(alice.userId, 201, { filename: 'Invoice MARCH.pdf' }));
  // Two restored versions of the first original, one of the second (deleted: it does not count).
  const [first, second] = rows as [FileRow, FileRow];
  rows.push(row(alice.userId, 300, { type: 'restored', status: 'processed', original_file_id: first.id }));
  rows.push(row(alice.userId, 301, { type: 'restored', status: 'processed', original_file_id: first.id }));
  rows.push(
    row(alice.userId, 302, {
      type: 'restored',
      status: 'processed',
      original_file_id: second.id,
      deleted_at: new Date().toISOString(),
    }),
  );
  rows.push(row(bob.userId, 5, { filename: 'scan-005-bob.pdf' }));
  for (const r of rows) await repo.insert(r);
});

afterAll(async () => {
  await h?.close();
});

const live = (userId: string) => rows.filter((r) => r.user_id === userId && r.deleted_at === null);

describe('GET /files/all', () => {
  it('without parameters answers the whole list in the spec shape, newest first, with no total', async () => {
    const answer = await page(alice, '');
    expect(Object.keys(answer)).toEqual(['files']);
    expect(answer.files).toHaveLength(live(alice.userId).length);
    const times = answer.files.map((f) => f.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect((await listFiles(h, alice)).length).toBe(answer.files.length);
  });

  it('pages with limit and offset, total counting every match, pages not overlapping', async () => {
    const seen = new Set<string>();
    let total = 0;
    for (let offset = 0; offset < 200; offset += 50) {
      const answer = await page(alice, `type=original&limit=50&offset=${offset}`);
      total = answer.total ?? -1;
      for (const f of answer.files) seen.add(f.id);
      expect(answer.files.every((f) => f.type === 'original')).toBe(true);
    }
    const originals = live(alice.userId).filter((r) => r.type === 'original');
    expect(total).toBe(originals.length);
    expect([...seen].sort()).toEqual(originals.map((r) => r.id).sort());
    const last = await page(alice, `type=original&limit=50&offset=100`);
    expect(last.files).toHaveLength(originals.length - 100);
  });

  it('searches names in any case; % and _ are plain characters', async () => {
    expect((await page(alice, 'limit=10&q=invoice%20march')).files.map((f) => f.filename)).toEqual([
      'Invoice MARCH.pdf',
    ]);
    expect((await page(alice, 'limit=10&q=100%25_')).files.map((f) => f.filename)).toEqual(['100%_done.pdf']);
    expect((await page(alice, 'limit=10&q=_')).files.map((f) => f.filename)).toEqual(['100%_done.pdf']);
    const scan11 = await page(alice, 'limit=50&q=SCAN-11');
    expect(scan11.total).toBe(10);
    expect(scan11.files.every((f) => f.filename.startsWith('scan-11'))).toBe(true);
  });

  it("never shows another user's files, whatever the search", async () => {
    const answer = await page(alice, 'limit=50&q=bob');
    expect(answer).toEqual({ files: [], total: 0 });
    const bobs = await page(bob, 'limit=50');
    expect(bobs.files.map((f) => f.filename)).toEqual(['scan-005-bob.pdf']);
  });

  it('filters by status and by format', async () => {
    const errors = await page(alice, 'status=error&limit=200');
    expect(errors.total).toBe(13);
    expect(errors.files.every((f) => f.status === 'error')).toBe(true);
    const images = await page(alice, 'format=image&type=original&limit=200');
    expect(images.total).toBe(30);
    expect(images.files.every((f) => f.file_type === 'png')).toBe(true);
    const pdfs = await page(alice, 'format=pdf&type=original&limit=200');
    expect((pdfs.total ?? 0) + (images.total ?? 0)).toBe(122);
  });

  it('sorts by name, size, days left and date, both ways, ties broken the same on every page', async () => {
    const byName = (await page(alice, 'type=original&sort=name&limit=200')).files.map((f) => f.filename);
    expect(byName).toEqual([...byName].sort());
    const bySizeDesc = (await page(alice, 'type=original&sort=size&order=desc&limit=200')).files;
    const sizes = bySizeDesc.map((f) => f.size_bytes);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    const byDaysLeft = (await page(alice, 'type=original&sort=days_left&limit=200')).files;
    const days = byDaysLeft.map((f) => f.days_remaining ?? -1);
    expect(days).toEqual([...days].sort((a, b) => a - b));
    const oldest = (await page(alice, 'type=original&sort=created&order=asc&limit=1')).files[0];
    expect(oldest?.filename).toBe('scan-000.png');
    // Paging a sort with many ties (sizes repeat) still visits every file once.
    const paged: string[] = [];
    for (let offset = 0; offset < 122; offset += 25) {
      const answer = await page(alice, `type=original&sort=days_left&limit=25&offset=${offset}`);
      paged.push(...answer.files.map((f) => f.id));
    }
    expect(new Set(paged).size).toBe(122);
  });

  it('marks originals that already have a live restored version', async () => {
    const [first, second, third] = rows as [FileRow, FileRow, FileRow];
    const files = (await page(alice, 'type=original&limit=200')).files;
    const marks = new Map(files.map((f) => [f.id, f.has_restored]));
    expect(marks.get(first.id)).toBe(true);
    expect(marks.get(second.id)).toBe(false);
    expect(marks.get(third.id)).toBe(false);
    const restored = (await page(alice, 'type=restored&limit=10')).files;
    expect(restored).toHaveLength(2);
    expect(restored.every((f) => f.has_restored === undefined)).toBe(true);
    expect((await page(alice, '')).files.find((f) => f.id === first.id)?.has_restored).toBe(true);
  });

  it('the whole list, kept serialised, follows every change made behind the API (other processes)', async () => {
    const carol = await h.signIn('carol-list@example.test');
    const repo = new FileRepository(h.test.database.db);
    const raw = async () =>
      (await h.test.app.inject({ method: 'GET', url: '/api/v1/files/all', headers: carol.headers })).body;
    const original = row(carol.userId, 1);
    await repo.insert(original);
    const first = await raw();
    expect(JSON.parse(first)).toEqual({ files: [expect.objectContaining({ id: original.id })] });
    expect(await raw()).toBe(first); // the same bytes again
    // A restored version written by a worker: a new file, and has_restored on the original.
    const restored = row(carol.userId, 2, {
      type: 'restored',
      status: 'processed',
      original_file_id: original.id,
    });
    await repo.insert(restored);
    const withRestored = JSON.parse(await raw()) as Page;
    expect(withRestored.files.map((f) => f.id)).toEqual([restored.id, original.id]);
    expect(withRestored.files[1]!.has_restored).toBe(true);
    // A preview finished elsewhere, then a deletion (tombstone) by the retention sweep.
    await repo.setPreview(
      original.id,
      'ready',
      `objects/${original.id}/preview.webp`,
      new Date().toISOString(),
    );
    expect((JSON.parse(await raw()) as Page).files[1]!.preview_available).toBe(true);
    await repo.tombstone(carol.userId, restored.id, new Date().toISOString());
    const after = JSON.parse(await raw()) as Page;
    expect(after.files.map((f) => f.id)).toEqual([original.id]);
    expect(after.files[0]!.has_restored).toBe(false);
  });

  it('refuses bad parameters with 422 and a reason', async () => {
    for (const query of ['limit=0', 'limit=201', 'offset=-1', 'sort=owner', 'status=lost', 'format=gif']) {
      const answer = await list(alice, query);
      expect(answer.status, query).toBe(422);
      expect(JSON.stringify(answer.body)).toMatch(/detail/);
    }
  });
});
