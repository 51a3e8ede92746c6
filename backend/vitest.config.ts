import { defineConfig } from 'vitest/config';

// Backend tests run on real databases: FOLIO_TEST_DB=sqlite (the default: a fresh file per app) or postgres (a
// fresh schema per test file), so files can run in parallel without touching each other's data. The test helper
// (test/helpers/database.ts) reads FOLIO_TEST_DB; the forks inherit it from the command line.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
