// Queries of the billing domain. Rows that fulfilment reads and then changes are locked on PostgreSQL
// (SELECT ... FOR UPDATE); on SQLite the transaction's BEGIN IMMEDIATE already holds the write lock.
import { sql } from 'kysely';
import { dialectOf } from '../db/database.js';
import type { Trx } from '../db/transaction.js';
import type {
  BillingEventsTable,
  CheckoutSessionsTable,
  CheckoutStatus,
  PaymentReversalsTable,
} from './billing.tables.js';

export type CheckoutSessionRow = CheckoutSessionsTable;
export type PaymentReversalRow = PaymentReversalsTable;

export class BillingRepository {
  async findCustomerId(trx: Trx, userId: string): Promise<string | undefined> {
    const row = await trx
      .selectFrom('billing_customers')
      .select('stripe_customer_id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.stripe_customer_id;
  }

  /** Stores the user's customer unless one is stored already; returns the one that is stored. */
  async saveCustomerId(trx: Trx, userId: string, customerId: string, now: string): Promise<string> {
    await trx
      .insertInto('billing_customers')
      .values({ user_id: userId, stripe_customer_id: customerId, created_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    const stored = await this.findCustomerId(trx, userId);
    if (stored === undefined) throw new Error(`customer of user ${userId} was not stored`);
    return stored;
  }

  /** Inserts a session; a row with the same id (a webhook got there first) is kept as it is. */
  async insertSession(trx: Trx, row: CheckoutSessionRow): Promise<void> {
    await trx
      .insertInto('checkout_sessions')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  async findSession(trx: Trx, id: string, lock = false): Promise<CheckoutSessionRow | undefined> {
    let query = trx.selectFrom('checkout_sessions').selectAll().where('id', '=', id);
    if (lock && dialectOf(trx) === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  async findSessionByPaymentIntent(
    trx: Trx,
    paymentIntentId: string,
  ): Promise<CheckoutSessionRow | undefined> {
    let query = trx
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('payment_intent_id', '=', paymentIntentId);
    if (dialectOf(trx) === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  async hasFulfilledSession(trx: Trx, userId: string, mode: CheckoutSessionRow['mode']): Promise<boolean> {
    const row = await trx
      .selectFrom('checkout_sessions')
      .select('id')
      .where('user_id', '=', userId)
      .where('mode', '=', mode)
      .where('status', '=', 'fulfilled')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async markFulfilled(trx: Trx, id: string, paymentIntentId: string | null, now: string): Promise<void> {
    await trx
      .updateTable('checkout_sessions')
      .set((eb) => ({
        status: 'fulfilled',
        payment_intent_id: eb.fn.coalesce('payment_intent_id', eb.val(paymentIntentId)),
        fulfilled_at: now,
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute();
  }

  /** Moves an unfulfilled session to `status`; a fulfilled one stays fulfilled. */
  async closeUnfulfilled(trx: Trx, id: string, status: CheckoutStatus, now: string): Promise<void> {
    await trx
      .updateTable('checkout_sessions')
      .set({ status, updated_at: now })
      .where('id', '=', id)
      .where('status', '!=', 'fulfilled')
      .execute();
  }

  async setReversal(
    trx: Trx,
    id: string,
    reversal: Pick<CheckoutSessionRow, 'refunded_cents' | 'disputed_cents' | 'credits_reversed'>,
    now: string,
  ): Promise<void> {
    await trx
      .updateTable('checkout_sessions')
      .set({ ...reversal, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Serialises, until the transaction ends, everything done about one payment (its fulfilment and its
   * refunds and disputes) on PostgreSQL, so a refund racing its payment's completion is never missed by both.
   * SQLite's BEGIN IMMEDIATE already serialises every writing transaction.
   */
  async lockPayment(trx: Trx, paymentIntentId: string): Promise<void> {
    if (dialectOf(trx) !== 'postgres') return;
    await sql`select pg_advisory_xact_lock(hashtext(${`payment:${paymentIntentId}`}))`.execute(trx);
  }

  /** Stores a refund step or dispute unless its reference is stored; answers the stored row. */
  async recordReversal(trx: Trx, row: PaymentReversalRow): Promise<PaymentReversalRow> {
    await trx
      .insertInto('payment_reversals')
      .values(row)
      .onConflict((oc) => oc.column('reference').doNothing())
      .execute();
    const stored = await trx
      .selectFrom('payment_reversals')
      .selectAll()
      .where('reference', '=', row.reference)
      .executeTakeFirst();
    if (!stored) throw new Error(`reversal ${row.reference} was not stored`);
    return stored;
  }

  /** Reversals of a payment not applied yet, in the order they arrived. */
  async pendingReversals(trx: Trx, paymentIntentId: string): Promise<PaymentReversalRow[]> {
    return trx
      .selectFrom('payment_reversals')
      .selectAll()
      .where('payment_intent_id', '=', paymentIntentId)
      .where('applied_at', 'is', null)
      .orderBy('received_at')
      .orderBy('reference')
      .execute();
  }

  async markReversalApplied(trx: Trx, reference: string, now: string): Promise<void> {
    await trx
      .updateTable('payment_reversals')
      .set({ applied_at: now })
      .where('reference', '=', reference)
      .execute();
  }

  /** Records a verified event id; false when it was stored before (a replay). */
  async recordEvent(trx: Trx, event: BillingEventsTable): Promise<boolean> {
    const result = await trx
      .insertInto('billing_events')
      .values(event)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async creditsOwed(trx: Trx, userId: string): Promise<number> {
    const row = await trx
      .selectFrom('credit_debts')
      .select('credits_owed')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.credits_owed ?? 0;
  }

  async addCreditsOwed(trx: Trx, userId: string, delta: number, now: string): Promise<void> {
    await trx
      .insertInto('credit_debts')
      .values({ user_id: userId, credits_owed: Math.max(0, delta), updated_at: now })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          credits_owed: sql<number>`credit_debts.credits_owed + ${delta}`,
          updated_at: now,
        }),
      )
      .execute();
  }

  async purchaseTier(trx: Trx, userId: string): Promise<string | undefined> {
    const row = await trx
      .selectFrom('users')
      .select('purchase_tier')
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.purchase_tier;
  }

  async setPurchaseTier(trx: Trx, userId: string, tier: string, now: string): Promise<void> {
    await trx
      .updateTable('users')
      .set({ purchase_tier: tier, updated_at: now })
      .where('id', '=', userId)
      .execute();
  }

  async findUserEmail(trx: Trx, userId: string): Promise<{ email: string; name: string } | undefined> {
    return trx.selectFrom('users').select(['email', 'name']).where('id', '=', userId).executeTakeFirst();
  }
}
