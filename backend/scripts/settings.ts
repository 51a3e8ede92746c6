// Settings of the backend's benchmark scripts, the one place they read process.env.
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The public eval set beside the repository (../shared/eval/public from its root); FOLIO_EVAL_DIR overrides. */
export const publicSet = path.join(
  process.env.FOLIO_EVAL_DIR ?? path.resolve(repoRoot, '../shared/eval'),
  'public',
);
export const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
/** bench-list: seconds of requests per measured route. */
export const benchSeconds = Number(process.env.BENCH_SECONDS ?? 8);
/** The environment the benchmark's child processes (API, workers) start from: this process's. */
export const childEnv: Readonly<NodeJS.ProcessEnv> = { ...process.env };
