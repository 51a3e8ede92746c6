// Settings of the browser tests, the one place e2e/ reads process.env; read once, when the first file imports it.
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** The public eval set: `../shared/eval/public` beside the repository, or `$FOLIO_EVAL_DIR/public`. */
export const EVAL_DIR = path.join(
  process.env.FOLIO_EVAL_DIR ?? path.resolve(REPO_ROOT, '../shared/eval'),
  'public',
);
/** Debian's Chromium; CHROMIUM_PATH names another build. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The environment a backend under test starts from (this process's); each test sets its own variables on it. */
export const INHERITED_ENV: Readonly<NodeJS.ProcessEnv> = { ...process.env };
