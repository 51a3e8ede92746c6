import { sql, type Kysely, type Migration } from 'kysely';

// Only portable column types (text, integer) so the same migration runs on SQLite and PostgreSQL.
export const usersCredits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('google_sub', 'text', (col) => col.unique())
      .addColumn('email', 'text', (col) => col.notNull().unique())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('given_name', 'text')
      .addColumn('family_name', 'text')
      .addColumn('credits_remaining', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('purchase_tier', 'text', (col) => col.notNull().defaultTo('standard'))
      .addColumn('signup_granted', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addCheckConstraint('users_credits_remaining_nonnegative', sql`credits_remaining >= 0`)
      .addCheckConstraint('users_signup_granted_bool', sql`signup_granted in (0, 1)`)
      .execute();

    await db.schema
      .createTable('credit_ledger')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('delta', 'integer', (col) => col.notNull())
      .addColumn('reason', 'text', (col) => col.notNull())
      .addColumn('reference', 'text', (col) => col.notNull().unique())
      .addColumn('balance_after', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addCheckConstraint('credit_ledger_balance_after_nonnegative', sql`balance_after >= 0`)
      .execute();
    await db.schema
      .createIndex('credit_ledger_user_created_idx')
      .on('credit_ledger')
      .columns(['user_id', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('credit_ledger').execute();
    await db.schema.dropTable('users').execute();
  },
};
