// Maintenance mode end to end: the backend answers every sign-in with 503 "...under maintenance..." and the
// web app shows the spec's maintenance text (§2 final call to action, §8) for both sign-in ways.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type RunningBackend } from '../src/backend.js';
import { launchChromium } from '../src/browser.js';
import { GoogleStandIn, TEST_CLIENT_ID } from '../src/google-standin.js';

const MAINTENANCE_TEXT = 'Service is currently under maintenance. Please try again later.';

let google: GoogleStandIn;
let backend: RunningBackend;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  google = new GoogleStandIn();
  const jwksUrl = await google.start();
  // startBackend waits for GET /api/v1/health, so this also shows health answers during maintenance.
  backend = await startBackend({
    MAINTENANCE_MODE: 'true',
    GOOGLE_CLIENT_ID: TEST_CLIENT_ID,
    GOOGLE_JWKS_URL: jwksUrl,
    DEV_LOGIN: 'true',
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await backend?.stop();
  await google?.stop();
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function openLanding(): Promise<Page> {
  const context = await browser.newContext({ baseURL: backend.url, viewport: { width: 1280, height: 800 } });
  contexts.push(context);
  await google.install(context);
  const page = await context.newPage();
  await page.goto('/');
  return page;
}

/** The error banner's message once it appears; the page stays on "/" without a session. */
async function loginErrorShown(page: Page): Promise<string | null> {
  const alert = page.getByRole('alert');
  await alert.waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
  expect(await page.evaluate(() => localStorage.getItem('google_token'))).toBeNull();
  return alert.locator('p').textContent();
}

describe('maintenance mode', () => {
  it('the development sign-in shows the maintenance text', async () => {
    const page = await openLanding();
    const answers: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/v1/auth/dev-login')) answers.push(response.status());
    });
    const form = page.getByRole('form', { name: 'Development sign-in' });
    await form.getByLabel('Email').fill('dev@example.com');
    await form.getByRole('button', { name: 'Sign in (development)' }).click();
    expect(await loginErrorShown(page)).toBe(MAINTENANCE_TEXT);
    expect(answers).toEqual([503]);
  });

  it('Google sign-in from the final call to action shows the maintenance text', async () => {
    const page = await openLanding();
    await page.locator('#get-started [data-gis-standin]').click();
    expect(await loginErrorShown(page)).toBe(MAINTENANCE_TEXT);
  });
});

describe('without maintenance', () => {
  let normal: RunningBackend;

  beforeAll(async () => {
    normal = await startBackend({ GOOGLE_CLIENT_ID: '', DEV_LOGIN: 'true' });
  });
  afterAll(async () => {
    await normal?.stop();
  });

  it('another development sign-in error shows its own message', async () => {
    // A name over the 200-character limit is refused by the server (422) with its own detail.
    const name = 'N'.repeat(201);
    const direct = await fetch(`${normal.url}/api/v1/auth/dev-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'long@example.com', name }),
    });
    expect(direct.status).toBe(422);
    const { detail } = (await direct.json()) as { detail: string };
    expect(detail).not.toMatch(/maintenance/i);

    const context = await browser.newContext({ baseURL: normal.url });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto('/');
    const form = page.getByRole('form', { name: 'Development sign-in' });
    await form.getByLabel('Email').fill('long@example.com');
    await form.getByLabel('Name').fill(name);
    await form.getByRole('button', { name: 'Sign in (development)' }).click();
    expect(await loginErrorShown(page)).toBe(detail);
  });
});
