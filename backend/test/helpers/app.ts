// A real app for a test: real settings parsed from a plain object, a fresh migrated database, the real
// services. Only Google's key endpoint is local (see google.ts).
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../src/app.js';
import { createJobQueue } from '../../src/restoration/job-system.js';
import { loadSettings, type Settings } from '../../src/settings.js';
import { createStorage } from '../../src/storage/create-storage.js';
import type { ObjectStorage } from '../../src/storage/storage.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestApp {
  app: FastifyInstance;
  settings: Readonly<Settings>;
  database: TestDatabase;
  /** The app's file storage. */
  storage: ObjectStorage;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment on top of the test defaults (e.g. GOOGLE_CLIENT_ID, SIGNUP_CREDITS). */
  env?: Record<string, string>;
  build?: Partial<Omit<BuildAppOptions, 'settings' | 'db' | 'storage' | 'queue'>>;
  /** Adds test-only routes or hooks before the app is sealed. */
  beforeReady?: (app: FastifyInstance) => void;
}

export function testSettings(dataDir: string, env: Record<string, string> = {}): Readonly<Settings> {
  return loadSettings({
    FOLIO_ENV: 'test',
    FOLIO_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DEV_LOGIN: 'true',
    TOKEN_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    ...env,
  });
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const settings = testSettings(database.dataDir, { DATABASE_URL: database.databaseUrl, ...options.env });
  const db = database.db;
  const storage = createStorage(settings);
  const app = await buildApp({
    ...options.build,
    settings,
    db,
    storage,
    queue: createJobQueue(settings, db),
  });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    settings,
    database,
    storage,
    async close() {
      await app.close();
      await database.cleanup();
    },
  };
}
