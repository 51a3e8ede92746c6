// Hostile uploads (the engine's generated PDF bombs, a 50-megapixel image) against the real API: refused at
// upload with a clear 4xx, nothing stored, the server still answering. And previews: a bomb stored before the
// bounds existed fails cleanly, and a preview whose render never finished is not tried again (quarantine).
import { EngineInputError, MAX_PAGE_PIXELS } from '@folio/engine';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as bombs from '../../../engine/test/fixtures/pdf-bombs.js';
import { FileReader } from '../../src/files/file-reader.js';
import { FileRepository, type FileRow } from '../../src/files/file-repository.js';
import { MAX_PREVIEW_ATTEMPTS, PreviewQueue } from '../../src/files/preview-queue.js';
import { contentKey } from '../../src/files/storage-keys.js';
import { InProcessEventBus } from '../../src/realtime/event-bus.js';
import { evalFile } from '../fixtures/bad-files.js';
import type { SignedIn } from '../helpers/auth.js';
import { listFiles, startFilesApp, storedKeys, upload, type FilesHarness } from './files-harness.js';

let h: FilesHarness;
let dora: SignedIn;

beforeAll(async () => {
  // A short check time limit, so the bomb that only the thread limits stop is refused quickly.
  h = await startFilesApp({ FILE_CHECK_TIMEOUT_SECONDS: '5' });
  dora = await h.signIn('dora@example.test');
});

afterAll(async () => {
  await h.close();
});

/** Peak resident memory of this process (the server; checks and previews run in reader children) so far, in MB. */
function peakRssMb(): number {
  const kb = /VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return Number(kb) / 1024;
}

async function expectHealthy(): Promise<void> {
  const response = await fetch(`${h.base}/api/v1/health`);
  expect(response.status).toBe(200);
  expect(peakRssMb()).toBeLessThan(2048);
}

describe('PDF bombs at upload', () => {
  const cases: [string, () => Buffer][] = [
    ['one 20000 × 20000 Flate image', () => bombs.hugeImagePdf()],
    ['Form XObjects nested 8 deep, each drawn 10 times', () => bombs.nestedFormsPdf()],
    ['10 MB of line operators in one Flate stream', () => bombs.lineOperatorsPdf()],
    // pdf-lib cannot read its streams, so only pdfjs's limits and the thread's time and heap limits stop it.
    ['the nested forms, encrypted with an empty password', () => bombs.encryptedNestedFormsPdf()],
    ['the line operators, encrypted with an empty password', () => bombs.encryptedLineOperatorsPdf()],
  ];

  for (const [name, make] of cases) {
    it(`refuses ${name} with 400 and a clear detail, storing nothing`, async () => {
      const before = await storedKeys(h);
      const response = await upload(h, dora, { name: 'bomb.pdf', bytes: make() });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        detail: 'This PDF is too complex to process: a page draws too many or too large images or shapes.',
      });
      expect(await storedKeys(h)).toEqual(before);
      expect(await listFiles(h, dora)).toEqual([]);
      await expectHealthy();
    }, 120_000);
  }
});

describe('one page-size limit, the engine’s', () => {
  it('refuses a 50-megapixel image at upload, which the engine could not decode', async () => {
    expect(MAX_PAGE_PIXELS).toBe(40_000_000);
    const png = await sharp({
      create: { width: 10_000, height: 5_000, channels: 3, background: { r: 240, g: 240, b: 230 } },
    })
      .png()
      .toBuffer();
    const before = await storedKeys(h);
    const response = await upload(h, dora, { name: 'poster.png', bytes: png });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      detail: 'The image is too large (10000 × 5000 pixels); the maximum is 40 megapixels.',
    });
    expect(await storedKeys(h)).toEqual(before);
  });
});

describe('preview attempts and quarantine', () => {
  let files: FileRepository;
  let queue: PreviewQueue;
  let clock: Date;
  // The product's own time limit (FILE_CHECK_TIMEOUT_SECONDS): an ordinary preview takes 3 to 8 s here, by the
  // machine's load, so a tighter one would fail it for speed; the bombs below fail on their checks and memory.
  const reader = new FileReader({ memoryMb: 1536, timeoutMs: 60_000 });

  beforeAll(() => {
    files = new FileRepository(h.test.app.db);
    clock = new Date();
    const silent = { warn: () => undefined, error: () => undefined };
    queue = new PreviewQueue({
      files,
      storage: h.storage,
      bus: new InProcessEventBus(),
      now: () => clock,
      log: silent,
      reader,
      timeoutMs: 5_000,
    });
  });

  afterAll(async () => {
    await queue.stop();
    reader.close();
  });

  /** A pending original stored as an older server would have kept it, without the upload check. */
  async function storedPending(bytes: Buffer): Promise<string> {
    const id = randomUUID();
    const at = clock.toISOString();
    const row: FileRow = {
      id,
      user_id: dora.userId,
      type: 'original',
      filename: 'old.pdf',
      original_filename: 'old.pdf',
      file_type: 'pdf',
      mime: 'application/pdf',
      size_bytes: bytes.length,
      page_count: 1,
      status: 'uploaded',
      storage_key: contentKey(id),
      preview_key: null,
      preview_status: 'pending',
      original_file_id: null,
      job_id: null,
      expires_at: new Date(clock.getTime() + 7 * 86_400_000).toISOString(),
      deleted_at: null,
      created_at: at,
      updated_at: at,
    };
    await h.storage.put(row.storage_key, bytes);
    await files.insert(row);
    return id;
  }

  async function previewStatus(id: string): Promise<string | undefined> {
    return (await files.findLiveById(id))?.preview_status;
  }

  /** The app's own queue may pick the row up first; either way the status settles. */
  async function settledStatus(id: string): Promise<string | undefined> {
    for (let waited = 0; waited < 50_000; waited += 200) {
      await queue.idle();
      const status = await previewStatus(id);
      if (status !== 'pending') return status;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return previewStatus(id);
  }

  async function attempts(id: string): Promise<number | undefined> {
    const { rows } = await sql<{ attempts: number }>`
      select attempts from preview_attempts where file_id = ${id}`.execute(h.test.app.db);
    return rows[0] === undefined ? undefined : Number(rows[0].attempts);
  }

  it('a stored bomb gets a clean failed preview, counted as one attempt', async () => {
    const id = await storedPending(bombs.hugeImagePdf());
    queue.enqueue(id);
    expect(await settledStatus(id)).toBe('failed');
    expect(await attempts(id)).toBe(1);
    expect((await storedKeys(h)).filter((key) => key.startsWith(`objects/${id}/preview`))).toEqual([]);
    await expectHealthy();
  }, 60_000);

  it('a file the page checks let through is stopped at the reader’s memory ceiling', async () => {
    // 100 × 100 in its dictionary, 20000 × 20000 inside behind 128 KB of padding; pdfjs would fill about 3.6 GB.
    const ceiling = new FileReader({ memoryMb: 1024, timeoutMs: 120_000 });
    try {
      const error = await ceiling.thumbnail(bombs.hiddenFrameJpegPdf(), 560).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineInputError);
      expect((error as EngineInputError).code).toBe('too_complex');
      expect(ceiling.peakMb).toBeGreaterThan(900);
      expect(ceiling.peakMb).toBeLessThan(2048);
    } finally {
      ceiling.close();
    }
    await expectHealthy();
  }, 180_000);

  it('a stored hidden-frame JPEG gets a clean failed preview, counted as one attempt', async () => {
    const id = await storedPending(bombs.hiddenFrameJpegPdf());
    queue.enqueue(id);
    expect(await settledStatus(id)).toBe('failed');
    expect(await attempts(id)).toBe(1);
    await expectHealthy();
  }, 120_000);

  it('counts the attempt before rendering, so a render that never finished is not started again', async () => {
    const id = await storedPending(evalFile('pdf_003/degraded.pdf'));
    // What a process that went down while rendering leaves behind: the attempt, and the preview still pending.
    expect(await files.startPreviewAttempt(id, MAX_PREVIEW_ATTEMPTS, clock.toISOString())).toBe(true);
    await queue.resume();
    await queue.idle();
    expect(await previewStatus(id)).toBe('pending'); // maybe still running elsewhere: left alone
    expect(await attempts(id)).toBe(1);

    // Once the attempt is stale, the file is quarantined: marked failed and never rendered.
    clock = new Date(clock.getTime() + 11 * 60_000);
    await queue.resume();
    await queue.idle();
    expect(await previewStatus(id)).toBe('failed');
    expect((await storedKeys(h)).filter((key) => key.startsWith(`objects/${id}/preview`))).toEqual([]);
  }, 60_000);

  it('an ordinary pending preview is still rendered after a restart', async () => {
    const id = await storedPending(evalFile('pdf_003/degraded.pdf'));
    await queue.resume();
    expect(await settledStatus(id)).toBe('ready');
    expect(await attempts(id)).toBe(1);
  }, 60_000);
});
