// Starts the real backend (node --import tsx backend/src/main.ts) on a free loopback port with a fresh
// data directory, and waits for /api/v1/health.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { INHERITED_ENV, REPO_ROOT } from './settings.js';

export async function freePort(): Promise<number> {
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

export interface RunningBackend {
  url: string;
  dataDir: string;
  log: () => string;
  stop: () => Promise<void>;
}

export async function startBackend(env: Record<string, string>): Promise<RunningBackend> {
  if (!existsSync(path.join(REPO_ROOT, 'web/dist/index.html'))) {
    throw new Error('web/dist is missing: run `npm run build -w @folio/web` first (make test does)');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'folio-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'backend/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...INHERITED_ENV,
      FOLIO_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      FOLIO_DATA_DIR: dataDir,
      PUBLIC_BASE_URL: url,
      DATABASE_URL: '',
      REDIS_URL: '',
      STRIPE_SECRET_KEY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`backend exited with ${child.exitCode}:\n${output.slice(-3000)}`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`backend did not become healthy in 90 s:\n${output.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  return {
    url,
    dataDir,
    log: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
