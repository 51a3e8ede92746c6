import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsError, loadSettings } from '../../src/settings.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signIn, signInRegistered } from '../helpers/auth.js';

const DETAIL = { detail: 'Folio is under maintenance. Please try again later.' };

describe('MAINTENANCE_MODE setting', () => {
  it('is off by default, parses true/false and refuses anything else', () => {
    const base = { FOLIO_DATA_DIR: '/tmp/folio-maintenance-settings', TOKEN_SECRET: 'x'.repeat(40) };
    expect(loadSettings(base).maintenanceMode).toBe(false);
    expect(loadSettings({ ...base, MAINTENANCE_MODE: 'true' }).maintenanceMode).toBe(true);
    expect(loadSettings({ ...base, MAINTENANCE_MODE: 'false' }).maintenanceMode).toBe(false);
    expect(() => loadSettings({ ...base, MAINTENANCE_MODE: 'soon' })).toThrow(SettingsError);
  });
});

describe('maintenance mode on', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    // A token issued before maintenance started must not get through either.
    const before = await createTestApp();
    token = (await signIn(before.app, 'before@example.com')).token;
    await before.close();
    t = await createTestApp({
      env: {
        MAINTENANCE_MODE: 'true',
        GOOGLE_CLIENT_ID: 'cid.apps.googleusercontent.com',
        TOKEN_SECRET: before.settings.tokenSecret,
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 503 with the maintenance detail on sign-in, dev-login, files and billing', async () => {
    const calls = [
      { method: 'POST', url: '/api/v1/auth/google', payload: { id_token: 'anything' } },
      { method: 'POST', url: '/api/v1/auth/dev-login', payload: { email: 'a@example.com', name: 'A' } },
      { method: 'GET', url: '/api/v1/files/all' },
      { method: 'GET', url: '/api/v1/files/all?x=1', headers: { authorization: `Bearer ${token}` } },
      { method: 'POST', url: '/api/v1/billing/checkout/session', payload: { pack: 'essential' } },
      { method: 'GET', url: '/api/v1/does-not-exist' },
      // The same routes through an encoded path: the check is on the route, not the raw URL.
      { method: 'POST', url: '/%61pi/v1/auth/dev-login', payload: { email: 'a@example.com', name: 'A' } },
      { method: 'GET', url: '/%61pi/v1/files/all', headers: { authorization: `Bearer ${token}` } },
      { method: 'POST', url: '/api/v1/health' },
    ] as const;
    for (const call of calls) {
      const response = await t.app.inject(call);
      expect({ url: call.url, status: response.statusCode }).toEqual({ url: call.url, status: 503 });
      expect(response.json()).toEqual(DETAIL);
    }
  });

  it('keeps GET /api/v1/health, /config.js and non-API paths answering', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const config = await t.app.inject({ method: 'GET', url: '/config.js' });
    expect(config.statusCode).toBe(200);
    expect(config.body).toContain('API_BASE_URL');
    const elsewhere = await t.app.inject({ method: 'GET', url: '/api/v10/files/all' });
    expect(elsewhere.statusCode).toBe(404);
  });
});

describe('maintenance mode off', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { MAINTENANCE_MODE: 'false' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('signs in and lists files as usual', async () => {
    const session = await signInRegistered(t.app, 'normal@example.com');
    const files = await t.app.inject({ method: 'GET', url: '/api/v1/files/all', headers: session.headers });
    expect(files.statusCode).toBe(200);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/files/all' });
    expect(anonymous.statusCode).toBe(401);
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(200);
  });
});
