// Security headers, no-store on API answers, CORS for the configured origin only, HSTS in production.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createJobQueue } from '../../src/restoration/job-system.js';
import { createStorage } from '../../src/storage/create-storage.js';
import { createTestDatabase } from '../helpers/database.js';
import { createTestApp, testSettings, type TestApp } from '../helpers/app.js';
import { signIn } from '../helpers/auth.js';

const THEME_SCRIPT = "document.documentElement.classList.add('dark');";
const OTHER_ORIGIN = 'https://app.example.test';

/** A built web app with an inline script, like web/dist/index.html. */
function webDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-web-dist-'));
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><script>${THEME_SCRIPT}</script><script src="/config.js"></script></head>` +
      '<body><div id="root"></div></body></html>',
  );
  return dir;
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map((words) => [words[0] ?? '', words.slice(1)]),
  );
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { WEB_DIST_DIR: webDist(), CORS_ORIGIN: OTHER_ORIGIN } });
});
afterAll(async () => {
  await t.close();
});

describe('security headers', () => {
  it('sends a CSP without inline scripts (the theme snippet by hash) that forbids framing', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    const csp = directives(String(page.headers['content-security-policy']));
    const hash = `'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`;
    expect(csp.get('script-src')).toContain(hash);
    expect(csp.get('script-src')).toContain("'self'");
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    // Not in development or test: a browser would pin plain-HTTP local installs to HTTPS.
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends them on API answers and errors too, with Cache-Control: no-store', async () => {
    const user = await signIn(t.app, 'headers@example.test');
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: user.headers });
    const denied = await t.app.inject({ method: 'GET', url: '/api/v1/files/all' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/dev-login',
      payload: { email: 'headers@example.test' },
    });
    for (const response of [me, denied, login]) {
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    expect([me.statusCode, denied.statusCode, login.statusCode]).toEqual([200, 401, 200]);
  });
});

describe('CORS', () => {
  it('lets only the configured origin read answers and pass preflights', async () => {
    const user = await signIn(t.app, 'cors@example.test');
    const allowed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { ...user.headers, origin: OTHER_ORIGIN },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe(OTHER_ORIGIN);
    const foreign = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { ...user.headers, origin: 'https://evil.example' },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();

    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/files/all',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
    const ok = await preflight(OTHER_ORIGIN);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-headers']).toContain('authorization');
    const refused = await preflight('https://evil.example');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.statusCode).not.toBe(204);
  });
});

describe('production', () => {
  it('adds HSTS', async () => {
    const database = await createTestDatabase();
    const settings = testSettings(database.dataDir, {
      FOLIO_ENV: 'production',
      DEV_LOGIN: 'false',
      DATABASE_URL: database.databaseUrl,
    });
    const db = database.db;
    const app = await buildApp({
      settings,
      db,
      storage: createStorage(settings),
      queue: createJobQueue(settings, db),
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await app.close();
      await database.cleanup();
    }
  });
});
