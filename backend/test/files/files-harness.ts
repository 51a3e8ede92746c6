// Shared setup of the files API tests: a real app on loopback (SQLite file or PostgreSQL schema, local
// disk storage in the test's data dir), signed-in users, multipart uploads over real HTTP.
import type { FileDto } from '../../src/files/file.schemas.js';
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import path from 'node:path';
import { LocalStorage } from '../../src/storage/local-storage.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/auth.js';

export interface FilesHarness {
  test: TestApp;
  base: string;
  storage: LocalStorage;
  signIn(email: string): Promise<SignedIn & { events: RealtimeEvent[] }>;
  close(): Promise<void>;
}

export async function startFilesApp(env: Record<string, string> = {}): Promise<FilesHarness> {
  const test = await createTestApp({ env: { MAX_PDF_PAGES: '20', ORIGINAL_RETENTION_DAYS: '7', ...env } });
  const base = await test.app.listen({ host: '127.0.0.1', port: 0 });
  const unsubscribes: (() => void)[] = [];
  return {
    test,
    base,
    storage: new LocalStorage(path.join(test.settings.dataDir, 'files')),
    async signIn(email) {
      const session = await signIn(test.app, email);
      const events: RealtimeEvent[] = [];
      unsubscribes.push(test.app.eventBus.subscribe(session.userId, (event) => events.push(event)));
      return { ...session, events };
    },
    async close() {
      for (const unsubscribe of unsubscribes) unsubscribe();
      await test.close();
    },
  };
}

export interface Upload {
  name: string;
  bytes: Buffer;
}

export async function upload(h: FilesHarness, who: SignedIn, file: Upload): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([file.bytes]), file.name);
  return fetch(`${h.base}/api/v1/files/upload`, { method: 'POST', headers: who.headers, body: form });
}

export async function batchUpload(
  h: FilesHarness,
  who: SignedIn,
  files: readonly Upload[],
): Promise<Response> {
  const form = new FormData();
  for (const file of files) form.append('files', new Blob([file.bytes]), file.name);
  return fetch(`${h.base}/api/v1/files/batch-upload`, { method: 'POST', headers: who.headers, body: form });
}

export async function listFiles(h: FilesHarness, who: SignedIn): Promise<FileDto[]> {
  const response = await h.test.app.inject({ method: 'GET', url: '/api/v1/files/all', headers: who.headers });
  if (response.statusCode !== 200) throw new Error(`list failed: ${response.statusCode} ${response.body}`);
  return response.json<{ files: FileDto[] }>().files;
}

export async function storedKeys(h: FilesHarness): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of h.storage.list('')) keys.push(item.key);
  return keys.sort();
}

/** Stored file contents (previews of earlier uploads may still be arriving in the background). */
export async function storedContents(h: FilesHarness): Promise<string[]> {
  return (await storedKeys(h)).filter((key) => key.endsWith('/content'));
}

/** Waits for a background preview (rendering takes a moment on 2 cores); fails after `limitMs`. */
export async function waitForPreview(
  h: FilesHarness,
  who: SignedIn,
  fileId: string,
  limitMs = 30_000,
): Promise<FileDto> {
  const until = Date.now() + limitMs;
  for (;;) {
    const file = (await listFiles(h, who)).find((item) => item.id === fileId);
    if (file?.preview_available) return file;
    if (Date.now() > until) throw new Error(`no preview for ${fileId} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
