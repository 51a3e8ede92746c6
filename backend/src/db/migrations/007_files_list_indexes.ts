// Indexes for the paged file list (GET /files/all with limit): one per sort order, per user and file kind, ending
// with the id that breaks ties, over live rows only. A page is read from the index in order, and the total is
// counted from the index alone, instead of sorting or visiting all of a user's rows.
import { sql, type Kysely, type Migration } from 'kysely';

const INDEXES = {
  files_user_type_created_idx: 'created_at',
  files_user_type_name_idx: 'filename',
  files_user_type_size_idx: 'size_bytes',
  files_user_type_expires_idx: 'expires_at',
} as const;

export const filesListIndexes: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const [name, column] of Object.entries(INDEXES)) {
      await db.schema
        .createIndex(name)
        .on('files')
        .columns(['user_id', 'type', column, 'id'])
        .where(sql.ref('deleted_at'), 'is', null)
        .execute();
    }
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const name of Object.keys(INDEXES)) await db.schema.dropIndex(name).execute();
  },
};
