// The dashboard in Debian's Chromium against the real backend and engine: uploads (valid and invalid files),
// restoration with enough and too few credits and its live progress, before/after comparison, downloads (single
// and zip), deletes, a second browser of the same user seeing uploads live, and reconnection after a restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../src/axe.js';
import { freePort, startBackend, type RunningBackend } from '../src/backend.js';
import { EVAL_DIR, INHERITED_ENV, REPO_ROOT } from '../src/settings.js';
import { launchChromium, screenshot } from '../src/browser.js';

const EVAL = EVAL_DIR;
const PDF_3_PAGES = path.join(EVAL, 'pdf_001/degraded.pdf');
const IMAGE_A = path.join(EVAL, 'doc_005/degraded.png');
const IMAGE_B = path.join(EVAL, 'photo_001/degraded.jpg');
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 844 };

interface Session {
  token: string;
  user: { id: string; email: string; name: string };
  credits_remaining: number;
}

let backend: RunningBackend;
let browser: Browser;
const contexts: BrowserContext[] = [];
let userCount = 0;

beforeAll(async () => {
  backend = await startBackend({ DEV_LOGIN: 'true', SIGNUP_CREDITS: '10', GOOGLE_CLIENT_ID: '' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await backend?.stop();
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function devLogin(baseUrl: string, email?: string): Promise<Session> {
  userCount += 1;
  const res = await fetch(`${baseUrl}/api/v1/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: email ?? `user${userCount}-${Date.now()}@example.com`,
      name: `User ${userCount}`,
    }),
  });
  expect(res.status).toBe(200);
  const session = (await res.json()) as Session;
  // The app registers after every sign-in; registration grants the signup credits once.
  const registered = await fetch(`${baseUrl}/api/v1/users/register`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(registered.status).toBe(200);
  return session;
}

/** A browser context signed in as `session` (the stored session the app restores on load). */
async function openDashboard(
  session: Session,
  options: { baseUrl?: string; viewport?: { width: number; height: number }; onboarding?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: options.baseUrl ?? backend.url,
    viewport: options.viewport ?? DESKTOP,
    reducedMotion: 'reduce',
    acceptDownloads: true,
  });
  contexts.push(context);
  await context.addInitScript(
    ({ token, user, onboarding }) => {
      localStorage.setItem('google_token', token);
      localStorage.setItem('user_data', JSON.stringify(user));
      if (!onboarding) localStorage.setItem('folio_onboarding_done', 'true');
    },
    { token: session.token, user: session.user, onboarding: options.onboarding ?? false },
  );
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await page.goto('/dashboard');
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return page;
}

const originals = (page: Page) => page.getByTestId('original-files').getByTestId('file-card');
const restored = (page: Page) => page.getByTestId('restored-files').getByTestId('file-card');
const card = (page: Page, name: string) => page.getByTestId('file-card').filter({ hasText: name });
const balance = (page: Page) => page.getByTestId('credits-balance').textContent();

type Upload = string | { name: string; mimeType: string; buffer: Buffer };

/** The 3-page eval PDF under another name. */
const pdf = (name: string) => ({
  name,
  mimeType: 'application/pdf',
  buffer: readFileSync(PDF_3_PAGES),
});
const image = (file: string, name: string) => ({
  name,
  mimeType: 'image/png',
  buffer: readFileSync(file),
});

async function uploadThroughUi(page: Page, files: Upload[]): Promise<void> {
  const payloads = files.map((f) =>
    typeof f === 'string' ? { name: path.basename(f), mimeType: 'image/png', buffer: readFileSync(f) } : f,
  );
  await page.getByTestId('file-input').setInputFiles(payloads);
  const label = files.length === 1 ? 'Upload File' : `Upload ${files.length} Files`;
  await page.getByRole('button', { name: label, exact: true }).click();
  await page.getByText('Upload Complete!').waitFor({ timeout: 60_000 });
}

/** Where a download was saved, once it has finished; bounded, as Download.path() waits without a timeout. */
async function downloaded(download: Download): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${download.suggestedFilename()}: not downloaded in 30 s`)),
      30_000,
    );
  });
  try {
    return await Promise.race([download.path(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** File names stored in a zip (read from its central directory). */
function zipEntries(bytes: Buffer): string[] {
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip');
  const count = bytes.readUInt16LE(eocd + 10);
  let at = bytes.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const nameLength = bytes.readUInt16LE(at + 28);
    const extra = bytes.readUInt16LE(at + 30);
    const comment = bytes.readUInt16LE(at + 32);
    names.push(bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + nameLength + extra + comment;
  }
  return names;
}

describe('dashboard', () => {
  it('shows the empty dashboard and the onboarding on first visit', async () => {
    const session = await devLogin(backend.url);
    const page = await openDashboard(session, { onboarding: true });
    const dialog = page.getByRole('dialog', { name: 'Upload Your Documents' });
    await dialog.waitFor();
    expect(await dialog.getByText('33%').isVisible()).toBe(true);
    await screenshot(page, 'dashboard-onboarding-desktop');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('dialog', { name: 'View Your Original Files & start restoring' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => localStorage.getItem('folio_onboarding_done'))).toBe('true');

    await page.getByText('No files available yet.').waitFor();
    expect(await page.getByText('Click to expand and start restoring your documents').isVisible()).toBe(true);
    expect(await page.getByText('No restored files yet').isVisible()).toBe(false); // collapsed until one exists
    await screenshot(page, 'dashboard-empty-desktop', true);
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'dashboard-empty-mobile', true);
    // With no stored theme the app follows the system preference.
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page
      .getByTestId('upload-panel')
      .getByRole('button', { name: /Upload Documents/ })
      .click();
    await screenshot(page, 'dashboard-empty-dark-desktop', true);
  });

  it('rejects invalid files by name and uploads a PDF with its first-page preview, seen live by a second browser', async () => {
    const session = await devLogin(backend.url);
    const page = await openDashboard(session);
    const second = await openDashboard(session);
    await second.getByText('No files available yet.').waitFor();

    await page
      .getByTestId('file-input')
      .setInputFiles([
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a document') },
        { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) },
        pdf('degraded.pdf'),
      ]);
    const rejected = page.getByTestId('upload-rejected');
    expect(await rejected.textContent()).toContain(
      'notes.txt: Invalid file type. Please select: .pdf, .png, .jpg, .jpeg',
    );
    expect(await rejected.textContent()).toContain('huge.png: File too large. Maximum size: 10 MB');
    await page.getByText('Page 1 of 3').waitFor();
    const previewWidth = await page
      .getByTestId('pdf-preview')
      .evaluate((el) => el.getBoundingClientRect().width);
    expect(previewWidth).toBe(280);
    expect(await page.getByText('File is ready for upload').isVisible()).toBe(true);
    await screenshot(page, 'dashboard-upload-preview-desktop');

    await page.getByRole('button', { name: 'Upload File', exact: true }).click();
    await page.getByText('Upload Complete!').waitFor({ timeout: 60_000 });
    expect(await page.getByText('Your file has been uploaded successfully').isVisible()).toBe(true);
    // The selection is cleared once the upload is complete.
    expect(await page.getByTestId('pdf-preview').count()).toBe(0);
    expect(await page.getByText('File is ready for upload').count()).toBe(0);
    const uploaded = card(page, 'degraded.pdf');
    await uploaded.waitFor();
    expect(await uploaded.getByText('3p').isVisible()).toBe(true);
    expect(await uploaded.getByText('3 credits').isVisible()).toBe(true);
    // The second browser never reloaded: the file arrived over its WebSocket.
    await card(second, 'degraded.pdf').waitFor({ timeout: 15_000 });

    // Several images go up in one batch request.
    await uploadThroughUi(page, [
      image(IMAGE_A, 'page.png'),
      { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: readFileSync(IMAGE_B) },
    ]);
    expect(await page.getByText('All 2 files have been uploaded successfully').isVisible()).toBe(true);
    expect(await page.getByTestId('upload-list').count()).toBe(0);
    await expect.poll(() => originals(page).count()).toBe(3);
    await expect.poll(() => originals(second).count()).toBe(3);
    // The count badge comes from the server's list, refetched after the cards arrived over the socket.
    await page.getByTestId('original-files').getByText('3 files', { exact: true }).waitFor();

    // Picking again replaces the selection; a single file can be removed; a broken PDF is not called valid.
    const input = page.getByTestId('file-input');
    await input.setInputFiles([pdf('one.pdf'), pdf('two.pdf')]);
    await page.getByText('Selected Files (2)').waitFor();
    await input.setInputFiles([
      {
        name: 'broken.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.7\nthis is not a PDF body\n'),
      },
    ]);
    await page.getByText('File Selected').waitFor();
    expect(await page.getByText('Selected Files (2)').count()).toBe(0);
    await page
      .getByText('This PDF is damaged or locked and cannot be uploaded. Please choose another file.')
      .waitFor();
    expect(await page.getByText('The file is still valid for upload').count()).toBe(0);
    await page.getByRole('button', { name: 'Remove broken.pdf' }).click();
    await page.getByText('File Selected').waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Upload File', exact: true }).count()).toBe(0);
  });

  it('takes a file dropped on the collapsed upload card or anywhere on the dashboard; a drop elsewhere stays', async () => {
    const session = await devLogin(backend.url);
    const page = await openDashboard(session);
    const png = readFileSync(IMAGE_A).toString('base64');
    /** Drops a PNG on the element; true when the page handled it (the browser would not open the file). */
    const dropOn = (selector: string, name: string) =>
      page.evaluate(
        ({ selector, name, png }) => {
          const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
          const data = new DataTransfer();
          data.items.add(new File([bytes], name, { type: 'image/png' }));
          const target = document.querySelector(selector);
          if (!target) throw new Error(`no ${selector}`);
          target.dispatchEvent(
            new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }),
          );
          const drop = new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
          target.dispatchEvent(drop);
          return drop.defaultPrevented;
        },
        { selector, name, png },
      );
    const panel = page.getByTestId('upload-panel');
    const panelButton = panel.getByRole('button', { name: /Upload Documents/ });
    expect(await panelButton.getAttribute('aria-expanded')).toBe('false');
    // On the collapsed card: the panel opens with the file.
    expect(await dropOn('[data-testid="upload-panel"] button', 'dropped-on-card.png')).toBe(true);
    await panel.getByText('dropped-on-card.png').waitFor();
    expect(await panelButton.getAttribute('aria-expanded')).toBe('true');
    // Anywhere else on the dashboard (the heading): taken as well.
    expect(await dropOn('h1', 'dropped-on-heading.png')).toBe(true);
    await panel.getByText('dropped-on-heading.png').waitFor();
    // A new drop replaces the selection, like a new pick.
    expect(await panel.getByText('dropped-on-card.png').count()).toBe(0);
    await panel.getByRole('button', { name: 'Upload File', exact: true }).click();
    await page.getByText('Upload Complete!').waitFor({ timeout: 60_000 });
    await card(page, 'dropped-on-heading.png').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');

    // Signed out, on the landing page: a dropped file is not opened by the browser.
    const landing = await (await browser.newContext({ baseURL: backend.url })).newPage();
    contexts.push(landing.context());
    await landing.goto('/');
    const kept = await landing.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(['%PDF-1.4'], 'stray.pdf', { type: 'application/pdf' }));
      const drop = new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
      document.body.dispatchEvent(drop);
      return drop.defaultPrevented;
    });
    expect(kept).toBe(true);
    expect(new URL(landing.url()).pathname).toBe('/');
  }, 120_000);

  it('refuses too few credits, restores with live progress, compares, downloads and deletes', async () => {
    const session = await devLogin(backend.url);
    const page = await openDashboard(session);
    const pdfs = ['letter-a.pdf', 'letter-b.pdf', 'letter-c.pdf', 'letter-d.pdf'];
    await uploadThroughUi(page, [...pdfs.map(pdf), image(IMAGE_A, 'page.png')]);
    await expect.poll(() => originals(page).count()).toBe(5);
    await expect.poll(() => balance(page)).toBe('10 credits');

    // Too few credits: 4 × 3 pages + 1 = 13 > 10; the credit modal opens with the reason and nothing starts.
    await page.getByTestId('original-files').getByRole('button', { name: 'Select All' }).click();
    expect(await page.getByTestId('selection-cost').textContent()).toBe('−13');
    await page.getByRole('button', { name: 'Start AI Restoration' }).click();
    const modal = page.getByRole('dialog', { name: 'Select Credit Package' });
    await modal.waitFor();
    expect(await modal.textContent()).toContain(
      'You need 13 credit(s) but only have 10. Please purchase more credits to continue.',
    );
    await modal.getByRole('button', { name: 'Cancel' }).click();
    expect(await balance(page)).toBe('10 credits');
    expect(await page.getByTestId('progress-card').count()).toBe(0);
    await page.getByTestId('original-files').getByRole('button', { name: 'Deselect All' }).click();

    // Enough credits: 3 pages cost 3 of 10; progress arrives live over the socket.
    await card(page, 'letter-a.pdf').click();
    expect(await page.getByTestId('selection-cost').textContent()).toBe('−3');
    expect(await page.getByRole('button', { name: 'Select All (1 of 5 selected)' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Start AI Restoration' }).click();
    const confirm = page.getByRole('dialog', { name: 'Start AI Restoration?' });
    expect(await confirm.textContent()).toContain(
      'You are about to restore 1 file(s). This will cost 3 credit(s). Do you want to proceed?',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    // The placeholder comes when page 1 starts: it opens Restored Files, counts pages and is announced.
    const progress = page.getByTestId('progress-card');
    await progress.waitFor({ timeout: 120_000 });
    expect(await progress.textContent()).toMatch(/Processing page \d\/3: letter-a\.pdf/);
    expect(await progress.textContent()).toMatch(/Page \d of 3/);
    expect(await progress.getByRole('progressbar').getAttribute('aria-valuetext')).toMatch(
      /^\d of 3 pages done$/,
    );
    expect(await page.getByTestId('restored-files').getByRole('button', { expanded: true }).count()).toBe(1);
    await expect
      .poll(() => page.getByTestId('restoration-announcement').textContent())
      .toMatch(/^Restoring letter-a\.pdf: page \d of 3\.$/);
    expect(await page.getByTestId('restoration-announcement').getAttribute('aria-live')).toBe('polite');
    await expect.poll(() => balance(page)).toBe('7 credits');
    await progress.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await screenshot(page, 'dashboard-restoring-desktop');

    // A start the server refuses (this file is already being restored) says why on the card; nothing is paid.
    await card(page, 'letter-a.pdf').getByRole('button', { name: 'Restore letter-a.pdf' }).click();
    await page.getByRole('dialog', { name: 'Start AI Restoration?' }).waitFor();
    await page.keyboard.press('Enter');
    const failure = card(page, 'letter-a.pdf').getByTestId('file-failure');
    await failure.waitFor();
    expect(await failure.textContent()).toBe(
      'Restoration could not start: This file is already being restored. No credits were used.',
    );
    await failure.scrollIntoViewIfNeeded();
    await screenshot(page, 'dashboard-start-refused-desktop');
    expect(await balance(page)).toBe('7 credits');

    await restored(page).first().waitFor({ timeout: 240_000 });
    await progress.waitFor({ state: 'detached' });
    const result = restored(page).first();
    expect(await result.getByText('Processed').isVisible()).toBe(true);
    expect(await result.getByText('letter-a.pdf', { exact: true }).isVisible()).toBe(true);
    await expect
      .poll(() => page.getByTestId('restoration-announcement').textContent())
      .toMatch(/ is restored\.$/);

    // Paying twice: the restored original is marked, and the dialog counts it and offers to leave it out.
    const originalA = originals(page).filter({ hasText: 'letter-a.pdf' });
    await originalA.getByText('Already restored').waitFor();
    await originalA.click();
    await card(page, 'letter-b.pdf').click();
    await page.getByRole('button', { name: 'Start AI Restoration' }).click();
    const twice = page.getByRole('dialog', { name: 'Start AI Restoration?' });
    await twice.waitFor();
    expect(await twice.textContent()).toContain(
      'You are about to restore 2 file(s). This will cost 6 credit(s). Do you want to proceed? 1 of the 2 selected files already has a restored version.',
    );
    expect(await twice.getByRole('button', { name: 'Leave them out (1 file, 3 credits)' }).isVisible()).toBe(
      true,
    );
    expect(await twice.getByRole('button', { name: 'Restore all again' }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-restore-twice-dialog-desktop');
    await twice.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByTestId('original-files')
      .getByRole('button', { name: /Select All \(2 of 5 selected\)/ })
      .click();
    await page.getByTestId('original-files').getByRole('button', { name: 'Deselect All' }).click();

    // Before/after comparison of the restored file against its original.
    await result.getByRole('button', { name: /^Compare / }).click();
    const compare = page.getByTestId('compare-view');
    await compare.getByTestId('compare-after').waitFor({ timeout: 60_000 });
    await page.getByRole('slider').focus();
    await page.keyboard.press('ArrowRight');
    await screenshot(page, 'dashboard-compare-desktop');
    await page.getByRole('button', { name: 'Close' }).click();

    // Single download of the restored file.
    const restoredName = (await result.locator('label').textContent()) ?? '';
    const [single] = await Promise.all([
      page.waitForEvent('download'),
      result.getByRole('button', { name: /^Download / }).click(),
    ]);
    expect(single.suggestedFilename()).toBe(restoredName);
    expect(
      readFileSync(await downloaded(single))
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    // Zip of two selected originals; a successful batch download clears the selection.
    await card(page, 'letter-b.pdf').click();
    await card(page, 'page.png').click();
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('original-files').getByRole('button', { name: 'Download Selected' }).click(),
    ]);
    expect(zip.suggestedFilename()).toMatch(/^selected_files_\d+\.zip$/);
    expect(zipEntries(readFileSync(await downloaded(zip))).sort()).toEqual(['letter-b.pdf', 'page.png']);
    await page
      .getByTestId('original-files')
      .getByRole('button', { name: 'Select All', exact: true })
      .waitFor();
    await screenshot(page, 'dashboard-results-desktop', true);
    await page.setViewportSize(MOBILE);
    // The grids mount only the cards near the viewport: scroll to the Restored Files section as a user would,
    // then its card is there. The phone shot is of the viewport at the result.
    await page.getByTestId('restored-files').scrollIntoViewIfNeeded();
    await result.scrollIntoViewIfNeeded();
    await screenshot(page, 'dashboard-results-mobile');
    await page.setViewportSize(DESKTOP);

    // Delete one file, then bulk-delete the remaining originals.
    await card(page, 'page.png')
      .getByRole('button', { name: /^Delete / })
      .click();
    const del = page.getByRole('dialog', { name: 'Delete file?' });
    expect(await del.locator('strong').textContent()).toBe('"page.png"');
    await del.getByRole('button', { name: 'Delete' }).click();
    await card(page, 'page.png').waitFor({ state: 'detached' });
    await page.getByTestId('original-files').getByRole('button', { name: 'Select All' }).click();
    await page.getByTestId('original-files').getByRole('button', { name: 'Delete Selected' }).click();
    await page
      .getByRole('dialog', { name: 'Delete selected files?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page
      .getByTestId('original-files')
      .getByText('No files available yet.')
      .waitFor({ timeout: 30_000 });
    expect(await restored(page).count()).toBe(1);
  }, 420_000);
});

/** A backend on a fixed port and data directory, so it can be stopped and started again. */
function spawnBackend(port: number, dataDir: string): { ready: Promise<void>; stop: () => Promise<void> } {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'backend/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...INHERITED_ENV,
      FOLIO_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      FOLIO_DATA_DIR: dataDir,
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: '',
      REDIS_URL: '',
      STRIPE_SECRET_KEY: '',
      GOOGLE_CLIENT_ID: '',
      DEV_LOGIN: 'true',
    },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = (async () => {
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`backend exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('backend did not become healthy');
  })();
  return {
    ready,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('realtime connection', () => {
  it('warns when the server goes away, reconnects every 3 s and receives events again', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'folio-e2e-restart-'));
    const baseUrl = `http://127.0.0.1:${port}`;
    let server = spawnBackend(port, dataDir);
    try {
      await server.ready;
      const session = await devLogin(baseUrl);
      const page = await openDashboard(session, { baseUrl });
      await page.getByText('No files available yet.').waitFor();
      await page.waitForFunction(() => performance.getEntriesByType('resource').length > 0);

      await server.stop();
      await page.getByText('Connection lost. Attempting to reconnect...').waitFor({ timeout: 15_000 });
      // It stays while the connection is down (other notices hide after 5 s).
      await page.waitForTimeout(6000);
      expect(await page.getByText('Connection lost. Attempting to reconnect...').isVisible()).toBe(true);
      // Below the header, never over it.
      const bannerTop = await page
        .getByTestId('notification')
        .evaluate((el) => el.getBoundingClientRect().top);
      const headerBottom = await page.locator('header').evaluate((el) => el.getBoundingClientRect().bottom);
      expect(bannerTop).toBeGreaterThanOrEqual(headerBottom);
      server = spawnBackend(port, dataDir);
      await server.ready;
      await page.getByText('Reconnected to server successfully.').waitFor({ timeout: 15_000 });

      // The new socket delivers events: an upload from elsewhere appears without a reload.
      const form = new FormData();
      form.append('file', new Blob([readFileSync(IMAGE_A)], { type: 'image/png' }), 'from-elsewhere.png');
      const res = await fetch(`${baseUrl}/api/v1/files/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.token}` },
        body: form,
      });
      expect(res.status).toBe(200);
      await card(page, 'from-elsewhere.png').waitFor({ timeout: 15_000 });
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
