// Server limits: slow bodies and idle keep-alive connections are closed, WebSocket clients cannot send big
// frames or many messages, tokens never reach a log line, and a session cannot be refreshed forever.
import { decodeJwt } from 'jose';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionTokens } from '../../src/auth/session-tokens.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { openSocket } from '../realtime/socket-client.js';

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(chunk.toString('utf8'));
    done();
  },
});

let t: TestApp;
let base: string;
let alice: SignedIn;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      REQUEST_TIMEOUT_SECONDS: '1',
      KEEP_ALIVE_TIMEOUT_SECONDS: '1',
      SESSION_MAX_AGE_SECONDS: '600',
      LOG_LEVEL: 'info',
    },
    build: { logStream },
  });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  alice = await signIn(t.app, 'alice@example.test');
});
afterAll(async () => {
  await t.close();
});

/** A raw connection to the server; resolves what it received once the server closes it. */
function rawConnection(): { socket: Socket; received: Promise<{ text: string; afterMs: number }> } {
  const { port } = new URL(base);
  const socket = connect(Number(port), '127.0.0.1');
  const started = Date.now();
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  const received = new Promise<{ text: string; afterMs: number }>((resolve) => {
    socket.on('close', () => resolve({ text, afterMs: Date.now() - started }));
    socket.on('error', () => undefined);
  });
  return { socket, received };
}

const withinSeconds = <T>(promise: Promise<T>, seconds: number): Promise<T | 'still open'> =>
  Promise.race([
    promise,
    new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), seconds * 1000)),
  ]);

describe('slow and idle connections', () => {
  it('answers 408 and closes a connection whose upload body stops arriving', async () => {
    const { socket, received } = rawConnection();
    socket.write(
      'POST /api/v1/files/upload HTTP/1.1\r\nHost: folio\r\n' +
        `Authorization: Bearer ${alice.token}\r\n` +
        'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n' +
        '--b\r\nContent-Disposition: form-data; name="file"; filename="slow.png"\r\n\r\n',
    );
    const result = await withinSeconds(received, 8);
    socket.destroy();
    expect(result).not.toBe('still open');
    if (result !== 'still open') expect(result.text).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a keep-alive connection left idle', async () => {
    const { socket, received } = rawConnection();
    socket.write('GET /api/v1/health HTTP/1.1\r\nHost: folio\r\nConnection: keep-alive\r\n\r\n');
    const result = await withinSeconds(received, 8);
    socket.destroy();
    expect(result).not.toBe('still open');
    if (result !== 'still open') expect(result.text).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('WebSocket client limits', () => {
  it('closes the socket (1009) on a client frame over 4 KB', async () => {
    const socket = openSocket(base, alice.token);
    await socket.opened;
    socket.ws.send(Buffer.alloc(8 * 1024, 1));
    expect((await socket.closed).code).toBe(1009);
  });

  it('closes the socket (1008) when the client sends message after message', async () => {
    const socket = openSocket(base, alice.token);
    await socket.opened;
    for (let i = 0; i < 20 && socket.ws.readyState === WebSocket.OPEN; i++) socket.ws.send('hello');
    expect(await socket.closed).toEqual({ code: 1008, reason: 'Too many messages' });
  });

  it('keeps a quiet socket open', async () => {
    const socket = openSocket(base, alice.token);
    await socket.opened;
    for (let i = 0; i < 3; i++) socket.ws.send('hello');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    await socket.close();
  });
});

describe('logs', () => {
  it('never carry a session token, from the socket URL or the Authorization header', async () => {
    const socket = openSocket(base, alice.token);
    await socket.opened;
    await socket.close();
    await fetch(`${base}/api/v1/users/me`, { headers: alice.headers });
    await fetch(`${base}/api/v1/users/me?token=${alice.token}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const log = logLines.join('');
    expect(log).toContain('/api/v1/ws/updates?token=[redacted]');
    expect(log).toContain('/api/v1/users/me');
    expect(log).not.toContain(alice.token);
    // Not even its signature alone.
    expect(log).not.toContain(alice.token.split('.')[2]);
  });
});

describe('session age', () => {
  const refresh = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { authorization: `Bearer ${token}` },
    });

  it('keeps the first sign-in time through refreshes', async () => {
    const first = decodeJwt(alice.token);
    expect(first.auth_time).toBe(first.iat);
    const refreshed = await refresh(alice.token);
    expect(refreshed.statusCode).toBe(200);
    expect(decodeJwt(refreshed.json<{ token: string }>().token).auth_time).toBe(first.auth_time);
  });

  it('refuses to refresh a session signed in longer ago than SESSION_MAX_AGE_SECONDS', async () => {
    const tokens = new SessionTokens(t.settings.tokenSecret, t.settings.tokenTtlSeconds);
    const user = {
      id: alice.userId,
      email: 'alice@example.test',
      name: 'A',
      given_name: null,
      family_name: null,
    };
    // Refreshed a minute ago (so still valid), first signed in 700 s ago.
    const { token } = await tokens.issue(user, new Date(Date.now() - 60_000), new Date(Date.now() - 700_000));
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(200);
    const refused = await refresh(token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ detail: 'Session expired. Please sign in again.' });
  });
});
