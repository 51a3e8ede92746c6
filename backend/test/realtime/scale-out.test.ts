// Scale-out: two API processes (no embedded worker), one worker process, BullMQ and pub/sub on Redis, one
// database. A restoration started on one API node is run by the worker, and its events reach the user's
// sockets on both API nodes.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { pngCrop } from '../restoration/fixtures.js';
import { startWorker, waitFor, workerEnv, type WorkerProcess } from '../restoration/worker-process.js';
import { openSocket } from './socket-client.js';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const prefix = `folio-scale-${randomUUID()}`;
let database: TestDatabase;
const processes: WorkerProcess[] = [];
const apiUrls: string[] = [];

function freePort(): Promise<number> {
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

beforeAll(async () => {
  database = await createTestDatabase();
  const shared = {
    REDIS_URL,
    JOB_QUEUE: 'bullmq',
    JOB_QUEUE_PREFIX: prefix,
    SIGNUP_CREDITS: '10',
    DEV_LOGIN: 'true',
    LOG_LEVEL: 'warn',
  };
  for (let node = 0; node < 2; node += 1) {
    const port = await freePort();
    const api = startWorker(
      workerEnv(database, { ...shared, PORT: String(port), JOB_CONCURRENCY: '0' }),
      'src/main.ts',
    );
    processes.push(api);
    apiUrls.push(`http://127.0.0.1:${port}`);
  }
  processes.push(startWorker(workerEnv(database, { ...shared, JOB_CONCURRENCY: '1' })));
  for (const url of apiUrls) {
    await waitFor(
      `${url} to answer`,
      async () => {
        const response = await fetch(`${url}/api/v1/health`).catch(() => undefined);
        return response?.ok ? true : undefined;
      },
      60_000,
    );
  }
}, 90_000);

afterAll(async () => {
  await Promise.all(processes.map((child) => child.kill('SIGTERM')));
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  await database.cleanup();
});

describe('two API nodes, one worker, Redis', () => {
  it("delivers the worker's restoration events to the user's sockets on both API nodes", async () => {
    const [nodeA, nodeB] = apiUrls as [string, string];
    const login = await fetch(`${nodeA}/api/v1/auth/dev-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'scale@example.test', name: 'Scale' }),
    });
    const { token } = (await login.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${nodeB}/api/v1/users/register`, { method: 'POST', headers: auth })).status).toBe(
      200,
    );

    const onA = openSocket(nodeA, token);
    const onB = openSocket(nodeB, token);
    await Promise.all([onA.opened, onB.opened]);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const form = new FormData();
    form.append('file', new Blob([await pngCrop()], { type: 'image/png' }), 'scan.png');
    const upload = await fetch(`${nodeA}/api/v1/files/upload`, { method: 'POST', headers: auth, body: form });
    expect(upload.status).toBe(200);
    const { file_id: fileId } = (await upload.json()) as { file_id: string };

    const fields = new FormData();
    fields.append('file_id', fileId);
    fields.append('filename', 'scan.png');
    const started = await fetch(`${nodeB}/api/v1/restoration/restore`, {
      method: 'POST',
      headers: auth,
      body: fields,
    });
    expect(started.status).toBe(200);
    const { data, credits_remaining } = (await started.json()) as {
      data: { job_id: string };
      credits_remaining: number;
    };
    expect(credits_remaining).toBe(9);

    const completedOn = async (socket: ReturnType<typeof openSocket>): Promise<RealtimeEvent[]> =>
      waitFor(
        'restoration.completed',
        () =>
          Promise.resolve(
            socket.events.some((e) => e.type === 'restoration.completed') ? socket.events : undefined,
          ),
        90_000,
      );
    for (const events of [await completedOn(onA), await completedOn(onB)]) {
      const restoration = events.filter((e) => e.type.startsWith('restoration.'));
      // Progress when the page starts (nothing done yet) and when it ends, then the completion.
      expect(restoration.map((e) => e.type)).toEqual([
        'restoration.progress',
        'restoration.progress',
        'restoration.completed',
      ]);
      expect(restoration[0]).toMatchObject({
        jobId: data.job_id,
        fileId,
        currentPage: 1,
        totalPages: 1,
        successfulPages: 0,
        credits_remaining: 9,
      });
      expect(restoration[1]).toMatchObject({ jobId: data.job_id, currentPage: 1, successfulPages: 1 });
      expect(restoration[2]).toMatchObject({
        jobId: data.job_id,
        original_file_id: fileId,
        credits_remaining: 9,
      });
      expect(events.some((e) => e.type === 'file.upload.completed')).toBe(true);
    }
    await Promise.all([onA.close(), onB.close()]);
  }, 150_000);
});
