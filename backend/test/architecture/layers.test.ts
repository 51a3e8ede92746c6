// The backend's layer rules (CONTRIBUTING.md), checked on the source: no SQL is built outside `*.repository.ts` /
// `*-repository.ts` files and src/db/, and only the units of work named below open a transaction.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const srcDir = path.resolve(import.meta.dirname, '../../src');

/** Kysely query builders and raw SQL templates. */
const QUERY =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql\s*(<[^>]*>)?\s*`/;

function buildsQueries(source: string): boolean {
  return QUERY.test(source);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [path.relative(srcDir, full).split(path.sep).join('/')] : [];
  });
}

const allowed = (file: string): boolean => /[.-]repository\.ts$/.test(file) || file.startsWith('db/');

describe('queries live in repositories', () => {
  const files = sourceFiles(srcDir);
  const withQueries = files.filter((f) => buildsQueries(readFileSync(path.join(srcDir, f), 'utf8')));

  it('finds queries the way the code builds them', () => {
    expect(buildsQueries("await trx.selectFrom('users').select('purchase_tier')")).toBe(true);
    expect(buildsQueries('await sql`select 1`.execute(db)')).toBe(true);
    expect(buildsQueries("sql<string | null>`sum(abs(delta))`.as('total')")).toBe(true);
    expect(buildsQueries('const user = await this.users.findById(trx, userId);')).toBe(false);
    // The repositories themselves are found (the scan sees the code).
    expect(withQueries).toContain('users/users.repository.ts');
    expect(withQueries).toContain('jobs/jobs.repository.ts');
  });

  it('finds none in services, routes, adapters, queues or anywhere else', () => {
    expect(withQueries.filter((f) => !allowed(f))).toEqual([]);
  });
});

describe('transactions are opened by the unit of work only', () => {
  // The units of work, named exactly (CONTRIBUTING.md, "Transactions"): each opens its own transactions with
  // withTransaction (db/transaction.ts is the one place that calls Kysely's transaction()). Everything else, the
  // domain services and repositories among them, receives the open transaction and never opens or commits one.
  const UNITS_OF_WORK = [
    'auth/auth.service.ts',
    'billing/billing.service.ts',
    'db/transaction.ts',
    'restoration/restoration-runner.ts',
    'restoration/restoration.service.ts',
    'users/users.routes.ts',
  ];
  const OPENS = /\bwithTransaction\(|\.transaction\(\)|\.commit\(|\bsql\s*`\s*(begin|commit)/i;
  const opening = sourceFiles(srcDir)
    .filter((f) => OPENS.test(readFileSync(path.join(srcDir, f), 'utf8')))
    .sort();

  it('finds a transaction opened the way the code opens one', () => {
    expect(OPENS.test('await withTransaction(this.db, async (trx) => {')).toBe(true);
    expect(OPENS.test('return db.transaction().execute(fn);')).toBe(true);
    expect(OPENS.test('await sql`begin`.execute(db)')).toBe(true);
    expect(OPENS.test('await this.credits.apply(trx, change);')).toBe(false);
  });

  it('finds them only in the units of work', () => {
    expect(opening).toEqual(UNITS_OF_WORK);
  });
});
