import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../src/errors.js';
import { createTestApp, type TestApp } from './helpers/app.js';
import { signIn } from './helpers/auth.js';

let t: TestApp;
let webDist: string;

beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'folio-web-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Folio test shell</title>');
  writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log("app")');
  t = await createTestApp({
    env: {
      WEB_DIST_DIR: webDist,
      GOOGLE_CLIENT_ID: 'cid.apps.googleusercontent.com',
      APP_NAME: 'Folio </script> AI',
    },
  });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('GET /api/v1/health', () => {
  it('answers ok once the database answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 {"detail"} when the database does not answer', async () => {
    const broken = await createTestApp();
    try {
      await broken.database.db.destroy();
      const response = await broken.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ detail: 'Database unavailable' });
    } finally {
      await broken.close();
    }
  });
});

describe('GET /config.js', () => {
  it('sets the runtime globals of spec §7 as strings, escaped for a script tag', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/config.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/javascript/);
    const globals: Record<string, unknown> = {};
    runInNewContext(response.body, { window: globals });
    expect(globals).toEqual({
      API_BASE_URL: '/api/v1',
      GOOGLE_CLIENT_ID: 'cid.apps.googleusercontent.com',
      APP_NAME: 'Folio </script> AI',
      APP_DESCRIPTION: 'AI-Powered Document Restoration',
      ENABLE_DEVTOOLS: 'false',
      ENABLE_LOGGING: 'false',
      DEV_LOGIN_ENABLED: 'true',
    });
    expect(response.body).not.toContain('</script>');
  });
});

describe('the web app', () => {
  it('serves the built app, its hashed assets, and index.html for client-side routes', async () => {
    const root = await t.app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('Folio test shell');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const deepLink = await t.app.inject({ method: 'GET', url: '/dashboard' });
    expect(deepLink.statusCode).toBe(200);
    expect(deepLink.body).toContain('Folio test shell');
    expect(deepLink.headers['cache-control']).toBe('no-cache');
  });

  it('answers unknown API paths with a JSON 404, never the web app', async () => {
    const session = await signIn(t.app, 'routes@example.com');
    for (const url of ['/api/v1/does-not-exist', '/api/elsewhere']) {
      const response = await t.app.inject({ method: 'GET', url, headers: session.headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not found' });
    }
    const unauthenticated = await t.app.inject({ method: 'POST', url: '/api/v1/nothing-here' });
    expect(unauthenticated.statusCode).toBe(404);
  });

  it('answers JSON 404s for everything when no web app is built', async () => {
    const bare = await createTestApp({ env: { WEB_DIST_DIR: path.join(webDist, 'missing') } });
    try {
      const response = await bare.app.inject({ method: 'GET', url: '/dashboard' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not found' });
    } finally {
      await bare.close();
    }
  });
});

describe('error rendering', () => {
  it('renders typed errors, bad JSON and unexpected failures as {"detail"}', async () => {
    const errors = await createTestApp({
      beforeReady(app) {
        app.get('/api/v1/test/typed', { config: { public: true } }, () => {
          throw new NotFoundError('No such thing');
        });
        app.get('/api/v1/test/crash', { config: { public: true } }, () => {
          throw new Error('secret internal state');
        });
      },
    });
    try {
      const typed = await errors.app.inject({ method: 'GET', url: '/api/v1/test/typed' });
      expect(typed.statusCode).toBe(404);
      expect(typed.json()).toEqual({ detail: 'No such thing' });
      const crash = await errors.app.inject({ method: 'GET', url: '/api/v1/test/crash' });
      expect(crash.statusCode).toBe(500);
      expect(crash.json()).toEqual({ detail: 'Internal server error' });
      const badJson = await errors.app.inject({
        method: 'POST',
        url: '/api/v1/auth/dev-login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email": ',
      });
      expect(badJson.statusCode).toBe(400);
      expect(badJson.json()).toEqual({ detail: 'Request body is not valid JSON' });
      const tooBig = await errors.app.inject({
        method: 'POST',
        url: '/api/v1/auth/dev-login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@b.co', name: 'x'.repeat(2 * 1024 * 1024) }),
      });
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json<{ detail: string }>().detail).toEqual(expect.any(String));
      const wrongType = await errors.app.inject({
        method: 'POST',
        url: '/api/v1/auth/dev-login',
        headers: { 'content-type': 'text/csv' },
        payload: 'a,b',
      });
      expect(wrongType.statusCode).toBe(415);
      expect(wrongType.json<{ detail: string }>().detail).toEqual(expect.any(String));
    } finally {
      await errors.close();
    }
  });
});
