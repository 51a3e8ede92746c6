import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One backend and one browser per file; files run one after another on the 2-core machine.
    fileParallelism: false,
  },
});
