// Original and restored files. Portable column types only (text, integer) so it runs on SQLite and PostgreSQL.
import { sql, type Kysely, type Migration } from 'kysely';

export const files: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('files')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('type', 'text', (col) => col.notNull().check(sql`type in ('original', 'restored')`))
      .addColumn('filename', 'text', (col) => col.notNull())
      .addColumn('original_filename', 'text', (col) => col.notNull())
      .addColumn('file_type', 'text', (col) => col.notNull())
      .addColumn('mime', 'text', (col) => col.notNull())
      .addColumn('size_bytes', 'integer', (col) => col.notNull())
      .addColumn('page_count', 'integer', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('storage_key', 'text', (col) => col.notNull().unique())
      .addColumn('preview_key', 'text')
      .addColumn('preview_status', 'text', (col) => col.notNull())
      // A restored file outlives its original (30 days against the originals' shorter retention).
      .addColumn('original_file_id', 'text', (col) => col.references('files.id').onDelete('set null'))
      .addColumn('job_id', 'text')
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('deleted_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('files_user_created_idx')
      .on('files')
      .columns(['user_id', 'created_at'])
      .execute();
    await db.schema.createIndex('files_expires_idx').on('files').column('expires_at').execute();
    await db.schema.createIndex('files_deleted_idx').on('files').column('deleted_at').execute();
    await db.schema.createIndex('files_preview_status_idx').on('files').column('preview_status').execute();
    await db.schema.createIndex('files_original_idx').on('files').column('original_file_id').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('files').execute();
  },
};
