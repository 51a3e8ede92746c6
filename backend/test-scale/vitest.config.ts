// `make test-scale`: the multi-process suite. Its files end in .suite.ts so the ordinary backend run skips them.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test-scale/**/*.suite.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
