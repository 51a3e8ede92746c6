import { sql, type Kysely, type Migration } from 'kysely';

// Billing: provider customers, checkout sessions, verified webhook events and credits owed after refunds.
// Only portable column types (text, integer) so the same migration runs on SQLite and PostgreSQL.
export const billing: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('billing_customers')
      .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('stripe_customer_id', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('checkout_sessions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('pack_key', 'text', (col) => col.notNull())
      .addColumn('credits', 'integer', (col) => col.notNull())
      .addColumn('amount_cents', 'integer', (col) => col.notNull())
      .addColumn('currency', 'text', (col) => col.notNull())
      .addColumn('mode', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('payment_intent_id', 'text', (col) => col.unique())
      .addColumn('refunded_cents', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('disputed_cents', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('credits_reversed', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('success_url', 'text', (col) => col.notNull())
      .addColumn('cancel_url', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addColumn('fulfilled_at', 'text')
      .addCheckConstraint('checkout_sessions_mode', sql`mode in ('stripe', 'test')`)
      .addCheckConstraint(
        'checkout_sessions_status',
        sql`status in ('open', 'fulfilled', 'canceled', 'expired', 'failed')`,
      )
      .execute();
    await db.schema
      .createIndex('checkout_sessions_user_idx')
      .on('checkout_sessions')
      .columns(['user_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('billing_events')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('stripe_created', 'integer', (col) => col.notNull())
      .addColumn('received_at', 'text', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('credit_debts')
      .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('credits_owed', 'integer', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addCheckConstraint('credit_debts_owed_nonnegative', sql`credits_owed >= 0`)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('credit_debts').execute();
    await db.schema.dropTable('billing_events').execute();
    await db.schema.dropTable('checkout_sessions').execute();
    await db.schema.dropTable('billing_customers').execute();
  },
};
