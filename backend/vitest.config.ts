import { defineConfig } from 'vitest/config';

// Backend tests run on real databases: FOLIO_TEST_DB=sqlite (a fresh file per app) or postgres (a fresh
// schema per test file), so files can run in parallel without touching each other's data.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    env: { FOLIO_TEST_DB: process.env.FOLIO_TEST_DB ?? 'sqlite' },
  },
});
