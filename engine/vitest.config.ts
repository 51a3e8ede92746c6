import { defineConfig } from 'vitest/config';

// Pages are restored in worker threads on real eval files: allow for a busy 2-core machine. Two files at a time
// (vitest's default on 2 cores is one): one file's imports and Tesseract waits overlap the other's work, 7.8 -> 5.8
// min for the suite here; the slowest test, 62 s beside another file, stays well inside its 120 s.
export default defineConfig({
  test: { testTimeout: 120_000, hookTimeout: 60_000, maxWorkers: 2 },
});
