import type { Kysely, Migration } from 'kysely';

// How often a file's preview was started. A row is written before rendering, so a render that takes the
// process down is counted too, and the file is not tried again at the next start (see files/preview-queue.ts).
export const previewAttempts: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('preview_attempts')
      .addColumn('file_id', 'text', (col) => col.primaryKey().references('files.id').onDelete('cascade'))
      .addColumn('attempts', 'integer', (col) => col.notNull())
      .addColumn('attempted_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('preview_attempts').execute();
  },
};
