// A preview that finishes after a restoration started announces the file as it is now (processing), not as it
// was when the render began: the dashboard replaces its card with the event's file.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRepository } from '../../src/files/file-repository.js';
import { PreviewQueue } from '../../src/files/preview-queue.js';
import { contentKey } from '../../src/files/storage-keys.js';
import { InProcessEventBus } from '../../src/realtime/event-bus.js';
import { LocalStorage } from '../../src/storage/local-storage.js';
import type { ObjectStorage } from '../../src/storage/storage.js';
import { EVAL_DIR } from '../fixtures/bad-files.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { FileReader } from '../../src/files/file-reader.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

describe('preview ready event', () => {
  it('carries the status the file has when the preview is done', async () => {
    const { db } = database;
    const files = new FileRepository(db);
    const real = new LocalStorage(path.join(database.dataDir, 'files'));
    const userId = randomUUID();
    const id = randomUUID();
    const now = new Date().toISOString();
    await db
      .insertInto('users')
      .values({
        id: userId,
        google_sub: null,
        email: `${userId}@example.test`,
        name: 'Previews',
        given_name: null,
        family_name: null,
        credits_remaining: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const bytes = readFileSync(`${EVAL_DIR}/doc_001/degraded.png`);
    await real.put(contentKey(id), bytes);
    await files.insert({
      id,
      user_id: userId,
      type: 'original',
      filename: 'page.png',
      original_filename: 'page.png',
      file_type: 'png',
      mime: 'image/png',
      size_bytes: bytes.length,
      page_count: 1,
      status: 'uploaded',
      storage_key: contentKey(id),
      preview_key: null,
      preview_status: 'pending',
      original_file_id: null,
      job_id: null,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      deleted_at: null,
      created_at: now,
      updated_at: now,
    });
    // The restoration starts while the preview reads the file (the real storage, with that one step added).
    const storage: ObjectStorage = Object.create(real) as ObjectStorage;
    storage.get = async (key) => {
      await db.updateTable('files').set({ status: 'processing' }).where('id', '=', id).execute();
      return real.get(key);
    };
    const bus = new InProcessEventBus();
    const events: RealtimeEvent[] = [];
    bus.subscribe(userId, (event) => events.push(event));
    const silent = { warn: () => {}, error: () => {} };
    const reader = new FileReader({ memoryMb: 1536, timeoutMs: 60_000 });
    const previews = new PreviewQueue({
      files,
      storage,
      bus,
      now: () => new Date(),
      log: silent,
      reader,
      timeoutMs: 60_000,
    });
    previews.enqueue(id);
    await previews.idle();
    await previews.stop();
    reader.close();

    const ready = events.find((event) => event.type === 'file.preview.ready');
    expect(ready?.type === 'file.preview.ready' && ready.file).toMatchObject({
      id,
      status: 'processing',
      preview_available: true,
    });
  });
});
