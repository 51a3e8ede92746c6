// Forged and broken session tokens: every one is a 401 {"detail"} on the API and a 1008 close on the
// WebSocket, and none of them reaches the user it names.
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { openSocket } from '../realtime/socket-client.js';

let t: TestApp;
let base: string;
let alice: SignedIn;
let bob: SignedIn;
let forgeries: Record<string, string>;

const b64 = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  alice = await signIn(t.app, 'alice@example.test');
  bob = await signIn(t.app, 'bob@example.test');
  const secret = new TextEncoder().encode(t.settings.tokenSecret);
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    sub: alice.userId,
    email: 'alice@example.test',
    name: 'Alice',
    iss: 'folio',
    aud: 'folio',
  };
  const sign = (payload: object, alg = 'HS256', key: Uint8Array = secret) =>
    new SignJWT({ ...payload }).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
  const [bobHeader, , bobSignature] = bob.token.split('.');
  const rsa = await generateKeyPair('RS256');

  forgeries = {
    'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, iat: now, exp: now + 600 })}.`,
    'alg None': `${b64({ alg: 'None' })}.${b64({ ...claims, iat: now, exp: now + 600 })}.`,
    "Bob's signature on Alice's claims": `${bobHeader}.${b64({ ...claims, iat: now, exp: now + 600 })}.${bobSignature}`,
    'signature stripped': bob.token.split('.').slice(0, 2).join('.') + '.',
    expired: await sign({ ...claims, iat: now - 7200, exp: now - 3600 }),
    'signed with another secret': await sign(
      { ...claims, iat: now, exp: now + 600 },
      'HS256',
      new TextEncoder().encode('another-secret-that-is-long-enough-0123456789'),
    ),
    'HS512 with the real secret': await sign({ ...claims, iat: now, exp: now + 600 }, 'HS512'),
    'no exp': await sign({ ...claims, iat: now }),
    'no sub': await sign({ ...claims, sub: undefined, iat: now, exp: now + 600 }),
    'another issuer': await sign({ ...claims, iss: 'evil', iat: now, exp: now + 600 }),
    'another audience': await sign({ ...claims, aud: 'other', iat: now, exp: now + 600 }),
    'RS256 from an unknown key': await new SignJWT({ ...claims, iss: 'https://accounts.google.com' })
      .setProtectedHeader({ alg: 'RS256', kid: 'not-google' })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(rsa.privateKey),
    'not a JWT': 'not-a-jwt',
    'empty segments': '..',
  };
});
afterAll(async () => {
  await t.close();
});

describe('forged tokens', () => {
  it('the genuine token works (control)', async () => {
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: alice.headers });
    expect(me.statusCode).toBe(200);
  });

  it('are all refused by the API with 401 {"detail"}', async () => {
    for (const [name, token] of Object.entries(forgeries)) {
      for (const url of ['/api/v1/users/me', '/api/v1/files/all']) {
        const response = await t.app.inject({
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${token}` },
        });
        expect({ name, url, status: response.statusCode }).toEqual({ name, url, status: 401 });
        expect(Object.keys(response.json<object>())).toEqual(['detail']);
        expect(response.body).not.toContain(alice.userId);
      }
    }
  });

  it('cannot be refreshed into a genuine token', async () => {
    for (const [name, token] of Object.entries(forgeries)) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        headers: { authorization: `Bearer ${token}` },
      });
      expect({ name, status: response.statusCode }).toEqual({ name, status: 401 });
    }
  });

  it('refuses a header with two tokens', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${bob.token} ${alice.token}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('are all refused by the WebSocket with 1008', async () => {
    for (const [name, token] of Object.entries(forgeries)) {
      const socket = openSocket(base, token);
      const closed = await socket.closed;
      expect({ name, code: closed.code }).toEqual({ name, code: 1008 });
    }
  });
});
