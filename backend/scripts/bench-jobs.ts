// Job figures for `npm run bench -w @folio/backend` (figures only, no assertions):
//   - time from the restore call to the first progress event (embedded default: API + in-process worker),
//   - realtime latency publish → Redis → API node → socket, p50/p99 over 200 events (scale-out path),
//   - pages per minute with 1 and 2 worker processes (real PDF pages from the eval set).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RealtimeEvent } from '../src/realtime/realtime-event.js';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import WebSocket from 'ws';
import { RedisEventBus } from '../src/realtime/redis-event-bus.js';
import { childEnv, publicSet, redisUrl } from './settings.js';

const BACKEND_DIR = path.resolve(import.meta.dirname, '..');
const EVAL = publicSet;
const REDIS_URL = redisUrl;

export interface Proc {
  child: ChildProcess;
  exited: Promise<unknown>;
}

export function freePort(): Promise<number> {
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

export function start(entry: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: BACKEND_DIR,
    env: {
      ...childEnv,
      FOLIO_ENV: 'development',
      LOG_LEVEL: 'warn',
      DEV_LOGIN: 'true',
      GOOGLE_CLIENT_ID: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { child, exited: new Promise((resolve) => child.once('exit', resolve)) };
}

export async function stop(procs: Proc[]): Promise<void> {
  for (const proc of procs) proc.child.kill('SIGTERM');
  await Promise.all(procs.map((proc) => proc.exited));
}

export interface Api {
  base: string;
  token: string;
  auth: { authorization: string };
}

export async function startApi(env: Record<string, string>): Promise<{ api: Api; proc: Proc }> {
  const port = await freePort();
  const proc = start('src/main.ts', {
    ...env,
    HOST: '127.0.0.1',
    PORT: String(port),
    SIGNUP_CREDITS: '1000',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (proc.child.exitCode !== null) throw new Error('the API exited');
    if ((await fetch(`${base}/api/v1/health`).catch(() => undefined))?.ok) break;
    if (i > 600) throw new Error('the API did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const login = await fetch(`${base}/api/v1/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${randomUUID()}@example.test`, name: 'Bench' }),
  });
  const { token } = (await login.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  await fetch(`${base}/api/v1/users/register`, { method: 'POST', headers: auth });
  return { api: { base, token, auth }, proc };
}

export async function upload(api: Api, bytes: Buffer, name: string, mime: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: mime }), name);
  const response = await fetch(`${api.base}/api/v1/files/upload`, {
    method: 'POST',
    headers: api.auth,
    body: form,
  });
  if (!response.ok) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { file_id: string }).file_id;
}

export async function restore(api: Api, fileId: string): Promise<string> {
  const form = new FormData();
  form.append('file_id', fileId);
  const response = await fetch(`${api.base}/api/v1/restoration/restore`, {
    method: 'POST',
    headers: api.auth,
    body: form,
  });
  if (!response.ok) throw new Error(`restore failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: { job_id: string } }).data.job_id;
}

export function socket(api: Api): {
  ws: WebSocket;
  opened: Promise<void>;
  onEvent: (fn: (e: RealtimeEvent) => void) => void;
} {
  const ws = new WebSocket(`${api.base.replace('http', 'ws')}/api/v1/ws/updates?token=${api.token}`);
  const handlers: ((e: RealtimeEvent) => void)[] = [];
  ws.on('message', (data: Buffer) => {
    const event = JSON.parse(data.toString('utf8')) as RealtimeEvent;
    for (const handler of handlers) handler(event);
  });
  return {
    ws,
    opened: new Promise((resolve) => ws.once('open', () => resolve())),
    onEvent: (fn) => handlers.push(fn),
  };
}

const fmt = (n: number) => n.toFixed(1);
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function pdfOfPages(count: number): Promise<Buffer> {
  const source = await PDFDocument.load(readFileSync(path.join(EVAL, 'pdf_003/degraded.pdf')));
  const out = await PDFDocument.create();
  for (const page of await out.copyPages(
    source,
    Array.from({ length: count }, (_, i) => i),
  ))
    out.addPage(page);
  return Buffer.from(await out.save());
}

async function benchFirstProgress(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'folio-bench-jobs-'));
  const { api, proc } = await startApi({
    FOLIO_DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    JOB_CONCURRENCY: '1',
  });
  try {
    const sock = socket(api);
    await sock.opened;
    const inputs: [string, Buffer, string, string][] = [
      [
        '1-page PNG crop',
        await sharp(readFileSync(path.join(EVAL, 'doc_001/degraded.png')))
          .extract({ left: 200, top: 300, width: 600, height: 400 })
          .png()
          .toBuffer(),
        'crop.png',
        'image/png',
      ],
      ['3-page PDF', await pdfOfPages(3), 'three.pdf', 'application/pdf'],
    ];
    for (const [label, bytes, name, mime] of inputs) {
      const runs: string[] = [];
      for (let run = 0; run < 2; run++) {
        const fileId = await upload(api, bytes, name, mime);
        const started = performance.now();
        let jobId = '';
        const first = new Promise<number>((resolve) => {
          sock.onEvent((event) => {
            if (event.type === 'restoration.progress' && event.jobId === jobId)
              resolve(performance.now() - started);
          });
        });
        const done = new Promise<void>((resolve) => {
          sock.onEvent((event) => {
            if (
              (event.type === 'restoration.completed' || event.type === 'restoration.failed') &&
              event.jobId === jobId
            )
              resolve();
          });
        });
        jobId = await restore(api, fileId);
        runs.push(fmt(await first));
        await done;
      }
      console.log(
        `restore call → first progress event, ${label} (embedded worker): ${runs.join(', ')} ms (first run includes engine warm-up)`,
      );
    }
    sock.ws.close(1000);
  } finally {
    await stop([proc]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchEventLatency(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'folio-bench-jobs-'));
  const { api, proc } = await startApi({
    FOLIO_DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL,
    JOB_CONCURRENCY: '0',
    JOB_QUEUE: 'database',
  });
  const publisher = new RedisEventBus(REDIS_URL);
  try {
    const me = (await (await fetch(`${api.base}/api/v1/users/me`, { headers: api.auth })).json()) as {
      id: string;
    };
    const sock = socket(api);
    await sock.opened;
    let arrived: (() => void) | undefined;
    sock.onEvent(() => arrived?.());
    const deliver = async (n: number, timeoutMs: number): Promise<boolean> => {
      const received = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        arrived = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      // The worker's publish path: RedisEventBus → Redis → the API node's subscription → the socket.
      await publisher.publish(me.id, { type: 'credits.updated', credits_remaining: n });
      return received;
    };
    // The node subscribes to the user's channel when the socket opens; wait until that is live.
    while (!(await deliver(0, 200))) {
      /* not subscribed yet */
    }
    const latencies: number[] = [];
    for (let i = 0; i < 220; i++) {
      const sent = performance.now();
      if (!(await deliver(i, 5_000))) throw new Error('an event was lost');
      if (i >= 20) latencies.push(performance.now() - sent); // the first 20 warm up connections
    }
    latencies.sort((a, b) => a - b);
    console.log(
      `event latency publish → Redis → API node → socket (200 events): p50 ${fmt(percentile(latencies, 50))} ms, p99 ${fmt(percentile(latencies, 99))} ms`,
    );
    sock.ws.close(1000);
  } finally {
    await publisher.close();
    await stop([proc]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchThroughput(workers: number, jobs: number, pagesPerJob: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'folio-bench-jobs-'));
  const env = {
    FOLIO_DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    JOB_QUEUE: 'database',
    JOB_POLL_MS: '200',
  };
  const { api, proc } = await startApi({ ...env, JOB_CONCURRENCY: '0' });
  const workerProcs = Array.from({ length: workers }, () =>
    start('src/worker.ts', { ...env, JOB_CONCURRENCY: '1' }),
  );
  try {
    const pdf = await pdfOfPages(pagesPerJob);
    const fileIds: string[] = [];
    for (let i = 0; i < jobs; i++) fileIds.push(await upload(api, pdf, `bench-${i}.pdf`, 'application/pdf'));
    // Let the workers finish starting (module loading) so the figure is about restoring pages.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const started = performance.now();
    const jobIds: string[] = [];
    for (const fileId of fileIds) jobIds.push(await restore(api, fileId));
    let pages = 0;
    for (;;) {
      const states = await Promise.all(
        jobIds.map(
          async (id) =>
            (await (
              await fetch(`${api.base}/api/v1/restoration/jobs/${id}`, { headers: api.auth })
            ).json()) as { status: string; successful_pages: number; failed_pages: number },
        ),
      );
      if (states.every((s) => s.status === 'completed' || s.status === 'failed')) {
        pages = states.reduce((sum, s) => sum + s.successful_pages + s.failed_pages, 0);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const minutes = (performance.now() - started) / 60_000;
    console.log(
      `throughput with ${workers} worker process(es): ${pages} PDF pages in ${fmt(minutes * 60)} s = ${fmt(pages / minutes)} pages/min`,
    );
  } finally {
    await stop([...workerProcs, proc]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchJobs(): Promise<void> {
  console.log('Restoration jobs');
  await benchFirstProgress();
  await benchEventLatency();
  await benchThroughput(1, 2, 2);
  await benchThroughput(2, 2, 2);
}
