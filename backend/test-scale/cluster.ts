// Real Folio processes on loopback for the scale suite, started from the compiled entry points
// (`npm run build`, then `NODE_OPTIONS=--conditions=folio-dist node dist/<role>.js`), as the image runs them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const BACKEND_DIR = path.resolve(import.meta.dirname, '..');

export type Role = 'main' | 'worker' | 'migrate' | 'sweep';

export interface FolioProcess {
  name: string;
  child: ChildProcess;
  /** Parsed JSON log lines so far. */
  logs: Record<string, unknown>[];
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Whether `taskset` can pin a process to each of these cores here (Linux with util-linux, and the cores within the
 * set this process may run on): tried with `true`.
 */
export function canPinToCores(cores: readonly number[]): boolean {
  return cores.every((core) => spawnSync('taskset', ['--cpu-list', String(core), 'true']).status === 0);
}

/**
 * Starts `node dist/<role>.js`; with `core`, under `taskset` on that one core (its threads and the children it
 * starts, Tesseract's included, stay there), as a container given one cpuset core would run.
 */
export function startRole(
  name: string,
  role: Role,
  env: Record<string, string>,
  core?: number,
): FolioProcess {
  const node = [process.execPath, `dist/${role}.js`];
  // taskset execs the command, so the child's pid is node's own (signals and /proc figures reach it).
  const [command, ...args] = core === undefined ? node : ['taskset', '--cpu-list', String(core), ...node];
  // NODE_OPTIONS rather than a flag: worker threads started with their own execArgv still see it.
  const child = spawn(command!, args, {
    cwd: BACKEND_DIR,
    env: { ...env, NODE_OPTIONS: '--conditions=folio-dist' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let pending = '';
  const collect = (chunk: Buffer) => {
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
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let stopping = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      // A process that ends on its own is a finding: show what it said last.
      if (!stopping && code !== 0) {
        const last = logs.slice(-15).map((l) => JSON.stringify(l));
        console.error(`${name} exited (${code ?? signal}):\n${last.join('\n')}`);
      }
      resolve(code);
    }),
  );
  return {
    name,
    child,
    logs,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      stopping = true;
      child.kill(signal);
      return exited;
    },
  };
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 120_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await Promise.resolve()
      .then(check)
      .catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export async function waitReady(baseUrl: string, timeoutMs = 90_000): Promise<void> {
  await waitFor(
    `${baseUrl}/api/v1/ready`,
    async () => ((await fetch(`${baseUrl}/api/v1/ready`)).ok ? true : undefined),
    timeoutMs,
    200,
  );
}

/** One sample of a Prometheus counter or gauge without labels from a metrics page. */
export async function metricValue(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
