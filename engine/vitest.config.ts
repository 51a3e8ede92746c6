import { defineConfig } from 'vitest/config';

// Pages are restored in worker threads on real eval files: allow for a busy 2-core machine.
export default defineConfig({
  test: { testTimeout: 120_000, hookTimeout: 60_000 },
});
