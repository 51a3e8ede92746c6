// A migrated database for the queue tests: a SQLite file in a temp dir, or a fresh PostgreSQL schema when
// FOLIO_TEST_DB=postgres. Dropped by `drop()`.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export const PG_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const onPostgres = process.env.FOLIO_TEST_DB === 'postgres';

export interface JobDb {
  db: Db;
  /** Environment that opens the same database in another process. */
  env: Record<string, string>;
  dir: string;
  drop(): Promise<void>;
}

export async function openJobDb(): Promise<JobDb> {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-jobs-'));
  if (!onPostgres) {
    const sqlitePath = path.join(dir, 'folio.sqlite');
    const db = openDatabase({ sqlitePath });
    await migrateToLatest(db);
    return {
      db,
      dir,
      env: { FOLIO_DATA_DIR: dir, DATABASE_URL: '' },
      async drop() {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `jobs_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = openDatabase({ databaseUrl: PG_URL, sqlitePath: '' });
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  await admin.destroy();
  const db = openDatabase({ databaseUrl: PG_URL, sqlitePath: '', pgSchema: schema });
  await migrateToLatest(db);
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    db,
    dir,
    env: { FOLIO_DATA_DIR: dir, DATABASE_URL: url.toString() },
    async drop() {
      await db.destroy();
      const cleanup = openDatabase({ databaseUrl: PG_URL, sqlitePath: '' });
      await sql`drop schema ${sql.id(schema)} cascade`.execute(cleanup);
      await cleanup.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function insertUser(db: Db, credits: number, tier = 'standard'): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto('users')
    .values({
      id,
      google_sub: null,
      email: `${id}@example.test`,
      name: 'Test User',
      given_name: null,
      family_name: null,
      credits_remaining: credits,
      purchase_tier: tier,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
