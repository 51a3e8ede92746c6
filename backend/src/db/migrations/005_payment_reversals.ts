import { sql, type Kysely, type Migration } from 'kysely';

// Every refund step and dispute Folio learnt of, kept by its ledger reference. One that arrives before its
// payment was fulfilled here waits (applied_at null) and is applied when the payment is fulfilled.
export const paymentReversals: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('payment_reversals')
      .addColumn('reference', 'text', (col) => col.primaryKey())
      .addColumn('payment_intent_id', 'text', (col) => col.notNull())
      .addColumn('reason', 'text', (col) => col.notNull())
      .addColumn('amount_cents', 'integer', (col) => col.notNull())
      .addColumn('received_at', 'text', (col) => col.notNull())
      .addColumn('applied_at', 'text')
      .addCheckConstraint('payment_reversals_reason', sql`reason in ('refund', 'dispute')`)
      .execute();
    await db.schema
      .createIndex('payment_reversals_payment_idx')
      .on('payment_reversals')
      .columns(['payment_intent_id', 'received_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('payment_reversals').execute();
  },
};
