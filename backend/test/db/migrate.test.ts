import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { withTransaction } from '../../src/db/transaction.js';
import { fromDbBool, nowIso, toDbBool } from '../../src/db/values.js';
import pg from 'pg';
import { createTestDatabase, TEST_POSTGRES_URL, type TestDatabase } from '../helpers/database.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
});
afterAll(async () => {
  await database.cleanup();
});

const user = (overrides: Record<string, unknown> = {}) => {
  const id = randomUUID();
  return {
    id,
    email: `${id}@example.com`,
    name: 'U',
    credits_remaining: 0,
    created_at: nowIso(),
    updated_at: nowIso(),
    ...overrides,
  };
};

describe('migrations', () => {
  it('apply every migration in order once, and nothing on a second run', async () => {
    expect(await migrateToLatest(database.db)).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it('let the database itself refuse a negative balance and a reused ledger reference', async () => {
    const { db } = database;
    await expect(
      db
        .insertInto('users')
        .values(user({ credits_remaining: -1 }))
        .execute(),
    ).rejects.toThrow();
    const row = user({ credits_remaining: 1 });
    await db.insertInto('users').values(row).execute();
    const entry = {
      user_id: row.id,
      delta: 1,
      reason: 'grant',
      reference: `ref:${row.id}`,
      balance_after: 1,
      created_at: nowIso(),
    };
    await db
      .insertInto('credit_ledger')
      .values({ ...entry, id: randomUUID() })
      .execute();
    await expect(
      db
        .insertInto('credit_ledger')
        .values({ ...entry, id: randomUUID() })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('users')
        .values(user({ email: row.email }))
        .execute(),
      'emails are unique',
    ).rejects.toThrow();
  });

  it('store booleans as 0/1 and read them back the same way on both engines', async () => {
    const { db } = database;
    const row = user();
    await db.insertInto('users').values(row).execute();
    const before = await db
      .selectFrom('users')
      .select('signup_granted')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(fromDbBool(before.signup_granted)).toBe(false);
    await db
      .updateTable('users')
      .set({ signup_granted: toDbBool(true) })
      .where('id', '=', row.id)
      .execute();
    const after = await db
      .selectFrom('users')
      .select('signup_granted')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(fromDbBool(after.signup_granted)).toBe(true);
    await expect(
      db.updateTable('users').set({ signup_granted: 2 }).where('id', '=', row.id).execute(),
    ).rejects.toThrow();
  });

  it('commit with the boundary and roll back on a throw', async () => {
    const { db } = database;
    const kept = user();
    const dropped = user();
    await withTransaction(db, (trx) => trx.insertInto('users').values(kept).execute());
    await expect(
      withTransaction(db, async (trx) => {
        await trx.insertInto('users').values(dropped).execute();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const ids = (await db.selectFrom('users').select('id').execute()).map((r) => r.id);
    expect(ids).toContain(kept.id);
    expect(ids).not.toContain(dropped.id);
  });

  it('runs SQLite in WAL mode with foreign keys on', async () => {
    if (database.dialect !== 'sqlite') {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
      expect(rows[0]?.schema).toBe(database.pgSchema);
      return;
    }
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
    const keys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(database.db);
    expect(journal.rows[0]?.journal_mode).toBe('wal');
    expect(keys.rows[0]?.foreign_keys).toBe(1);
  });

  it('see only their own tables, and migrate while other schemas on the server come and go', async () => {
    const { db } = database;
    await migrateToLatest(db);
    if (database.dialect === 'sqlite') {
      const tables = await db.introspection.getTables();
      expect(tables.map((table) => table.name)).toContain('users');
      expect(tables.every((table) => table.schema === undefined)).toBe(true);
      return;
    }
    // Another client on the same server keeps creating and dropping schemas, as other test files do.
    const neighbour = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await neighbour.connect();
    let churning = true;
    let churned = 0;
    const churn = (async () => {
      while (churning) {
        const schema = `neighbour_${randomUUID().replaceAll('-', '')}`;
        await neighbour.query(
          `create schema "${schema}"; create table "${schema}".t (id serial primary key)`,
        );
        await neighbour.query(`drop schema "${schema}" cascade`);
        churned += 1;
      }
    })();
    try {
      const tables = await db.introspection.getTables();
      expect(tables.map((table) => table.name)).toContain('users');
      expect(tables.every((table) => table.schema === database.pgSchema)).toBe(true);
      // Kysely's own introspector failed about every other migration here: `schema "neighbour_…" does not exist`.
      for (let i = 0; i < 10; i += 1) {
        const fresh = await createTestDatabase();
        await fresh.cleanup();
      }
    } finally {
      churning = false;
      await churn;
      await neighbour.end();
    }
    expect(churned).toBeGreaterThan(0);
  });
});
