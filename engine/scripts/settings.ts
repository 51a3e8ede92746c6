// Settings of the benchmark scripts, the one place they read process.env. The eval data lie beside the repository
// (../shared/eval from its root) unless FOLIO_EVAL_DIR names another folder.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const engineDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = path.resolve(engineDir, '..');
export const evalDir = process.env.FOLIO_EVAL_DIR ?? path.resolve(repoRoot, '../shared/eval');
/** The public eval set: one folder per sample. */
export const publicSet = path.join(evalDir, 'public');
/** FOLIO_BENCH_OUT: another folder for bench-quality's outputs, scores and report (two runs side by side). */
export const benchOut = process.env.FOLIO_BENCH_OUT ? path.resolve(process.env.FOLIO_BENCH_OUT) : undefined;
