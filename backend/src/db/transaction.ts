// The transaction boundary. A unit of work (the files CONTRIBUTING.md names under "Transactions") calls
// withTransaction: commit on return, rollback on throw. What it calls (domain services such as CreditsService,
// repositories) receives that transaction and never opens or commits another. test/architecture/layers.test.ts
// fails when any other file opens one.
import type { Kysely, Transaction } from 'kysely';
import type { Db } from './database.js';
import type { Database } from './schema.js';

export type Trx = Transaction<Database>;

export async function withTransaction<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute(fn);
}

/** Anything that runs queries: the database itself or an open transaction. For reads that need no lock. */
export type Executor = Kysely<Database>;
