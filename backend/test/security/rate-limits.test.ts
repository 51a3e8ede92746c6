// Rate limits: sign-in per client address, upload/restore/zip/checkout per user; 429 with Retry-After and
// {"detail"}. And the per-user storage quota. Limits are set low here; the defaults suit a real person.
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signInRegistered, type SignedIn } from '../helpers/auth.js';
import {
  batchUpload,
  listFiles,
  startFilesApp,
  storedContents,
  upload,
  type FilesHarness,
} from '../files/files-harness.js';

const LIMITS = {
  RATE_LIMIT_SIGNIN_PER_MINUTE: '3',
  RATE_LIMIT_UPLOAD_PER_MINUTE: '2',
  RATE_LIMIT_RESTORE_PER_MINUTE: '2',
  RATE_LIMIT_ZIP_PER_MINUTE: '2',
  RATE_LIMIT_CHECKOUT_PER_MINUTE: '2',
};

type Injected = Awaited<ReturnType<TestApp['app']['inject']>>;

function expectLimited(
  response: Injected | { statusCode: number; headers: Record<string, unknown>; body: string },
): void {
  expect(response.statusCode).toBe(429);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
  const body = JSON.parse(response.body) as { detail: string };
  expect(Object.keys(body)).toEqual(['detail']);
  expect(body.detail).toMatch(/^Too many requests\. Please try again in /);
}

describe('sign-in, per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...LIMITS, GOOGLE_CLIENT_ID: 'cid.apps.googleusercontent.com' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const devLogin = (remoteAddress: string, email = `${randomUUID()}@example.test`) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/dev-login', remoteAddress, payload: { email } });
  const google = (remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/google',
      remoteAddress,
      payload: { credential: 'not-a-real-credential' },
    });

  it('answers 429 with Retry-After past the limit, and creates no account then', async () => {
    for (let i = 0; i < 3; i++) expect((await devLogin('10.0.0.1')).statusCode).toBe(200);
    const refused = await devLogin('10.0.0.1', 'late@example.test');
    expectLimited(refused);
    const users = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'late@example.test')
      .execute();
    expect(users).toHaveLength(0);
    // Another address has its own allowance.
    expect((await devLogin('10.0.0.2')).statusCode).toBe(200);
  });

  it('counts rejected Google credentials too', async () => {
    for (let i = 0; i < 3; i++) expect((await google('10.0.1.1')).statusCode).toBe(401);
    expectLimited(await google('10.0.1.1'));
  });
});

describe('costly actions, per user', () => {
  let t: TestApp;
  let alice: SignedIn;
  let bob: SignedIn;
  beforeAll(async () => {
    t = await createTestApp({ env: LIMITS });
    alice = await signInRegistered(t.app, 'alice@example.test');
    bob = await signInRegistered(t.app, 'bob@example.test');
  });
  afterAll(async () => {
    await t.close();
  });

  const calls = {
    restore: (who: SignedIn) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/restoration/restore',
        headers: who.headers,
        payload: { file_id: randomUUID() },
      }),
    zip: (who: SignedIn) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/files/download',
        headers: who.headers,
        payload: { file_ids: [randomUUID()] },
      }),
    checkout: (who: SignedIn) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/billing/checkout/session',
        headers: who.headers,
        payload: { packKey: 'essential10', currency: 'USD' },
      }),
  };

  it.each(Object.keys(calls) as (keyof typeof calls)[])(
    '%s: the third call of a user in a minute is refused, another user is not',
    async (name) => {
      const call = calls[name];
      // Same address for both users: the count is per user.
      for (let i = 0; i < 2; i++) expect((await call(alice)).statusCode).not.toBe(429);
      expectLimited(await call(alice));
      expect((await call(bob)).statusCode).not.toBe(429);
    },
  );

  it('documents 429 on the limited operations', () => {
    const doc = t.app.swagger() as unknown as {
      paths: Record<string, Record<string, { responses: object }>>;
    };
    expect(Object.keys(doc.paths['/files/upload']?.post?.responses ?? {})).toContain('429');
    expect(Object.keys(doc.paths['/users/me']?.get?.responses ?? {})).not.toContain('429');
  });
});

async function noise(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + (i >> 5) * 104729) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

describe('uploads: rate and storage quota', () => {
  let h: FilesHarness;
  beforeAll(async () => {
    h = await startFilesApp({ ...LIMITS, RATE_LIMIT_UPLOAD_PER_MINUTE: '4', STORAGE_QUOTA_MB: '1' });
  });
  afterAll(async () => {
    await h.close();
  });

  it('refuses a file that would pass the quota with a clear message, and keeps nothing of it', async () => {
    const carol = await h.signIn('carol@example.test');
    const big = await noise(420, 420); // about 530 KB
    expect(big.length).toBeGreaterThan(512 * 1024);
    expect((await upload(h, carol, { name: 'one.png', bytes: big })).status).toBe(200);
    const second = await upload(h, carol, { name: 'two.png', bytes: big });
    expect(second.status).toBe(413);
    expect(((await second.json()) as { detail: string }).detail).toMatch(
      /^Storage limit reached: your files use 0\.\d+ MB of 1 MB\. Delete some files to upload more\.$/,
    );
    const batch = await batchUpload(h, carol, [{ name: 'three.png', bytes: big }]);
    expect(batch.status).toBe(200);
    expect(((await batch.json()) as { rejected: { detail: string }[] }).rejected[0]?.detail).toMatch(
      /^Storage limit reached/,
    );
    expect((await listFiles(h, carol)).map((file) => file.filename)).toEqual(['one.png']);
    expect(await storedContents(h)).toHaveLength(1);
  });

  it('answers 429 to the fifth upload request of a user in a minute', async () => {
    const dave = await h.signIn('dave@example.test');
    const erin = await h.signIn('erin@example.test');
    const small = await noise(32, 32);
    for (let i = 0; i < 4; i++) {
      expect((await upload(h, dave, { name: `d${i}.png`, bytes: small })).status).toBe(200);
    }
    const refused = await upload(h, dave, { name: 'late.png', bytes: small });
    expectLimited({
      statusCode: refused.status,
      headers: Object.fromEntries(refused.headers),
      body: await refused.text(),
    });
    expect((await listFiles(h, dave)).map((file) => file.filename)).not.toContain('late.png');
    expect((await upload(h, erin, { name: 'e.png', bytes: small })).status).toBe(200);
  });
});

describe('with REDIS_URL, every API process shares the counts', () => {
  it('refuses the third sign-in from an address across two apps', async () => {
    const env = {
      ...LIMITS,
      RATE_LIMIT_SIGNIN_PER_MINUTE: '2',
      REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    };
    const first = await createTestApp({ env });
    const second = await createTestApp({ env });
    // A fresh address, so runs beside this one (same Redis) never share its counter.
    const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    const login = (app: TestApp) =>
      app.app.inject({
        method: 'POST',
        url: '/api/v1/auth/dev-login',
        remoteAddress: address,
        payload: { email: `${randomUUID()}@example.test` },
      });
    try {
      expect((await login(first)).statusCode).toBe(200);
      expect((await login(second)).statusCode).toBe(200);
      expectLimited(await login(first));
      expectLimited(await login(second));
    } finally {
      await first.close();
      await second.close();
    }
  });
});
