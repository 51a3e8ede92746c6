import { Migrator, sql } from 'kysely';
import { dialectOf, type Db } from './database.js';
import { migrations } from './migrations/index.js';

/** Applies every pending migration; throws (and leaves the database as it was) when one fails. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // On PostgreSQL the bookkeeping tables live in the connection's current schema, named outright in every
  // statement; the dialect's introspection (postgres-introspector.ts) looks in that schema only.
  const migrationTableSchema =
    dialectOf(db) === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `Database migration ${failed} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      { cause: error },
    );
  }
  return (results ?? []).map((result) => result.migrationName);
}
