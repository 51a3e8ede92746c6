// Opens the database chosen by settings: a SQLite file (WAL) by default, PostgreSQL when DATABASE_URL is set.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import { OwnSchemaPostgresDialect } from './postgres-introspector.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';

export interface OpenDatabaseOptions {
  /** postgres:// URL; empty or undefined opens `sqlitePath`. */
  databaseUrl?: string;
  sqlitePath: string;
  /** PostgreSQL schema to use (tests isolate each file in its own schema). */
  pgSchema?: string;
  pgPoolSize?: number;
}

/**
 * SQLite transactions start with BEGIN IMMEDIATE: the write lock is taken up front, so two processes
 * sharing the file can never interleave a read-then-write (the ledger relies on this).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

function openSqlite(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
}

function openPostgres(url: string, schema: string | undefined, max: number): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  return new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
}

export function openDatabase(options: OpenDatabaseOptions): Db {
  if (options.databaseUrl)
    return openPostgres(options.databaseUrl, options.pgSchema, options.pgPoolSize ?? 10);
  return openSqlite(options.sqlitePath);
}

export function dialectOf(db: Kysely<Database>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Resolves once the database answers a trivial query (liveness and readiness checks). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
