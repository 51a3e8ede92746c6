// Why restorations fell short, kept for the dashboard after a reload: each failed page's reason, and how many
// credits a job gave back. Jobs of earlier versions count their refunds from the ledger (`refund:<jobId>:<page>`).
import { sql, type Kysely, type Migration } from 'kysely';

export const jobFailures: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('jobs')
      .addColumn('credits_refunded', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await sql`
      update jobs set credits_refunded = (
        select count(*) from credit_ledger where credit_ledger.reference like 'refund:' || jobs.id || ':%'
      )`.execute(db);
    await db.schema
      .createTable('job_page_failures')
      .addColumn('job_id', 'text', (col) => col.notNull().references('jobs.id').onDelete('cascade'))
      // 1-based, as shown to the user
      .addColumn('page', 'integer', (col) => col.notNull())
      .addColumn('reason', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('job_page_failures_pk', ['job_id', 'page'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('job_page_failures').execute();
    await db.schema.alterTable('jobs').dropColumn('credits_refunded').execute();
  },
};
