// The backend's Content-Security-Policy against the built app in Chromium: the landing page (inline theme
// script, demo video), the dashboard with a PDF (pdf.js worker, previews) and the sign-in script run with
// no policy violation, while an injected inline script is blocked.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type RunningBackend } from '../src/backend.js';
import { EVAL_DIR } from '../src/settings.js';
import { launchChromium } from '../src/browser.js';

const PDF = path.join(EVAL_DIR, 'pdf_001/degraded.pdf');

let backend: RunningBackend;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  backend = await startBackend({ DEV_LOGIN: 'true', GOOGLE_CLIENT_ID: '', SIGNUP_CREDITS: '3' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await backend?.stop();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

interface Watched {
  page: Page;
  /** Every CSP violation the page reported, as "directive blocked-uri". */
  violations: () => Promise<string[]>;
}

async function watchedPage(session?: { token: string; user: unknown }): Promise<Watched> {
  const context = await browser.newContext({
    baseURL: backend.url,
    colorScheme: 'dark',
    reducedMotion: 'reduce',
  });
  contexts.push(context);
  await context.addInitScript((stored) => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.effectiveDirective} ${event.blockedURI}`);
    });
    localStorage.setItem('folio_onboarding_done', 'true');
    if (stored) {
      localStorage.setItem('google_token', stored.token);
      localStorage.setItem('user_data', JSON.stringify(stored.user));
    }
  }, session ?? null);
  const page = await context.newPage();
  return {
    page,
    violations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp),
  };
}

describe('Content-Security-Policy in the browser', () => {
  it('lets the landing page run its inline theme script and the demo video, and blocks injected scripts', async () => {
    const { page, violations } = await watchedPage();
    const response = await page.goto('/');
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    // The theme snippet in index.html ran (dark scheme applied before React).
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toBe('dark');
    await page
      .locator('video')
      .first()
      .evaluate((video: HTMLVideoElement) => video.load());
    await page.waitForTimeout(500);
    expect(await violations()).toEqual([]);

    // Control: an inline script added by an attacker is refused by the policy.
    await page.addScriptTag({ content: 'window.__injected = true;' }).catch(() => undefined);
    expect(
      await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected),
    ).toBeUndefined();
    expect((await violations()).some((line) => line.startsWith('script-src'))).toBe(true);
  });

  it('lets the dashboard render a PDF card and its preview', async () => {
    const login = await fetch(`${backend.url}/api/v1/auth/dev-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'csp@example.com', name: 'Csp' }),
    });
    const session = (await login.json()) as { token: string; user: unknown };
    const form = new FormData();
    form.append('file', new Blob([readFileSync(PDF)], { type: 'application/pdf' }), 'letter.pdf');
    const uploaded = await fetch(`${backend.url}/api/v1/files/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}` },
      body: form,
    });
    expect(uploaded.status).toBe(200);

    const { page, violations } = await watchedPage(session);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByTestId('file-card').filter({ hasText: 'letter' }).first().waitFor();
    await page.waitForTimeout(2000);
    expect(await page.getByText('Failed to load PDF preview').count()).toBe(0);
    expect(await violations()).toEqual([]);
  });
});
