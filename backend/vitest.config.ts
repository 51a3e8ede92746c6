import { defineConfig } from 'vitest/config';

// Backend tests run on real databases: FOLIO_TEST_DB=sqlite (the default: a fresh file per app) or postgres (a
// fresh schema per test file), so files can run in parallel without touching each other's data. The test helper
// (test/helpers/database.ts) reads FOLIO_TEST_DB; the forks inherit it from the command line.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // Two files at a time (vitest's default on 2 cores is one): a file's imports and database waits overlap the
    // other's work, 4.5 -> 3.3 min for the SQLite run here.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
