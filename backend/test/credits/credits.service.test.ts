import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InsufficientCreditsError } from '../../src/credits/credits.errors.js';
import { CreditsService } from '../../src/credits/credits.service.js';
import type { Db } from '../../src/db/database.js';
import { withTransaction } from '../../src/db/transaction.js';
import { nowIso } from '../../src/db/values.js';
import { NotFoundError } from '../../src/errors.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const run = async (file: string, args: string[]) => (await promisify(execFile)(file, args)).stdout;

let database: TestDatabase;
const credits = new CreditsService();

async function createUser(db: Db, balance: number): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db
    .insertInto('users')
    .values({
      id,
      email: `${id}@example.com`,
      name: 'U',
      credits_remaining: balance,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

const balanceOf = (db: Db, userId: string) => withTransaction(db, (trx) => credits.balance(trx, userId));
const ledgerSum = (db: Db, userId: string) => withTransaction(db, (trx) => credits.ledgerTotal(trx, userId));

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

describe('CreditsService.apply', () => {
  it('grants and spends through the ledger, recording the balance after each change', async () => {
    const { db } = database;
    const userId = await createUser(db, 0);
    const grant = await withTransaction(db, (trx) =>
      credits.apply(trx, { userId, delta: 10, reason: 'signup', reference: `signup:${userId}` }),
    );
    expect(grant).toEqual({ balance: 10, applied: true });
    const spend = await withTransaction(db, (trx) =>
      credits.apply(trx, { userId, delta: -3, reason: 'restoration', reference: `job:a:${userId}` }),
    );
    expect(spend).toEqual({ balance: 7, applied: true });
    const history = await credits.history(db, userId);
    expect(history.map((row) => [row.delta, row.balance_after, row.reason])).toEqual(
      expect.arrayContaining([
        [10, 10, 'signup'],
        [-3, 7, 'restoration'],
      ]),
    );
    expect(await ledgerSum(db, userId)).toBe(7);
  });

  it('treats a replayed reference as a no-op that answers the current balance', async () => {
    const { db } = database;
    const userId = await createUser(db, 0);
    const change = { userId, delta: 5, reason: 'purchase', reference: `checkout:${userId}` };
    await withTransaction(db, (trx) => credits.apply(trx, change));
    const replay = await withTransaction(db, (trx) => credits.apply(trx, change));
    expect(replay).toEqual({ balance: 5, applied: false });
    // A replayed debit is a no-op too, even when the balance could no longer cover it.
    const debit = { userId, delta: -5, reason: 'restoration', reference: `job:b:${userId}` };
    await withTransaction(db, (trx) => credits.apply(trx, debit));
    expect(await withTransaction(db, (trx) => credits.apply(trx, debit))).toEqual({
      balance: 0,
      applied: false,
    });
    expect((await credits.history(db, userId)).length).toBe(2);
  });

  it('refuses a debit larger than the balance with the figures, and writes nothing', async () => {
    const { db } = database;
    const userId = await createUser(db, 2);
    const attempt = withTransaction(db, (trx) =>
      credits.apply(trx, { userId, delta: -3, reason: 'restoration', reference: `job:c:${userId}` }),
    );
    await expect(attempt).rejects.toBeInstanceOf(InsufficientCreditsError);
    await expect(attempt).rejects.toMatchObject({
      statusCode: 402,
      needed: 3,
      available: 2,
      detail: 'You need 3 credit(s) but only have 2. Please purchase more credits to continue.',
    });
    expect(await balanceOf(db, userId)).toBe(2);
    expect(await credits.history(db, userId)).toEqual([]);
  });

  it('rejects unknown users and malformed changes', async () => {
    const { db } = database;
    await expect(
      withTransaction(db, (trx) =>
        credits.apply(trx, { userId: 'nobody', delta: 1, reason: 'x', reference: 'r1' }),
      ),
    ).rejects.toBeInstanceOf(NotFoundError);
    const userId = await createUser(db, 1);
    await expect(
      withTransaction(db, (trx) => credits.apply(trx, { userId, delta: 1.5, reason: 'x', reference: 'r2' })),
    ).rejects.toThrow(/integer/);
    await expect(
      withTransaction(db, (trx) => credits.apply(trx, { userId, delta: 1, reason: 'x', reference: ' ' })),
    ).rejects.toThrow(/reference/);
  });

  it('rolls the ledger row back with the balance when the surrounding transaction fails', async () => {
    const { db } = database;
    const userId = await createUser(db, 0);
    await expect(
      withTransaction(db, async (trx) => {
        await credits.apply(trx, { userId, delta: 4, reason: 'purchase', reference: `rollback:${userId}` });
        throw new Error('boom after the grant');
      }),
    ).rejects.toThrow('boom');
    expect(await balanceOf(db, userId)).toBe(0);
    expect(await credits.history(db, userId)).toEqual([]);
  });

  it('never goes below zero under 50 concurrent debits against a balance of 10', async () => {
    // In one process: on SQLite the connection serialises transactions, on PostgreSQL a pool of 20
    // connections really runs them side by side.
    const userId = await createUser(database.db, 10);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        withTransaction(database.db, (trx) =>
          credits.apply(trx, { userId, delta: -1, reason: 'restoration', reference: `race:${userId}:${i}` }),
        ),
      ),
    );
    const succeeded = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter(
      (result) => result.status === 'rejected' && result.reason instanceof InsufficientCreditsError,
    );
    expect(succeeded).toHaveLength(10);
    expect(refused).toHaveLength(40);
    expect(await balanceOf(database.db, userId)).toBe(0);
    expect(await ledgerSum(database.db, userId)).toBe(-10);
    expect(new Set(succeeded.map((result) => result.value.balance))).toEqual(
      new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
    );
  });

  it(
    'never goes below zero when 3 processes debit the same balance at once',
    { timeout: 90_000 },
    async () => {
      // Separate processes with their own connections, like an API and its workers sharing the database.
      const userId = await createUser(database.db, 10);
      const script = fileURLToPath(new URL('../helpers/debit-process.ts', import.meta.url));
      const outputs = await Promise.all(
        Array.from({ length: 3 }, (_, p) =>
          run(process.execPath, [
            '--import',
            'tsx',
            script,
            database.dialect === 'sqlite' ? path.join(database.dataDir, 'folio.sqlite') : '',
            database.databaseUrl,
            database.pgSchema ?? '',
            userId,
            `proc:${userId}:${p}`,
            '10',
          ]),
        ),
      );
      const reports = outputs.map(
        (output) => JSON.parse(output) as { succeeded: number; refused: number; errors: string[] },
      );
      expect(reports.flatMap((report) => report.errors)).toEqual([]);
      expect(reports.reduce((sum, report) => sum + report.succeeded, 0)).toBe(10);
      expect(reports.reduce((sum, report) => sum + report.refused, 0)).toBe(20);
      expect(await balanceOf(database.db, userId)).toBe(0);
      expect(await ledgerSum(database.db, userId)).toBe(-10);
    },
  );

  it('applies a reference exactly once when the same change races with itself', async () => {
    const userId = await createUser(database.db, 0);
    const change = { userId, delta: 7, reason: 'purchase', reference: `dup:${userId}` };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => withTransaction(database.db, (trx) => credits.apply(trx, change))),
    );
    expect(results.filter((result) => result.applied)).toHaveLength(1);
    expect(await balanceOf(database.db, userId)).toBe(7);
    expect(await credits.history(database.db, userId)).toHaveLength(1);
  });
});
