import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signIn } from '../helpers/auth.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { SIGNUP_CREDITS: '10' } });
});
afterAll(async () => {
  await t.close();
});

const register = (headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/users/register', headers });

describe('POST /api/v1/users/register', () => {
  it('grants the signup credits once through the ledger, however often it is called', async () => {
    const session = await signIn(t.app, 'new@example.com', 'New Person');
    expect(session.credits).toBe(0);
    const first = await register(session.headers);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: session.userId, credits_remaining: 10, signup_granted: true });
    for (let i = 0; i < 3; i += 1) {
      expect((await register(session.headers)).json()).toMatchObject({ credits_remaining: 10 });
    }
    // Signing in again does not grant either.
    expect((await signIn(t.app, 'new@example.com')).credits).toBe(10);
    const ledger = await t.database.db
      .selectFrom('credit_ledger')
      .selectAll()
      .where('user_id', '=', session.userId)
      .execute();
    expect(ledger).toEqual([
      expect.objectContaining({
        delta: 10,
        reason: 'signup',
        reference: `signup:${session.userId}`,
        balance_after: 10,
      }),
    ]);
  });

  it('grants once when many registrations race', async () => {
    const session = await signIn(t.app, 'racer@example.com');
    const responses = await Promise.all(Array.from({ length: 8 }, () => register(session.headers)));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: session.headers });
    expect(me.json<{ credits_remaining: number }>().credits_remaining).toBe(10);
  });

  it('requires a signed-in user, with or without a JSON content type', async () => {
    expect((await register({})).statusCode).toBe(401);
    const session = await signIn(t.app, 'ctype@example.com');
    const withType = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/register',
      headers: { ...session.headers, 'content-type': 'application/json' },
    });
    expect(withType.statusCode).toBe(200);
  });
});

describe('GET /api/v1/users/me', () => {
  it('answers the profile and balance of the signed-in user only', async () => {
    const ann = await signIn(t.app, 'ann@example.com', 'Ann Lee');
    const bob = await signIn(t.app, 'bob@example.com', 'Bob');
    await register(ann.headers);
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: ann.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: ann.userId,
      email: 'ann@example.com',
      name: 'Ann Lee',
      given_name: 'Ann',
      family_name: 'Lee',
      credits_remaining: 10,
      purchase_tier: 'standard',
      signup_granted: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown,
    });
    const bobMe = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bob.headers });
    expect(bobMe.json()).toMatchObject({ id: bob.userId, credits_remaining: 0, signup_granted: false });
  });
});

describe('SIGNUP_CREDITS=0', () => {
  it('marks the user registered without a ledger row', async () => {
    const zero = await createTestApp({ env: { SIGNUP_CREDITS: '0' } });
    try {
      const session = await signIn(zero.app, 'zero@example.com');
      const response = await zero.app.inject({
        method: 'POST',
        url: '/api/v1/users/register',
        headers: session.headers,
      });
      expect(response.json()).toMatchObject({ credits_remaining: 0, signup_granted: true });
      expect(await zero.database.db.selectFrom('credit_ledger').selectAll().execute()).toEqual([]);
    } finally {
      await zero.close();
    }
  });
});
