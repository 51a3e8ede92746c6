import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JoseGoogleVerifier } from '../../src/auth/google-verifier.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signIn } from '../helpers/auth.js';
import { FakeGoogle, TEST_GOOGLE_CLIENT_ID, type TokenVariant } from '../helpers/google.js';

let google: FakeGoogle;
let t: TestApp;

beforeAll(async () => {
  google = await FakeGoogle.start();
  t = await createTestApp({
    env: { GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: google.jwksUrl, DEV_LOGIN: 'true' },
    // No cooldown between key-set refetches, so the unknown-kid and rotation cases do not wait 30 s.
    build: {
      googleVerifier: new JoseGoogleVerifier({
        clientId: TEST_GOOGLE_CLIENT_ID,
        jwksUrl: google.jwksUrl,
        issuers: ['accounts.google.com', 'https://accounts.google.com'],
        cooldownMs: 0,
      }),
    },
  });
});
afterAll(async () => {
  await t.close();
  await google.close();
});

const googleLogin = (credential: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/google',
    payload: { credential, select_by: 'btn', client_id: TEST_GOOGLE_CLIENT_ID },
  });

const me = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } });

describe('POST /api/v1/auth/google', () => {
  it('creates the user on first sign-in and answers a session token with the claims the web app reads', async () => {
    const credential = await google.mint({
      sub: 'google-sub-1',
      email: 'Ada@Example.com',
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
    const response = await googleLogin(credential);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ token: string; user: Record<string, unknown>; credits_remaining: number }>();
    expect(body.user).toEqual({
      id: expect.any(String) as unknown,
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
    expect(body.credits_remaining).toBe(0);
    const claims = decodeJwt(body.token);
    expect(claims).toMatchObject({
      sub: body.user.id,
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      iss: 'folio',
    });
    expect(claims.exp! - claims.iat!).toBe(t.settings.tokenTtlSeconds);

    // Signing in again finds the same user.
    const again = await googleLogin(
      await google.mint({ sub: 'google-sub-1', email: 'ada@example.com', name: 'Ada L.' }),
    );
    expect(again.json<{ user: { id: string; name: string } }>().user).toMatchObject({
      id: body.user.id,
      name: 'Ada L.',
    });
    expect((await me(body.token)).statusCode).toBe(200);
  });

  const refused: [TokenVariant, RegExp][] = [
    ['expired', /expired/],
    ['wrong-audience', /aud/],
    ['wrong-issuer', /iss/],
    ['tampered', /Invalid token/],
    ['alg-none', /Invalid token/],
    ['unknown-kid', /Invalid token/],
    ['hs256-public-key', /Invalid token/],
    ['unverified-email', /not verified/],
    ['no-email', /email/],
  ];
  it.each(refused)('refuses a %s credential with 401 {"detail"}', async (variant, detail) => {
    const response = await googleLogin(await google.mint({ sub: `sub-${variant}` }, variant));
    expect(response.statusCode).toBe(401);
    expect(response.json<{ detail: string }>().detail).toMatch(detail);
  });

  it('answers 422 when the credential is missing', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/auth/google', payload: {} });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: 'body.credential is required' });
  });

  it('refetches the key set when Google rotates to a key id it has not seen', async () => {
    await google.rotate('rotated-key');
    const before = google.fetches;
    const response = await googleLogin(await google.mint({ sub: 'rotated-user', email: 'rot@example.com' }));
    expect(response.statusCode).toBe(200);
    expect(google.fetches).toBe(before + 1);
    // The refreshed set is cached: another token with a known key needs no download.
    await googleLogin(await google.mint({ sub: 'rotated-user', email: 'rot@example.com' }));
    expect(google.fetches).toBe(before + 1);
  });
});

describe('Bearer authentication', () => {
  it('accepts a Google ID token directly and signs the user in on first use', async () => {
    const credential = await google.mint({
      sub: 'bearer-google',
      email: 'direct@example.com',
      name: 'Direct',
    });
    const response = await me(credential);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      email: 'direct@example.com',
      name: 'Direct',
      credits_remaining: 0,
    });
  });

  it('only reads a known user when a Google token comes with a request', async () => {
    const credential = await google.mint({ sub: 'bearer-known', email: 'known@example.com', name: 'Known' });
    expect((await me(credential)).statusCode).toBe(200);
    const row = () =>
      t.database.db
        .selectFrom('users')
        .select(['id', 'updated_at'])
        .where('google_sub', '=', 'bearer-known')
        .executeTakeFirstOrThrow();
    const before = await row();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await me(credential)).json()).toMatchObject({ id: before.id });
    expect(await row()).toEqual(before);
  });

  it.each(['expired', 'wrong-audience', 'wrong-issuer', 'tampered', 'alg-none', 'hs256-public-key'] as const)(
    'refuses a %s Google token on a protected route',
    async (variant) => {
      const response = await me(await google.mint({ sub: `bearer-${variant}` }, variant));
      expect(response.statusCode).toBe(401);
      expect(response.json<{ detail: string }>().detail).toEqual(expect.any(String));
    },
  );

  it('refuses a missing header, a malformed header and garbage tokens', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/users/me' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ detail: 'Not authenticated' });
    const basic = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: 'Basic abc' },
    });
    expect(basic.statusCode).toBe(401);
    for (const token of ['not-a-jwt', 'a.b.c', 'e30.e30.']) {
      const response = await me(token);
      expect(response.statusCode).toBe(401);
      expect(response.json<{ detail: string }>().detail).toMatch(/^Invalid token/);
    }
  });

  it('refuses session tokens that are expired, signed with another secret or issued by someone else', async () => {
    const session = await signIn(t.app, 'tokens@example.com');
    const secret = new TextEncoder().encode(t.settings.tokenSecret);
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: { iss?: string; aud?: string; exp?: number }, key = secret) =>
      new SignJWT({ email: 'tokens@example.com', name: 'T' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(session.userId)
        .setIssuer(claims.iss ?? 'folio')
        .setAudience(claims.aud ?? 'folio')
        .setIssuedAt(now - 100)
        .setExpirationTime(claims.exp ?? now + 600)
        .sign(key);
    expect((await me(await sign({}))).statusCode).toBe(200);
    const expired = await me(await sign({ exp: now - 10 }));
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ detail: 'Token has expired' });
    expect((await me(await sign({ iss: 'someone-else' }))).statusCode).toBe(401);
    expect((await me(await sign({ aud: 'other-app' }))).statusCode).toBe(401);
    expect((await me(await sign({}, new TextEncoder().encode('x'.repeat(64))))).statusCode).toBe(401);
  });

  it('refuses a valid session token of a user that no longer exists', async () => {
    const session = await signIn(t.app, 'gone@example.com');
    await t.database.db.deleteFrom('users').where('id', '=', session.userId).execute();
    const response = await me(session.token);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'User no longer exists' });
  });

  it('exchanges a valid token for a fresh one', async () => {
    const session = await signIn(t.app, 'refresh@example.com', 'Re Fresh');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: session.headers,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ token: string; user: { id: string } }>();
    expect(body.user.id).toBe(session.userId);
    expect(decodeJwt(body.token).sub).toBe(session.userId);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh' })).statusCode).toBe(401);
  });

  it('exposes authenticateToken for routes that cannot use the header (WebSocket)', async () => {
    const session = await signIn(t.app, 'socket@example.com', 'Sock');
    await expect(t.app.authenticateToken(session.token)).resolves.toEqual({
      id: session.userId,
      email: 'socket@example.com',
      name: 'Sock',
    });
    await expect(t.app.authenticateToken('nope')).rejects.toMatchObject({ statusCode: 401 });
  });
});

describe('POST /api/v1/auth/dev-login', () => {
  it('signs in by email, creating the user once, and is safe to repeat', async () => {
    const first = await signIn(t.app, 'Dev@Example.com', 'Grace Hopper');
    const second = await signIn(t.app, 'dev@example.com', 'Grace Hopper');
    expect(second.userId).toBe(first.userId);
    const profile = (await me(first.token)).json<Record<string, unknown>>();
    expect(profile).toMatchObject({
      email: 'dev@example.com',
      name: 'Grace Hopper',
      given_name: 'Grace',
      family_name: 'Hopper',
    });
  });

  it('links a later Google sign-in with the same email to the same account', async () => {
    const dev = await signIn(t.app, 'linked@example.com', 'Linked');
    const response = await googleLogin(
      await google.mint({ sub: 'linked-sub', email: 'linked@example.com', name: 'Linked' }),
    );
    expect(response.json<{ user: { id: string } }>().user.id).toBe(dev.userId);
    const other = await googleLogin(await google.mint({ sub: 'other-sub', email: 'linked@example.com' }));
    expect(other.statusCode).toBe(409);
  });

  it('validates the body with a readable 422', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/dev-login',
      payload: { email: 'nope' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: 'body.email must match format "email"' });
  });

  it('is a 404 when DEV_LOGIN is off', async () => {
    const off = await createTestApp({ env: { DEV_LOGIN: 'false' } });
    try {
      const response = await off.app.inject({
        method: 'POST',
        url: '/api/v1/auth/dev-login',
        payload: { email: 'x@example.com', name: 'X' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not found' });
    } finally {
      await off.close();
    }
  });
});

describe('Google sign-in without a configured client id', () => {
  it('refuses Google credentials with 401', async () => {
    const plain = await createTestApp({ env: { GOOGLE_CLIENT_ID: '', GOOGLE_JWKS_URL: google.jwksUrl } });
    try {
      const response = await plain.app.inject({
        method: 'POST',
        url: '/api/v1/auth/google',
        payload: { credential: await google.mint({ sub: 'x' }) },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'Google sign-in is not configured' });
    } finally {
      await plain.close();
    }
  });
});
