// Scale-out proven with real processes on loopback: 2 API nodes and 2 workers from the compiled entry points,
// the shared PostgreSQL (a schema of its own), the shared Redis (a key prefix of its own), and s3rver as the
// S3-compatible bucket. Prints the figures recorded in deploy/README.md, each with the load average beside it.
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { RealtimeEvent } from '../src/realtime/realtime-event.js';
import { Redis } from 'ioredis';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreditsService } from '../src/credits/credits.service.js';
import { RedisEventBus } from '../src/realtime/redis-event-bus.js';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database.js';
import { openSocket, settle, type TestSocket } from '../test/realtime/socket-client.js';
import { degradedPage, pngCrop, tiffPages } from '../test/restoration/fixtures.js';
import { workerEnv } from '../test/restoration/worker-process.js';
import {
  canPinToCores,
  freePort,
  metricValue,
  percentile,
  startRole,
  waitFor,
  waitReady,
  type FolioProcess,
} from './cluster.js';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const prefix = `folio-scale-${randomUUID()}`;
const SIGNUP_CREDITS = 50;

let database: TestDatabase;
let s3: S3rver;
let s3Dir: string;
let baseEnv: Record<string, string>;
const processes: FolioProcess[] = [];
const api: { url: string; port: number; process: FolioProcess }[] = [];
const workers: { metricsUrl: string; process: FolioProcess }[] = [];
const figures: string[] = [];

function load(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

/** CPU seconds (user + system) a process and its waited-for children have used: /proc/PID/stat. */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // After the command: state is field 3, utime..cstime fields 14..17 (1-based).
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  return ticks / 100;
}

/** Busy CPU seconds of the whole machine so far (/proc/stat: all but idle and iowait). */
function machineBusySeconds(): number {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const ticks = values.map(Number);
  return (ticks.reduce((a, b) => a + b, 0) - ticks[3]! - ticks[4]!) / 100;
}

function figure(text: string): void {
  const line = `${text}  [load average ${load()}]`;
  figures.push(line);
  console.log(`FIGURE ${line}`);
}

function start(
  name: string,
  role: 'main' | 'worker' | 'sweep',
  env: Record<string, string>,
  core?: number,
): FolioProcess {
  const child = startRole(name, role, { ...baseEnv, ...env }, core);
  processes.push(child);
  return child;
}

async function startApi(port?: number): Promise<{ url: string; port: number; process: FolioProcess }> {
  const listenOn = port ?? (await freePort());
  const node = start(`api-${listenOn}`, 'main', { PORT: String(listenOn), JOB_CONCURRENCY: '0' });
  const url = `http://127.0.0.1:${listenOn}`;
  await waitReady(url);
  return { url, port: listenOn, process: node };
}

// Each worker on a core of its own (slot 0 on core 0, slot 1 on core 1), so that "1 worker" and "2 workers" mean one
// core and two cores of engine work, whatever the worker's other threads do; the API nodes, PostgreSQL, Redis and
// s3rver float. Unpinned where cores 0 and 1 cannot both be had (no taskset, one core, a narrower CPU set), or with
// FOLIO_SCALE_PIN_WORKERS=false, for comparison.
const PIN_WORKERS = process.env.FOLIO_SCALE_PIN_WORKERS !== 'false' && canPinToCores([0, 1]);

async function startWorker(slot: number): Promise<{ metricsUrl: string; process: FolioProcess }> {
  const metricsPort = await freePort();
  const core = PIN_WORKERS ? slot % 2 : undefined;
  const node = start(
    `worker-${metricsPort}`,
    'worker',
    { METRICS_PORT: String(metricsPort), JOB_CONCURRENCY: '1' },
    core,
  );
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  await waitReady(`http://127.0.0.1:${metricsPort}`);
  return { metricsUrl, process: node };
}

interface User {
  id: string;
  token: string;
  auth: Record<string, string>;
}

async function signUp(node: string, name: string): Promise<User> {
  const login = await fetch(`${node}/api/v1/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${name}-${randomUUID()}@example.test`, name }),
  });
  const { token, user } = (await login.json()) as { token: string; user: { id: string } };
  const auth = { authorization: `Bearer ${token}` };
  const registered = await fetch(`${node}/api/v1/users/register`, { method: 'POST', headers: auth });
  expect(registered.status).toBe(200);
  return { id: user.id, token, auth };
}

async function upload(node: string, user: User, bytes: Buffer, name: string, mime: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: mime }), name);
  const response = await fetch(`${node}/api/v1/files/upload`, {
    method: 'POST',
    headers: user.auth,
    body: form,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { file_id: string }).file_id;
}

async function restore(node: string, user: User, fileId: string, filename: string): Promise<string> {
  const fields = new FormData();
  fields.append('file_id', fileId);
  fields.append('filename', filename);
  const response = await fetch(`${node}/api/v1/restoration/restore`, {
    method: 'POST',
    headers: user.auth,
    body: fields,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { job_id: string } }).data.job_id;
}

async function openOn(node: string, user: User): Promise<TestSocket> {
  const socket = openSocket(node, user.token);
  await socket.opened;
  await settle(200); // the node's Redis subscription is active before events are published
  return socket;
}

function completedJobs(socket: TestSocket): Set<string> {
  return new Set(
    socket.events
      .filter((e) => e.type === 'restoration.completed')
      .map((e) => (e as RealtimeEvent & { jobId: string }).jobId),
  );
}

async function balance(userId: string): Promise<number> {
  return new CreditsService().balance(database.db, userId);
}

async function restoredPages(): Promise<number[]> {
  return Promise.all(workers.map((w) => metricValue(w.metricsUrl, 'folio_pages_restored_total')));
}

/** A small PNG crop: the job path's overhead outweighs its restoration. */
const smallPage = (i: number): Promise<Buffer> => pngCrop(180 + (i % 7) * 20);

/**
 * A whole scanned page (1275×1650 at 150 DPI), the public set's first six in turn, each with other damage: its
 * restoration, not the job path, takes the time.
 */
const fullPage = (i: number): Promise<Buffer> => degradedPage(1 + (i % 6));

/**
 * Restores one PNG per (user, socket) pair and returns pages per minute from the first restore request to the last
 * event.
 */
async function restoreBatch(
  pairs: readonly { user: User; socket: TestSocket; node: string }[],
  page: (i: number) => Promise<Buffer> = smallPage,
  onClockStart?: () => void,
): Promise<number> {
  const uploads = await Promise.all(
    pairs.map(async ({ user, node }, i) => upload(node, user, await page(i), `p${i}.png`, 'image/png')),
  );
  // The clock starts once the API nodes have rendered the uploads' previews, as a user's uploads would be done
  // before they press Restore; the previews of the restored files, rendered during the batch, count.
  await waitFor(`${uploads.length} upload previews`, () =>
    uploads.every((id, i) =>
      pairs[i]!.socket.events.some((e) => e.type === 'file.preview.ready' && e.fileId === id),
    )
      ? true
      : undefined,
  );
  onClockStart?.();
  const startedAt = Date.now();
  const jobs = await Promise.all(
    pairs.map(({ user, node }, i) => restore(node, user, uploads[i] ?? '', `p${i}.png`)),
  );
  await waitFor(
    `${jobs.length} restorations`,
    () => (jobs.every((job, i) => completedJobs(pairs[i]!.socket).has(job)) ? true : undefined),
    240_000,
  );
  return (jobs.length * 60_000) / (Date.now() - startedAt);
}

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  s3Dir = await mkdtemp(path.join(tmpdir(), 'folio-scale-s3-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
  const { port: s3Port } = await s3.run();
  const admin = new S3Client({
    endpoint: `http://127.0.0.1:${s3Port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await admin.send(new CreateBucketCommand({ Bucket: 'folio-scale' }));
  admin.destroy();
  baseEnv = workerEnv(database, {
    REDIS_URL,
    JOB_QUEUE: 'bullmq',
    JOB_QUEUE_PREFIX: prefix,
    JOB_LEASE_MS: '3000',
    S3_ENDPOINT_URL: `http://127.0.0.1:${s3Port}`,
    S3_BUCKET: 'folio-scale',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    SIGNUP_CREDITS: String(SIGNUP_CREDITS),
    DEV_LOGIN: 'true',
    LOG_LEVEL: 'info',
    MIGRATE_AT_START: 'false',
    RETENTION_SWEEP_IN_API: 'false',
    SHUTDOWN_GRACE_SECONDS: '20',
    // One engine thread per worker (and one libvips thread; Tesseract children run one thread each), so two
    // workers use two cores.
    FOLIO_ENGINE_THREADS: '1',
    VIPS_CONCURRENCY: '1',
  });
  // The one-shot migrate step, as the compose file runs it before the other roles.
  const migrate = startRole('migrate', 'migrate', baseEnv);
  expect(await migrate.exited).toBe(0);
  for (let i = 0; i < 2; i += 1) api.push(await startApi());
  workers.push(await startWorker(0));
}, 240_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  await s3?.close();
  if (s3Dir) await rm(s3Dir, { recursive: true, force: true });
  await database?.cleanup();
  console.log(['', 'Scale suite figures:', ...figures.map((line) => `  ${line}`)].join('\n'));
}, 60_000);

describe('scale-out: 2 API nodes, 2 workers, PostgreSQL, Redis, S3', () => {
  it('delivers to users on different API nodes only their own events', async () => {
    const [a, b] = [api[0]!.url, api[1]!.url];
    const alice = await signUp(a, 'alice');
    const bob = await signUp(b, 'bob');
    const aliceSocket = await openOn(a, alice);
    const bobSocket = await openOn(b, bob);
    const aliceFile = await upload(b, alice, await pngCrop(), 'a.png', 'image/png');
    const bobFile = await upload(a, bob, await pngCrop(220), 'b.png', 'image/png');
    const aliceJob = await restore(a, alice, aliceFile, 'a.png');
    const bobJob = await restore(b, bob, bobFile, 'b.png');
    await waitFor('both completed', () =>
      completedJobs(aliceSocket).has(aliceJob) && completedJobs(bobSocket).has(bobJob) ? true : undefined,
    );
    const fileOf = (e: RealtimeEvent) => JSON.stringify(e);
    expect(aliceSocket.events.every((e) => !fileOf(e).includes(bobFile) && !fileOf(e).includes(bobJob))).toBe(
      true,
    );
    expect(
      bobSocket.events.every((e) => !fileOf(e).includes(aliceFile) && !fileOf(e).includes(aliceJob)),
    ).toBe(true);
    expect(aliceSocket.events.some((e) => fileOf(e).includes(aliceFile))).toBe(true);
    await Promise.all([aliceSocket.close(), bobSocket.close()]);
  });

  // 22 whole pages and 20 crops on at most 2 workers: a time limit of its own. The whole pages cost about 9.3 s of
  // worker CPU each now; the test took 154 s on the idle development machine, and a CI run passed 180 s.
  it('spreads 20 restorations from 5 users over both workers; all complete with exact credits', async () => {
    // Pages per minute with one worker, then with two, on the same whole pages (6, then 12 from two users on
    // both API nodes); then 20 small restorations from 5 users, for the spread over the workers and the credits.
    const solo = await signUp(api[0]!.url, 'solo');
    const soloSocket = await openOn(api[1]!.url, solo);
    const soloPairs = Array.from({ length: 6 }, () => ({
      user: solo,
      socket: soloSocket,
      node: api[0]!.url,
    }));
    // A timed batch of whole pages on warm workers (one untimed page per worker first: the models load, the code
    // warms): pages per minute, and where the machine's CPU went: the workers' share of it and their CPU a page.
    const timedBatch = async (pairs: typeof soloPairs) => {
      await restoreBatch(pairs.slice(0, workers.length), fullPage);
      const workerCpu = () => workers.reduce((sum, w) => sum + cpuSeconds(w.process.child.pid), 0);
      let [busy0, cpu0] = [0, 0];
      const perMinute = await restoreBatch(pairs, fullPage, () => {
        [busy0, cpu0] = [machineBusySeconds(), workerCpu()];
      });
      const [busy, cpu] = [machineBusySeconds() - busy0, workerCpu() - cpu0];
      const share = `workers ${((100 * cpu) / busy).toFixed(0)} % of the machine's busy CPU`;
      return { perMinute, note: `${(cpu / pairs.length).toFixed(2)} s worker CPU a page, ${share}` };
    };
    const pinned = PIN_WORKERS ? ', each worker on a core of its own' : ', workers not pinned to cores';
    const one = await timedBatch(soloPairs);
    const onePerMinute = one.perMinute;
    figure(
      `restoration, 1 worker: ${onePerMinute.toFixed(1)} pages/min (6 whole scanned pages, 1 engine thread${pinned}; ${one.note})`,
    );
    await soloSocket.close();

    workers.push(await startWorker(1));
    const pair = await Promise.all([signUp(api[0]!.url, 'duo-a'), signUp(api[1]!.url, 'duo-b')]);
    const pairSockets = await Promise.all(pair.map((user, i) => openOn(api[1 - i]!.url, user)));
    const duoPairs = Array.from({ length: 12 }, (_, i) => ({
      user: pair[i % 2]!,
      socket: pairSockets[i % 2]!,
      node: api[i % 2]!.url,
    }));
    const two = await timedBatch(duoPairs);
    const twoPerMinute = two.perMinute;
    figure(
      `restoration, 2 workers: ${twoPerMinute.toFixed(1)} pages/min (12 whole scanned pages, 2 users; ${two.note})`,
    );
    figure(`restoration speed-up, 2 workers over 1: ${(twoPerMinute / onePerMinute).toFixed(2)}x`);
    await Promise.all(pairSockets.map((socket) => socket.close()));

    const before = await restoredPages();
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => signUp(api[i % 2]!.url, `user${i}`)));
    const sockets = await Promise.all(users.map((user, i) => openOn(api[(i + 1) % 2]!.url, user)));
    const pairs = Array.from({ length: 20 }, (_, i) => ({
      user: users[i % 5]!,
      socket: sockets[i % 5]!,
      node: api[i % 2]!.url,
    }));
    await restoreBatch(pairs);
    const after = await restoredPages();
    const perWorker = after.map((value, i) => value - (before[i] ?? 0));
    console.log(`pages restored per worker in the 20-job batch: ${perWorker.join(', ')}`);
    expect(perWorker.every((count) => count > 0)).toBe(true);
    expect(perWorker.reduce((sum, n) => sum + n, 0)).toBe(20);
    for (const user of users) expect(await balance(user.id)).toBe(SIGNUP_CREDITS - 4);
    await Promise.all(sockets.map((socket) => socket.close()));
  }, 600_000);

  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`finishes on the other worker a job whose worker got ${signal} mid-job, credits exact`, async () => {
      const user = await signUp(api[0]!.url, `crash-${signal}`);
      const socket = await openOn(api[1]!.url, user);
      const fileId = await upload(api[0]!.url, user, await tiffPages(4), 'four.tiff', 'image/tiff');
      const before = await restoredPages();
      const jobId = await restore(api[0]!.url, user, fileId, 'four.tiff');
      // The worker that restored the first page holds the job.
      const holder = await waitFor('the first page', async () => {
        const now = await restoredPages();
        const index = now.findIndex((value, i) => value > (before[i] ?? 0));
        return index >= 0 ? index : undefined;
      });
      const victim = workers[holder]!;
      const stoppedAt = Date.now();
      const code = await victim.process.stop(signal);
      if (signal === 'SIGTERM') {
        // Drained: it finished the page in progress, handed the job back and exited cleanly.
        expect(code).toBe(0);
        console.log(`worker drained on SIGTERM in ${Date.now() - stoppedAt} ms`);
      }
      await waitFor('the job to complete elsewhere', () =>
        completedJobs(socket).has(jobId) ? true : undefined,
      );
      expect(socket.events.some((e) => e.type === 'restoration.failed')).toBe(false);
      expect(await balance(user.id)).toBe(SIGNUP_CREDITS - 4);
      const refunds = await database.db
        .selectFrom('credit_ledger')
        .select('reference')
        .where('user_id', '=', user.id)
        .where('reason', '=', 'refund')
        .execute();
      expect(refunds).toEqual([]);
      workers[holder] = await startWorker(holder);
      await socket.close();
    });
  }

  it('loses no upload when an API node is restarted mid-upload; its sockets reconnect to the other node', async () => {
    const [a, b] = [api[0]!, api[1]!];
    const user = await signUp(b.url, 'restart');
    const socket = await openOn(a.url, user);
    // A multipart body sent slowly, so the node receives SIGTERM while the upload is in flight.
    const bytes = await pngCrop(100, 100, 900, 700);
    const boundary = `----folio${randomUUID()}`;
    const head = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="slow.png"\r\ncontent-type: image/png\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([head, bytes, tail]);
    const chunks = 10;
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= chunks) {
          controller.close();
          return;
        }
        const size = Math.ceil(body.length / chunks);
        controller.enqueue(new Uint8Array(body.subarray(sent * size, (sent + 1) * size)));
        sent += 1;
        await new Promise((resolve) => setTimeout(resolve, 200));
      },
    });
    const uploading = fetch(`${a.url}/api/v1/files/upload`, {
      method: 'POST',
      headers: { ...user.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: 'half',
    });
    await waitFor('the upload to be in flight', () => (sent >= 3 ? true : undefined));
    const stopping = a.process.stop('SIGTERM');
    const closed = await socket.closed;
    expect(closed.code).toBe(1001);
    const response = await uploading;
    expect(response.status).toBe(200);
    const { file_id: fileId } = (await response.json()) as { file_id: string };
    expect(await stopping).toBe(0);

    // The client reconnects (through the load balancer) to the other node and carries on there.
    const again = await openOn(b.url, user);
    const listed = (await (await fetch(`${b.url}/api/v1/files/all`, { headers: user.auth })).json()) as {
      files: { id?: string; file_id?: string }[];
    };
    expect(JSON.stringify(listed)).toContain(fileId);
    const jobId = await restore(b.url, user, fileId, 'slow.png');
    await waitFor('the restoration after reconnecting', () =>
      completedJobs(again).has(jobId) ? true : undefined,
    );
    await again.close();
    api[0] = await startApi(a.port);
  });

  it('runs the retention sweep on one process of the fleet: each expired file is deleted once', async () => {
    const user = await signUp(api[0]!.url, 'sweep');
    const socket = await openOn(api[1]!.url, user);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push(await upload(api[0]!.url, user, await pngCrop(150 + i * 30), `old${i}.png`, 'image/png'));
    await database.db
      .updateTable('files')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', 'in', ids)
      .execute();
    const sweepers = [1, 2].map((n) =>
      start(`sweep-${n}`, 'sweep', { RETENTION_SWEEP_INTERVAL_SECONDS: '1' }),
    );
    const deletedIds = () =>
      socket.events
        .filter((e) => e.type === 'file.deleted')
        .map((e) => (e as RealtimeEvent & { fileId: string }).fileId);
    await waitFor(
      '3 files deleted',
      () => (ids.every((id) => deletedIds().includes(id)) ? true : undefined),
      60_000,
    );
    await settle(3_000); // a few more sweep intervals on both processes
    expect(deletedIds().sort()).toEqual([...ids].sort());
    const rows = await database.db.selectFrom('files').select('id').where('id', 'in', ids).execute();
    expect(rows).toEqual([]);
    const expiredBySweeper = sweepers.map((p) =>
      p.logs.filter((l) => l.msg === 'retention sweep').reduce((sum, l) => sum + Number(l.expired ?? 0), 0),
    );
    expect(expiredBySweeper.reduce((sum, n) => sum + n, 0)).toBe(3);
    await Promise.all(sweepers.map((p) => p.stop('SIGTERM')));
    await socket.close();
  });

  it('measures event latency across nodes and GET /files/all requests per second on 1 and 2 nodes', async () => {
    const user = await signUp(api[0]!.url, 'figures');
    const socket = await openOn(api[1]!.url, user);
    // Published the way a worker publishes (RedisEventBus), received on a socket of the other API node.
    const bus = new RedisEventBus(REDIS_URL);
    const latencies: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const sentAt = performance.now();
      const count = socket.events.length;
      await bus.publish(user.id, { type: 'file.deleted', fileId: `latency-${i}` });
      await waitFor('the event', () => (socket.events.length > count ? true : undefined), 5_000, 0);
      latencies.push(performance.now() - sentAt);
    }
    await bus.close();
    latencies.sort((x, y) => x - y);
    figure(
      `event latency worker -> Redis -> other API node -> socket: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (200 events)`,
    );
    await socket.close();

    const hammer = async (urls: readonly string[], seconds: number, connections: number): Promise<number> => {
      const until = Date.now() + seconds * 1000;
      let done = 0;
      await Promise.all(
        Array.from({ length: connections }, async (_, c) => {
          for (let n = c; Date.now() < until; n += 1) {
            const response = await fetch(`${urls[n % urls.length]}/api/v1/files/all`, { headers: user.auth });
            await response.arrayBuffer();
            if (response.ok) done += 1;
          }
        }),
      );
      return done / seconds;
    };
    for (let i = 0; i < 5; i += 1)
      await upload(api[0]!.url, user, await pngCrop(150 + i * 20), `l${i}.png`, 'image/png');
    const one = await hammer([api[0]!.url], 5, 16);
    const two = await hammer([api[0]!.url, api[1]!.url], 5, 16);
    figure(
      `GET /files/all: ${one.toFixed(0)} req/s on 1 API node, ${two.toFixed(0)} req/s on 2 (16 connections, 5 s each, load tool in the same machine)`,
    );
    expect(one).toBeGreaterThan(0);
    expect(two).toBeGreaterThan(0);
  });

  it('readiness goes 503 naming the queue when Redis stops, and back to 200 when it returns', async () => {
    const redisPort = await freePort();
    const startRedis = (): ChildProcess =>
      spawn(
        'redis-server',
        ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
    let redis = startRedis();
    const stopRedis = async (server: ChildProcess) => {
      server.kill('SIGTERM');
      if (server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
    };
    try {
      await waitFor('own redis-server', async () => {
        const probe = new Redis(`redis://127.0.0.1:${redisPort}`, {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
        });
        probe.on('error', () => undefined);
        try {
          await probe.connect();
          return (await probe.ping()) === 'PONG' ? true : undefined;
        } finally {
          probe.disconnect();
        }
      });
      const port = await freePort();
      const node = start(`api-own-redis`, 'main', {
        PORT: String(port),
        JOB_CONCURRENCY: '0',
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      });
      const url = `http://127.0.0.1:${port}`;
      await waitReady(url);
      await stopRedis(redis);
      const down = await waitFor(
        '503',
        async () => {
          const response = await fetch(`${url}/api/v1/ready`);
          return response.status === 503 ? ((await response.json()) as { detail: string }) : undefined;
        },
        30_000,
        250,
      );
      expect(down.detail).toBe('Not ready: queue unreachable');
      redis = startRedis();
      await waitFor(
        '200 again',
        async () => ((await fetch(`${url}/api/v1/ready`)).ok ? true : undefined),
        60_000,
        250,
      );
      await node.stop('SIGTERM');
    } finally {
      await stopRedis(redis);
    }
  });
});
