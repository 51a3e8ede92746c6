// Load figures of issue 16 for `make bench` (figures only, no assertions), each beside a minimal Fastify app
// (scripts/bench-baseline.ts) loaded the same way in the same run, all on loopback:
//   - uploads of a 1 MB PNG: uploads/s and p99 (autocannon, 4 connections),
//   - GET /files/all for a user with 1,000 files: req/s and p99 at 16 connections, with /health beside it,
//   - 1,000 WebSockets held BENCH_WS_SECONDS (default 60), then one event that must reach every socket,
//   - the resident memory of each process at the end (API, its reader children, baseline, this client).
// BENCH_SECONDS (default 5) is the length of each autocannon case; BENCH_SOCKETS the number of sockets.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import WebSocket from 'ws';
import { freePort, startApi, stop, type Proc } from './bench-jobs.js';
import { seedFiles } from './seed-files.js';
import { loadSeconds, socketCount, socketSeconds } from './settings.js';

const SECONDS = loadSeconds;
const WS_SECONDS = socketSeconds;
const SOCKETS = socketCount;
const FILES = 1000;
const BACKEND_DIR = path.resolve(import.meta.dirname, '..');

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    )?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

function childrenOf(pid: number): number[] {
  const pids: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (list) pids.push(...list.split(' ').map(Number));
  }
  return pids;
}

function line(label: string, result: autocannon.Result): string {
  const { latency, requests, non2xx, errors, statusCodeStats } = result;
  const codes = Object.entries(statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, stats]) => `${stats.count ?? 0}× ${code}`)
    .join(', ');
  const failures = non2xx + errors > 0 ? `, ${non2xx} non-2xx (${codes}), ${errors} errors` : '';
  return `${label.padEnd(44)} ${String(Math.round(requests.average)).padStart(6)} req/s  p50 ${latency.p50} ms  p99 ${latency.p99} ms  max ${latency.max} ms${failures}`;
}

// The API answers at most MAX_REQUESTS_PER_SOCKET (1000) requests on one keep-alive socket, then asks the client
// to close it, and answers 503 to what comes after on that socket. autocannon does not honour that, so every
// client (Folio's and the baseline's alike) opens a new connection after 500 requests, as a browser would.
const load = (opts: autocannon.Options) => autocannon({ duration: SECONDS, reconnectRate: 500, ...opts });

/** A multipart body of one file, and its content type. */
function multipart(bytes: Buffer, name: string): { body: Buffer; type: string } {
  const boundary = `----folio${randomUUID()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/api/v1/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `load-${randomUUID()}@example.test`, name: 'Load' }),
  });
  return ((await response.json()) as { token: string }).token;
}

/** Opens `count` sockets (100 at a time), holds them, then counts how many get the message `trigger` causes. */
async function sockets(
  url: string,
  count: number,
  trigger: () => Promise<void>,
): Promise<{ open: number; openMs: number; stillOpen: number; delivered: number; deliveryMs: number }> {
  const all: WebSocket[] = [];
  const received = new Set<WebSocket>();
  let lastAt = 0;
  const opened = performance.now();
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from({ length: Math.min(100, count - i) }, () => new WebSocket(url));
    all.push(...batch);
    await Promise.all(
      batch.map(
        (ws) =>
          new Promise<void>((resolve) => {
            ws.once('open', () => resolve());
            ws.once('error', () => resolve());
          }),
      ),
    );
  }
  const openMs = performance.now() - opened;
  const open = all.filter((ws) => ws.readyState === WebSocket.OPEN).length;
  await new Promise((resolve) => setTimeout(resolve, WS_SECONDS * 1000));
  const stillOpen = all.filter((ws) => ws.readyState === WebSocket.OPEN).length;
  const sent = performance.now();
  for (const ws of all)
    ws.on('message', () => {
      received.add(ws);
      lastAt = performance.now();
    });
  await trigger();
  for (let waited = 0; received.size < stillOpen && waited < 15_000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  for (const ws of all) ws.terminate();
  return { open, openMs, stillOpen, delivered: received.size, deliveryMs: lastAt ? lastAt - sent : NaN };
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'folio-bench-load-'));
const procs: Proc[] = [];
try {
  const { api, proc } = await startApi({
    FOLIO_DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    S3_BUCKET: '',
    RATE_LIMIT_UPLOAD_PER_MINUTE: '1000000',
    RATE_LIMIT_SIGNIN_PER_MINUTE: '1000',
    STORAGE_QUOTA_MB: '1000000',
  });
  procs.push(proc);
  const me = (await (await fetch(`${api.base}/api/v1/users/me`, { headers: api.auth })).json()) as {
    id: string;
  };
  await seedFiles(dataDir, me.id, FILES);
  const everything = await (await fetch(`${api.base}/api/v1/files/all`, { headers: api.auth })).text();

  const port = await freePort();
  const baseline = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/bench-baseline.ts', String(port), String(everything.length)],
    {
      cwd: BACKEND_DIR,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  procs.push({ child: baseline, exited: new Promise((resolve) => baseline.once('exit', resolve)) });
  const plain = `http://127.0.0.1:${port}`;
  for (let i = 0; !(await fetch(`${plain}/health`).catch(() => undefined))?.ok; i++) {
    if (i > 300) throw new Error('the baseline app did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  console.log(
    `Load on loopback (${process.version}, SQLite, local disk; ${SECONDS} s a case, autocannon in this process)`,
  );
  console.log(`GET /files/all: ${FILES} files, ${(everything.length / 1024).toFixed(0)} KB an answer`);
  for (const [label, url, headers] of [
    ['folio /files/all (everything)', `${api.base}/api/v1/files/all`, api.auth],
    [
      'folio /files/all?type=original&limit=48',
      `${api.base}/api/v1/files/all?type=original&limit=48`,
      api.auth,
    ],
    ['baseline static JSON of the same size', `${plain}/list`, {}],
  ] as const) {
    const health = label.startsWith('baseline') ? `${plain}/health` : `${api.base}/api/v1/health`;
    const [list, beside] = await Promise.all([
      load({ url, connections: 16, headers }),
      load({ url: health, connections: 1 }),
    ]);
    console.log(line(`${label}, 16 connections`, list));
    console.log(line('  /health meanwhile, 1 connection', beside));
  }

  const side = 580; // noise does not compress: 580 × 580 RGB is a ~1 MB PNG
  const png = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  const { body, type } = multipart(png, 'load.png');
  const uploader = await signIn(api.base);
  console.log(`uploads of a ${(png.length / 2 ** 20).toFixed(2)} MB PNG, 4 connections`);
  const folioUploads = await load({
    url: `${api.base}/api/v1/files/upload`,
    method: 'POST',
    connections: 4,
    body,
    headers: { 'content-type': type, authorization: `Bearer ${uploader}` },
  });
  console.log(line('folio POST /files/upload', folioUploads));
  const plainUploads = await load({
    url: `${plain}/upload`,
    method: 'POST',
    connections: 4,
    body,
    headers: { 'content-type': type },
  });
  console.log(line('baseline POST reading the body', plainUploads));

  console.log(`${SOCKETS} WebSockets held ${WS_SECONDS} s, then one event to all of them`);
  const wsBase = api.base.replace('http', 'ws');
  const small = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  const folioWs = await sockets(`${wsBase}/api/v1/ws/updates?token=${api.token}`, SOCKETS, async () => {
    const form = new FormData();
    form.append('file', new Blob([small]), 'ping.png');
    await fetch(`${api.base}/api/v1/files/upload`, { method: 'POST', headers: api.auth, body: form });
  });
  const plainWs = await sockets(`${plain.replace('http', 'ws')}/ws`, SOCKETS, async () => {
    await fetch(`${plain}/broadcast`, { method: 'POST' });
  });
  for (const [label, r] of [
    ['folio', folioWs],
    ['baseline', plainWs],
  ] as const)
    console.log(
      `${label.padEnd(8)} ${r.open}/${SOCKETS} open in ${Math.round(r.openMs)} ms, ${r.stillOpen} still open after ${WS_SECONDS} s, event delivered to ${r.delivered} in ${Math.round(r.deliveryMs)} ms`,
    );

  const apiPid = proc.child.pid!;
  console.log('resident memory at the end (now / peak):');
  console.log(
    `  folio API process       ${Math.round(status(apiPid, 'VmRSS'))} / ${Math.round(status(apiPid, 'VmHWM'))} MB`,
  );
  for (const pid of childrenOf(apiPid)) {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const what = cmd.some((part) => part.endsWith('sandbox-child.ts') || part.endsWith('sandbox-child.js'))
      ? 'folio reader child'
      : `child ${path.basename(cmd[0] ?? '?')}`;
    console.log(
      `  ${what.padEnd(22)}  ${Math.round(status(pid, 'VmRSS'))} / ${Math.round(status(pid, 'VmHWM'))} MB`,
    );
  }
  console.log(
    `  baseline process        ${Math.round(status(baseline.pid!, 'VmRSS'))} / ${Math.round(status(baseline.pid!, 'VmHWM'))} MB`,
  );
  console.log(
    `  this client             ${Math.round(status(process.pid, 'VmRSS'))} / ${Math.round(status(process.pid, 'VmHWM'))} MB`,
  );
} finally {
  await stop(procs);
  rmSync(dataDir, { recursive: true, force: true });
}
