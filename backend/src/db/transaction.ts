// The transaction boundary. Services receive a Transaction and never commit; the request or task that
// calls withTransaction does (commit on return, rollback on throw).
import type { Kysely, Transaction } from 'kysely';
import type { Db } from './database.js';
import type { Database } from './schema.js';

export type Trx = Transaction<Database>;

export async function withTransaction<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute(fn);
}

/** Anything that runs queries: the database itself or an open transaction. For reads that need no lock. */
export type Executor = Kysely<Database>;
