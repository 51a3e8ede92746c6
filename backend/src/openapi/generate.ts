import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as prettier from 'prettier';
import { buildApp } from '../app.js';
import { openDatabase } from '../db/database.js';
import { createJobQueue } from '../restoration/job-system.js';
import { loadSettings } from '../settings.js';
import { createStorage } from '../storage/create-storage.js';

/**
 * The OpenAPI document as formatted JSON text. Built from fixed settings (not the caller's environment)
 * so the document is the same on every machine.
 */
export async function generateOpenApiDocument(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'folio-openapi-'));
  const settings = loadSettings({ FOLIO_ENV: 'test', FOLIO_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const db = openDatabase({ sqlitePath: ':memory:' });
  try {
    const storage = createStorage(settings);
    const app = await buildApp({ settings, db, storage, queue: createJobQueue(settings, db) });
    await app.ready();
    const document = JSON.stringify(app.swagger());
    await app.close();
    const config =
      (await prettier.resolveConfig(path.resolve(import.meta.dirname, '../../openapi.json'))) ?? {};
    return prettier.format(document, { ...config, parser: 'json' });
  } finally {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
