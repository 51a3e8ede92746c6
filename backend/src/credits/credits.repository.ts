// Queries of the credits ledger. Balance changes are single guarded statements so that no interleaving
// of concurrent transactions can take a balance below zero.
import { sql } from 'kysely';
import { dialectOf } from '../db/database.js';
import type { Executor, Trx } from '../db/transaction.js';
import type { CreditLedgerTable } from '../db/schema.js';

export type LedgerRow = CreditLedgerTable;

export class CreditsRepository {
  /** Locks the user's row for the rest of the transaction (PostgreSQL); SQLite's BEGIN IMMEDIATE already did. */
  async lockBalance(trx: Trx, userId: string): Promise<number | undefined> {
    let query = trx.selectFrom('users').select('credits_remaining').where('id', '=', userId);
    if (dialectOf(trx) === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row?.credits_remaining;
  }

  async balance(db: Executor, userId: string): Promise<number | undefined> {
    const row = await db
      .selectFrom('users')
      .select('credits_remaining')
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.credits_remaining;
  }

  async findByReference(trx: Trx, reference: string): Promise<LedgerRow | undefined> {
    return trx.selectFrom('credit_ledger').selectAll().where('reference', '=', reference).executeTakeFirst();
  }

  /** Adds delta unless the result would be negative; returns the new balance, or undefined when refused. */
  async addToBalance(trx: Trx, userId: string, delta: number, now: string): Promise<number | undefined> {
    const row = await trx
      .updateTable('users')
      .set({ credits_remaining: sql<number>`credits_remaining + ${delta}`, updated_at: now })
      .where('id', '=', userId)
      .where(sql<boolean>`credits_remaining + ${delta} >= 0`)
      .returning('credits_remaining')
      .executeTakeFirst();
    return row?.credits_remaining;
  }

  async insert(trx: Trx, row: LedgerRow): Promise<void> {
    await trx.insertInto('credit_ledger').values(row).execute();
  }

  async listForUser(trx: Executor, userId: string, limit: number): Promise<LedgerRow[]> {
    return trx
      .selectFrom('credit_ledger')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async sumForUser(trx: Executor, userId: string): Promise<number> {
    const row = await trx
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('delta'), sql<number>`0`).as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** Sum of |delta| over the ledger rows of one reason whose reference matches a LIKE pattern (all users). */
  async sumMoved(db: Executor, referencePattern: string, reason: string): Promise<number> {
    const row = await db
      .selectFrom('credit_ledger')
      .select(sql<string | number | null>`sum(abs(delta))`.as('total'))
      .where('reference', 'like', referencePattern)
      .where('reason', '=', reason)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }
}
