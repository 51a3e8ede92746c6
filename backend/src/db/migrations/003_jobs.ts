// Restoration jobs. The row is both the job's state and, in the embedded default, its queue entry: a worker
// claims a row by writing its lease, renews the lease while it works, and a row whose lease ran out (its
// worker died) is claimable again, so a restart resumes every unfinished job. Times are UTC ISO strings.
import type { Kysely, Migration } from 'kysely';

export const jobs: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('original_file_id', 'text', (col) => col.notNull())
      // queued → running → completed | failed
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('priority', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('total_pages', 'integer', (col) => col.notNull())
      .addColumn('current_page', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('successful_pages', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('failed_pages', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('credits_charged', 'integer', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('restored_file_id', 'text')
      .addColumn('error', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .execute();
    await db.schema
      .createIndex('jobs_claim_idx')
      .on('jobs')
      .columns(['status', 'priority', 'created_at'])
      .execute();
    await db.schema.createIndex('jobs_user_idx').on('jobs').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('jobs_original_idx').on('jobs').column('original_file_id').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('jobs').execute();
  },
};
