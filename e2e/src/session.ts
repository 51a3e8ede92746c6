// A signed-in user for dashboard tests: the development sign-in through the API, and a browser context that
// restores that session on load (as the app does from its stored token).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export interface Session {
  token: string;
  user: { id: string; email: string; name: string };
  credits_remaining: number;
}

export const DESKTOP = { width: 1280, height: 800 };

let users = 0;

/** Signs in a new user and registers them (registration grants the signup credits once). */
export async function devLogin(baseUrl: string): Promise<Session> {
  users += 1;
  const res = await fetch(`${baseUrl}/api/v1/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `user${users}-${Date.now()}@example.com`, name: `User ${users}` }),
  });
  if (res.status !== 200) throw new Error(`dev-login answered ${res.status}`);
  const session = (await res.json()) as Session;
  const registered = await fetch(`${baseUrl}/api/v1/users/register`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.token}` },
  });
  if (registered.status !== 200) throw new Error(`register answered ${registered.status}`);
  return session;
}

/** A context of `browser` signed in as `session`, on /dashboard, with the onboarding already done. */
export async function openDashboard(
  browser: Browser,
  baseUrl: string,
  session: Session,
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport, reducedMotion: 'reduce' });
  await context.addInitScript(
    ({ token, user }) => {
      localStorage.setItem('google_token', token);
      localStorage.setItem('user_data', JSON.stringify(user));
      localStorage.setItem('folio_onboarding_done', 'true');
    },
    { token: session.token, user: session.user },
  );
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await page.goto('/dashboard');
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return { context, page };
}

/** Uploads files through the upload panel and waits for "Upload Complete!". */
export async function uploadThroughUi(page: Page, files: string[]): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(
    files.map((file) => ({
      name: path.basename(path.dirname(file)) + path.extname(file),
      mimeType: file.endsWith('.pdf') ? 'application/pdf' : 'image/png',
      buffer: readFileSync(file),
    })),
  );
  const label = files.length === 1 ? 'Upload File' : `Upload ${files.length} Files`;
  await page.getByRole('button', { name: label, exact: true }).click();
  await page.getByText('Upload Complete!').waitFor({ timeout: 60_000 });
}
