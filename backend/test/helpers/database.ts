// A fresh, migrated database for a test: a new SQLite file in a temp dir, or (FOLIO_TEST_DB=postgres) a
// new schema on the PostgreSQL server, dropped again by cleanup. Parallel test files never collide.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Db, type DialectName } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export const TEST_DIALECT: DialectName = process.env.FOLIO_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
export const TEST_POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  db: Db;
  dialect: DialectName;
  /** Directory for the SQLite file and anything else the test writes. */
  dataDir: string;
  /** Set for PostgreSQL: the URL and the schema the database lives in. */
  databaseUrl: string;
  pgSchema: string | undefined;
  cleanup(): Promise<void>;
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'folio-test-'));
  let pgSchema: string | undefined;
  let db: Db;
  if (TEST_DIALECT === 'postgres') {
    pgSchema = `test_${randomBytes(6).toString('hex')}`;
    await adminQuery(`create schema "${pgSchema}"`);
    db = openDatabase({ databaseUrl: TEST_POSTGRES_URL, sqlitePath: '', pgSchema, pgPoolSize: 20 });
  } else {
    db = openDatabase({ sqlitePath: path.join(dataDir, 'folio.sqlite') });
  }
  if (options.migrate !== false) await migrateToLatest(db);
  return {
    db,
    dialect: TEST_DIALECT,
    dataDir,
    databaseUrl: TEST_DIALECT === 'postgres' ? TEST_POSTGRES_URL : '',
    pgSchema,
    async cleanup() {
      await db.destroy();
      if (pgSchema) await adminQuery(`drop schema if exists "${pgSchema}" cascade`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
