import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FilePurger } from '../../src/files/file-purger.js';
import { FileReader } from '../../src/files/file-reader.js';
import { FileRepository, type FileRow } from '../../src/files/file-repository.js';
import { FileService } from '../../src/files/file-service.js';
import { PreviewQueue } from '../../src/files/preview-queue.js';
import { contentKey } from '../../src/files/storage-keys.js';
import { JobFailuresRepository } from '../../src/jobs/job-failures.repository.js';
import { InProcessEventBus } from '../../src/realtime/event-bus.js';
import { RetentionService } from '../../src/retention/retention-service.js';
import { startRetentionSweeper } from '../../src/retention/retention-sweeper.js';
import { LocalStorage } from '../../src/storage/local-storage.js';
import { evalFile } from '../fixtures/bad-files.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signIn } from '../helpers/auth.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const silent = { warn: () => undefined, error: () => undefined };

// A real app (real database and disk storage); the clock is the only thing the test moves.
let test: TestApp;
let storage: LocalStorage;
let files: FileRepository;
let bus: InProcessEventBus;
let clock: number;
const now = () => new Date(clock);
let service: FileService;
let reader: FileReader;
let retention: RetentionService;
let userId: string;
const events: RealtimeEvent[] = [];

function newRetention(): RetentionService {
  return new RetentionService({
    files,
    storage,
    purger: new FilePurger(files, storage, bus),
    now,
    orphanMinAgeMs: HOUR,
  });
}

beforeAll(async () => {
  test = await createTestApp({ env: { ORIGINAL_RETENTION_DAYS: '7', RESTORED_RETENTION_DAYS: '30' } });
  storage = new LocalStorage(path.join(test.settings.dataDir, 'retention-files'));
  files = new FileRepository(test.app.db);
  bus = new InProcessEventBus();
  userId = (await signIn(test.app, 'retention@example.test')).userId;
  bus.subscribe(userId, (event) => events.push(event));
  reader = new FileReader({ memoryMb: 1536, timeoutMs: 60_000 });
  const previews = new PreviewQueue({ files, storage, bus, now, log: silent, reader, timeoutMs: 60_000 });
  await previews.stop(); // previews are not part of these tests
  service = new FileService({
    files,
    failures: new JobFailuresRepository(test.app.db),
    storage,
    bus,
    previews,
    reader,
    purger: new FilePurger(files, storage, bus),
    limits: {
      maxPdfPages: 20,
      originalRetentionDays: 7,
      storageQuotaBytes: 1024 ** 3,
    },
    now,
  });
  retention = newRetention();
});

afterAll(async () => {
  reader.close();
  await test.close();
});

beforeEach(() => {
  clock = Date.now();
  events.length = 0;
});

async function upload(): Promise<FileRow> {
  const file = await service.createOriginal(
    userId,
    'scan.png',
    evalFile('doc_001/degraded.png'),
    randomUUID(),
  );
  const row = await files.findLive(userId, file.id);
  if (!row) throw new Error('upload vanished');
  return row;
}

/** A restored file as the restoration job stores it: bytes first, then the row. */
async function restored(original: FileRow): Promise<FileRow> {
  const id = randomUUID();
  const at = now().toISOString();
  const row: FileRow = {
    ...original,
    id,
    type: 'restored',
    filename: 'restored_scan.png',
    original_filename: original.filename,
    status: 'processed',
    storage_key: contentKey(id),
    preview_key: null,
    preview_status: 'none',
    original_file_id: original.id,
    expires_at: new Date(clock + 30 * DAY).toISOString(),
    created_at: at,
    updated_at: at,
  };
  await storage.put(row.storage_key, Buffer.from('restored bytes'));
  await files.insert(row);
  return row;
}

async function live(id: string): Promise<boolean> {
  return (await service.list(userId)).some((file) => file.id === id);
}

async function rowExists(id: string): Promise<boolean> {
  return (await files.existingIds([id])).has(id);
}

describe('retention sweep', () => {
  it('deletes originals after ORIGINAL_RETENTION_DAYS and restored files after RESTORED_RETENTION_DAYS', async () => {
    const original = await upload();
    const result = await restored(original);
    const start = clock;

    clock = start + 7 * DAY - 1;
    expect(await retention.sweep()).toMatchObject({ expired: 0, purged: 0 });
    expect(await live(original.id)).toBe(true);
    expect((await service.get(userId, original.id)).days_remaining).toBe(
      Math.floor((start + 7 * DAY) / DAY) - Math.floor(clock / DAY),
    );

    clock = start + 7 * DAY;
    expect(await retention.sweep()).toMatchObject({ expired: 1, purged: 1 });
    expect(await rowExists(original.id)).toBe(false);
    expect(await storage.exists(original.storage_key)).toBe(false);
    expect(await live(result.id)).toBe(true);
    expect((await service.get(userId, result.id)).original_file_id).toBeNull();
    expect(events).toContainEqual({ type: 'file.deleted', fileId: original.id });

    clock = start + 30 * DAY;
    expect(await retention.sweep()).toMatchObject({ expired: 1, purged: 1 });
    expect(await rowExists(result.id)).toBe(false);
    expect(await storage.exists(result.storage_key)).toBe(false);
  });

  it('finishes after a crash between tombstone and byte deletion', async () => {
    const row = await upload();
    clock += 8 * DAY;
    expect(await retention.markExpired()).toBe(1);
    // crash here: the file is gone from the API but its row and bytes remain
    expect(await live(row.id)).toBe(false);
    expect(await rowExists(row.id)).toBe(true);
    expect(await storage.exists(row.storage_key)).toBe(true);

    const afterRestart = newRetention();
    expect(await afterRestart.sweep()).toMatchObject({ expired: 0, purged: 1 });
    expect(await rowExists(row.id)).toBe(false);
    expect(await storage.exists(row.storage_key)).toBe(false);
  });

  it('finishes after a crash between byte deletion and row deletion', async () => {
    const row = await upload();
    clock += 8 * DAY;
    await retention.markExpired();
    const [tombstoned] = await files.listTombstoned(10);
    expect(tombstoned?.id).toBe(row.id);
    if (!tombstoned) return;
    await new FilePurger(files, storage, bus).deleteBytes(tombstoned);
    // crash here: bytes gone, row still there (tombstoned, invisible)
    expect(await storage.exists(row.storage_key)).toBe(false);
    expect(await rowExists(row.id)).toBe(true);

    expect(await newRetention().sweep()).toMatchObject({ purged: 1 });
    expect(await rowExists(row.id)).toBe(false);
    expect(events).toContainEqual({ type: 'file.deleted', fileId: row.id });
  });

  it('finishes a user delete interrupted after its tombstone', async () => {
    const row = await upload();
    await files.tombstone(userId, row.id, now().toISOString());
    expect(await live(row.id)).toBe(false);
    await expect(service.download(userId, row.id)).rejects.toMatchObject({ statusCode: 404 });
    expect(await newRetention().sweep()).toMatchObject({ expired: 0, purged: 1 });
    expect(await rowExists(row.id)).toBe(false);
    expect(await storage.exists(row.storage_key)).toBe(false);
  });

  it('removes stored objects without a row once older than an hour, and nothing else', async () => {
    const kept = await upload();
    const orphanId = randomUUID();
    await storage.put(contentKey(orphanId), Buffer.from('left by a crash between put and insert'));
    await storage.put('other/not-a-file-object', Buffer.from('not ours to judge'));

    expect(await retention.removeOrphans()).toBe(0); // too young: may be an upload in progress
    clock += 2 * HOUR;
    expect(await retention.removeOrphans()).toBe(1);
    expect(await storage.exists(contentKey(orphanId))).toBe(false);
    expect(await storage.exists(kept.storage_key)).toBe(true);
    expect(await storage.exists('other/not-a-file-object')).toBe(true);
  });
});

describe('startRetentionSweeper', () => {
  it('sweeps at start and stops cleanly', async () => {
    const row = await upload();
    const { db, settings, eventBus, log } = test.app;
    const sweeper = startRetentionSweeper(
      { db, settings, eventBus, log, storage },
      {
        retention: { sweepIntervalMs: 60_000, orphanMinAgeMs: HOUR },
        now: () => new Date(clock + 8 * DAY),
      },
    );
    await sweeper.stop();
    expect(await rowExists(row.id)).toBe(false);
    expect(await storage.exists(row.storage_key)).toBe(false);
  });
});
