// Without a Google client id: the Google button is a disabled "Setup Required" placeholder and the
// development sign-in form (DEV_LOGIN on) signs in against the real backend.
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type RunningBackend } from '../src/backend.js';
import { launchChromium } from '../src/browser.js';

let backend: RunningBackend;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  backend = await startBackend({ GOOGLE_CLIENT_ID: '', DEV_LOGIN: 'true', SIGNUP_CREDITS: '3' });
  browser = await launchChromium();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await backend?.stop();
});

describe('development sign-in', () => {
  it('shows Google as "Setup Required" and signs in with the development form', async () => {
    context = await browser.newContext({ baseURL: backend.url, viewport: { width: 1280, height: 800 } });
    // No request may leave for the identity provider when it is not configured.
    const outside: string[] = [];
    context.on('request', (request) => {
      if (!request.url().startsWith(backend.url)) outside.push(request.url());
    });
    await context.addInitScript(() => localStorage.setItem('folio_onboarding_done', 'true'));
    const page = await context.newPage();
    await page.goto('/');
    const google = page
      .locator('#get-started')
      .getByRole('button', { name: 'Google Login (Setup Required)' });
    expect(await google.isDisabled()).toBe(true);
    expect(await page.locator('#get-started').getByText('Set GOOGLE_CLIENT_ID').isVisible()).toBe(true);

    const form = page.getByRole('form', { name: 'Development sign-in' });
    await form.getByLabel('Email').fill('dev@example.com');
    await form.getByLabel('Name').fill('Dev Person');
    await form.getByRole('button', { name: 'Sign in (development)' }).click();
    await page.waitForURL('**/dashboard');
    expect(await page.getByTestId('user-name').textContent()).toBe('Dev Person');
    await expect.poll(() => page.getByTestId('credits-balance').textContent()).toBe('3 credits');
    expect(outside).toEqual([]);
  });
});
