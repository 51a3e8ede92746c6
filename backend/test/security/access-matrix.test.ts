// The adversarial access matrix: two users over every API route and method (from the OpenAPI document, so
// a new route is covered the day it is added) and the WebSocket. Bob, signed in, aims every call at
// Alice's files, job and checkout; no answer may carry anything of hers and nothing of hers may change.
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInRegistered, type SignedIn } from '../helpers/auth.js';
import { addOriginal, png } from '../restoration/fixtures.js';
import { listFiles, startFilesApp, upload, type FilesHarness } from '../files/files-harness.js';
import { openSocket } from '../realtime/socket-client.js';

interface Operation {
  method: string;
  path: string;
  operationId: string;
  isPublic: boolean;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

let h: FilesHarness;
let alice: SignedIn;
let bob: SignedIn;
let aliceFile: string;
let aliceRestored: string;
let aliceJob: string;
let aliceCheckout: string;
let operations: Operation[];
/** Strings that only Alice's own answers may contain. */
let secrets: string[];

const inject = (options: InjectOptions) => h.test.app.inject(options);

async function balance(who: SignedIn): Promise<number> {
  const me = await inject({ method: 'GET', url: '/api/v1/users/me', headers: who.headers });
  return me.json<{ credits_remaining: number }>().credits_remaining;
}

beforeAll(async () => {
  h = await startFilesApp();
  alice = await signInRegistered(h.test.app, 'alice.secret@example.test', 'Alice Secret');
  bob = await signInRegistered(h.test.app, 'bob@example.test', 'Bob');
  const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#eee' } })
    .png()
    .toBuffer();
  const uploaded = await upload(h, alice, { name: 'alice-private.png', bytes: image });
  aliceFile = ((await uploaded.json()) as { file_id: string }).file_id;
  const other = await upload(h, alice, { name: 'alice-second.png', bytes: image });
  const secondFile = ((await other.json()) as { file_id: string }).file_id;
  const restore = await inject({
    method: 'POST',
    url: '/api/v1/restoration/restore',
    headers: alice.headers,
    payload: { file_id: secondFile },
  });
  aliceJob = restore.json<{ data: { job_id: string } }>().data.job_id;
  aliceRestored = await addOriginal(h.test.database.db, h.test.storage, alice.userId, {
    ...png(image, 'alice-restored.png'),
    type: 'restored',
  });
  const checkout = await inject({
    method: 'POST',
    url: '/api/v1/billing/checkout/session',
    headers: alice.headers,
    payload: { packKey: 'essential10', currency: 'USD' },
  });
  aliceCheckout = checkout.json<{ url: string }>().url.split('/').pop() ?? '';
  secrets = [aliceFile, secondFile, aliceRestored, aliceJob, aliceCheckout, alice.userId];
  secrets.push('alice.secret@example.test', 'Alice Secret', 'alice-private', alice.token);
  expect(secrets.every((secret) => secret.length > 8)).toBe(true);

  const doc = h.test.app.swagger() as unknown as {
    servers: { url: string }[];
    paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>>;
  };
  const prefix = doc.servers[0]?.url ?? '';
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path: `${prefix}${path}`,
      operationId: operation.operationId,
      isPublic: Array.isArray(operation.security) && operation.security.length === 0,
    })),
  );
});
afterAll(async () => {
  await h.close();
});

/** Bob's call: Alice's ids in every path parameter and in every body field that names a file or job. */
function aimedAtAlice(operation: Operation, method: string): InjectOptions {
  const url = operation.path
    .replace('{jobId}', aliceJob)
    .replace('{id}', aliceFile)
    .replace('{filename}', 'alice-private.png');
  const bodies: Record<string, unknown> = {
    googleLogin: { credential: alice.token },
    refreshToken: undefined,
    downloadZip: { file_ids: [aliceFile, aliceRestored] },
    restoreFile: { file_id: aliceFile, filename: 'alice-private.png' },
    createCheckoutSession: { packKey: 'essential10', currency: 'USD' },
    stripeWebhook: { type: 'checkout.session.completed', data: { object: { id: aliceCheckout } } },
  };
  const payload = method === 'GET' || method === 'DELETE' ? undefined : bodies[operation.operationId];
  return { method: method, url, headers: bob.headers, payload: payload as object };
}

function expectNothingOfAlice(label: string, status: number, body: string): void {
  const leaked = secrets.filter((secret) => body.includes(secret));
  expect({ call: label, status, leaked }).toEqual({ call: label, status, leaked: [] });
}

describe('access matrix', () => {
  it('finds the API routes in the OpenAPI document', () => {
    const ids = operations.map((operation) => operation.operationId);
    for (const id of ['listFiles', 'downloadFile', 'downloadZip', 'deleteFile', 'getRestorationJob']) {
      expect(ids).toContain(id);
    }
  });

  it('answers 401 to every non-public route without a token, whatever its path encoding', async () => {
    const guarded = operations.filter((operation) => !operation.isPublic);
    expect(guarded.length).toBeGreaterThan(10);
    for (const operation of guarded) {
      const url = aimedAtAlice(operation, operation.method).url as string;
      for (const path of [url, url.replace('/api/', '/%61pi/')]) {
        const response = await inject({ method: operation.method, url: path });
        expect({ call: `${operation.method} ${path}`, status: response.statusCode }).toEqual({
          call: `${operation.method} ${path}`,
          status: 401,
        });
      }
    }
  });

  it('Alice reaches her own file, job and zip (the ids the matrix aims at are right)', async () => {
    const own = (url: string) => inject({ method: 'GET', url, headers: alice.headers });
    expect((await own(`/api/v1/files/download/id/${aliceFile}/a.png`)).statusCode).toBe(200);
    expect((await own(`/api/v1/files/download/id/${aliceRestored}/a.png`)).statusCode).toBe(200);
    expect((await own(`/api/v1/restoration/jobs/${aliceJob}`)).statusCode).toBe(200);
    const zip = await inject({
      method: 'POST',
      url: '/api/v1/files/download',
      headers: alice.headers,
      payload: { file_ids: [aliceFile, aliceRestored] },
    });
    expect(zip.statusCode).toBe(200);
  });

  it('gives Bob nothing of Alice on any route and method, and changes nothing of hers', async () => {
    const aliceBalance = await balance(alice);
    const aliceFilesBefore = (await listFiles(h, alice)).map((file) => file.id).sort();
    const paths = [...new Set(operations.map((operation) => operation.path))];
    let calls = 0;
    for (const path of paths) {
      for (const method of METHODS) {
        const operation = operations.find((op) => op.path === path && op.method === method) ?? {
          method,
          path,
          operationId: '(none)',
          isPublic: false,
        };
        // Development sign-in lets anyone sign in as any email by design (off in production).
        if (operation.operationId === 'devLogin') continue;
        const call = aimedAtAlice(operation, method);
        for (const url of [call.url as string, `${call.url as string}?preview=true`]) {
          const response = await inject({ ...call, url });
          calls++;
          expectNothingOfAlice(`${method} ${url}`, response.statusCode, response.body);
          // Every call naming one of Alice's objects is refused as if it did not exist.
          if (/\{(id|jobId)\}/.test(path) && operation.operationId !== '(none)') {
            expect({ call: `${method} ${url}`, status: response.statusCode }).toEqual({
              call: `${method} ${url}`,
              status: 404,
            });
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(100);
    // Bob's targeted writes (delete, restore, zip) did nothing to Alice's files or credits.
    for (const operationId of ['deleteFile', 'restoreFile', 'downloadZip']) {
      const operation = operations.find((op) => op.operationId === operationId);
      if (!operation) throw new Error(`${operationId} missing`);
      const response = await inject(aimedAtAlice(operation, operation.method));
      expect({ operationId, status: response.statusCode }).toEqual({ operationId, status: 404 });
    }
    expect((await listFiles(h, alice)).map((file) => file.id).sort()).toEqual(aliceFilesBefore);
    expect(await balance(alice)).toBe(aliceBalance);
  });

  it("does not show Alice's test checkout page details to Bob beyond the pack (the id is the capability)", async () => {
    const page = await inject({
      method: 'GET',
      url: `/billing/test-checkout/${aliceCheckout}`,
      headers: bob.headers,
    });
    expect(page.body).not.toContain('alice.secret@example.test');
    expect(page.body).not.toContain(alice.userId);
  });
});

describe('WebSocket', () => {
  it("delivers Alice's events to Alice's sockets only", async () => {
    const aliceSocket = openSocket(h.base, alice.token);
    const bobSocket = openSocket(h.base, bob.token);
    await Promise.all([aliceSocket.opened, bobSocket.opened]);
    const event = { type: 'file.deleted', fileId: aliceFile } as unknown as RealtimeEvent;
    const ping = { type: 'file.deleted', fileId: 'bob-ping' } as unknown as RealtimeEvent;
    // The server subscribes a socket once its token is checked, a moment after it opens: publish until
    // each socket has its own event (so Bob's is surely listening while Alice's events go out).
    for (let i = 0; i < 100 && bobSocket.events.length === 0; i++) {
      await h.test.app.eventBus.publish(bob.userId, ping);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(bobSocket.events).toContainEqual(ping);
    for (let i = 0; i < 100 && !aliceSocket.events.some((got) => got.type === 'file.deleted'); i++) {
      await h.test.app.eventBus.publish(alice.userId, event);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(aliceSocket.events).toContainEqual(event);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expectNothingOfAlice('Bob socket', 101, JSON.stringify(bobSocket.events));
    await Promise.all([aliceSocket.close(), bobSocket.close()]);
  });
});
