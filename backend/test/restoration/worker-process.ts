// Real worker processes for crash tests: `node --import tsx src/worker.ts` with the test's settings.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { TestDatabase } from '../helpers/database.js';

const BACKEND_DIR = path.resolve(import.meta.dirname, '../..');

export interface WorkerProcess {
  child: ChildProcess;
  /** Parsed JSON log lines so far. */
  logs: Record<string, unknown>[];
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export function workerEnv(
  database: TestDatabase,
  extra: Record<string, string> = {},
): Record<string, string> {
  let databaseUrl = '';
  if (database.pgSchema) {
    const url = new URL(database.databaseUrl);
    url.searchParams.set('options', `-c search_path=${database.pgSchema}`);
    databaseUrl = url.toString();
  }
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    FOLIO_ENV: 'test',
    FOLIO_DATA_DIR: database.dataDir,
    DATABASE_URL: databaseUrl,
    TOKEN_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    LOG_LEVEL: 'info',
    JOB_QUEUE: 'database',
    JOB_LEASE_MS: '3000',
    JOB_POLL_MS: '100',
    METRICS_PORT: '0',
    ...extra,
  };
}

/** Starts `entry` (the worker by default; `src/main.ts` for an API node) as its own process. */
export function startWorker(env: Record<string, string>, entry = 'src/worker.ts'): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: BACKEND_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ msg: line });
      }
    }
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      if (code !== 0 && code !== null && stderr) console.error(stderr);
      resolve(code);
    });
  });
  return {
    child,
    logs,
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
