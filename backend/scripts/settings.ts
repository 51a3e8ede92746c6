// Settings of the backend's benchmark scripts, the one place they read process.env.
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The public eval set beside the repository (../shared/eval/public from its root); FOLIO_EVAL_DIR overrides. */
export const publicSet = path.join(
  process.env.FOLIO_EVAL_DIR ?? path.resolve(repoRoot, '../shared/eval'),
  'public',
);
export const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const benchSeconds = process.env.BENCH_SECONDS;
/** bench-list: seconds of requests per measured route (BENCH_SECONDS, default 8). */
export const listSeconds = Number(benchSeconds ?? 8);
/** bench-load: seconds of each autocannon case (BENCH_SECONDS, default 5). */
export const loadSeconds = Number(benchSeconds ?? 5);
/** bench-load: how long the WebSockets are held before the event (BENCH_WS_SECONDS, default 60). */
export const socketSeconds = Number(process.env.BENCH_WS_SECONDS ?? 60);
/** bench-load: how many WebSockets it opens (BENCH_SOCKETS, default 1000). */
export const socketCount = Number(process.env.BENCH_SOCKETS ?? 1000);
/** The environment the benchmark's child processes (API, workers) start from: this process's. */
export const childEnv: Readonly<NodeJS.ProcessEnv> = { ...process.env };
