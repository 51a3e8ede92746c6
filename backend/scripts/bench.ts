// `npm run bench -w @folio/backend`: API figures on this machine. Starts the real app (`src/main.ts`) as a
// child process on a temp SQLite file and prints figures only (no assertions):
//   - upload of a ~10 MB file (ms per run),
//   - GET /files/all with 1,000 files (p50/p99 ms),
//   - peak RSS of the API process during a 10 MB upload,
//   - restoration job figures (scripts/bench-jobs.ts),
//   - the fair throughput comparison with OCRmyPDF on one multi-page scanned PDF (scripts/bench-throughput.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { benchJobs } from './bench-jobs.js';
import { benchThroughput } from './bench-throughput.js';
import { seedFiles } from './seed-files.js';
import { childEnv } from './settings.js';

const BACKEND_DIR = path.resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

interface Api {
  child: ChildProcess;
  base: string;
  dataDir: string;
}

async function startApi(): Promise<Api> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'folio-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: BACKEND_DIR,
    env: {
      ...childEnv,
      FOLIO_ENV: 'development',
      FOLIO_DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      S3_BUCKET: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DEV_LOGIN: 'true',
      GOOGLE_CLIENT_ID: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the API exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error('the API did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, base, dataDir };
}

async function stopApi(api: Api): Promise<void> {
  const exited = new Promise((resolve) => api.child.once('exit', resolve));
  api.child.kill('SIGTERM');
  await exited;
  rmSync(api.dataDir, { recursive: true, force: true });
}

/** Resident set size of a process in MB, from /proc (Linux). */
function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match?.[1] ? Number(match[1]) / 1024 : NaN;
}

async function signIn(base: string): Promise<{ token: string; userId: string }> {
  const response = await fetch(`${base}/api/v1/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${randomUUID()}@example.test`, name: 'Bench' }),
  });
  const body = (await response.json()) as { token: string; user: { id: string } };
  return { token: body.token, userId: body.user.id };
}

/** A noise PNG just under the 10 MB limit: noise does not compress, so the file is as large as its pixels. */
async function tenMegabytePng(): Promise<Buffer> {
  const side = 1800;
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

async function uploadMs(base: string, token: string, bytes: Buffer): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), 'bench.png');
  const started = performance.now();
  const response = await fetch(`${base}/api/v1/files/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`upload failed: ${response.status}`);
  return performance.now() - started;
}

/** Waits until the background previews of the uploads are done, so they do not slow the next figures. */
async function previewsSettled(base: string, token: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const response = await fetch(`${base}/api/v1/files/all`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { files } = (await response.json()) as { files: { preview_available: boolean }[] };
    if (files.every((file) => file.preview_available)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const fmt = (n: number) => n.toFixed(1);

async function benchUploads(api: Api): Promise<void> {
  const pid = api.child.pid ?? 0;
  const { token } = await signIn(api.base);
  const file = await tenMegabytePng();
  const mb = file.length / 2 ** 20;

  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 10);
  const first = await uploadMs(api.base, token, file);
  await new Promise((resolve) => setTimeout(resolve, 500)); // the background preview of that upload
  peak = Math.max(peak, rssMb(pid));
  clearInterval(sampler);
  console.log(
    `API RSS during a ${fmt(mb)} MB upload: ${fmt(before)} MB before, peak ${fmt(peak)} MB (+${fmt(peak - before)} MB)`,
  );

  const runs = [first];
  for (let i = 0; i < 4; i++) runs.push(await uploadMs(api.base, token, file));
  const sorted = [...runs].sort((a, b) => a - b);
  await previewsSettled(api.base, token);
  console.log(
    `upload of a ${fmt(mb)} MB PNG: ${runs.map(fmt).join(', ')} ms (median ${fmt(percentile(sorted, 50))} ms)`,
  );
}

async function benchList(api: Api): Promise<void> {
  const { token, userId } = await signIn(api.base);
  // 1,000 rows written straight into the app's SQLite file (uploading them would measure uploads instead).
  await seedFiles(api.dataDir, userId, 1000);

  const headers = { authorization: `Bearer ${token}` };
  for (let i = 0; i < 10; i++) await (await fetch(`${api.base}/api/v1/files/all`, { headers })).arrayBuffer();
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    const response = await fetch(`${api.base}/api/v1/files/all`, { headers });
    count = ((await response.json()) as { files: unknown[] }).files.length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    `GET /files/all with ${count} files (200 calls): p50 ${fmt(percentile(times, 50))} ms, p99 ${fmt(percentile(times, 99))} ms`,
  );
}

const api = await startApi();
try {
  console.log(`Folio API bench (${process.version}, SQLite, local disk storage)`);
  await benchUploads(api);
  await benchList(api);
} finally {
  await stopApi(api);
}

await benchJobs();
await benchThroughput();
