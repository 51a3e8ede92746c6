// 300 files on the dashboard in Chromium against the real backend: one page of 48 cards per section (the page
// stays short and every card can be reached), search by name, sorts, status and type filters and paging, all
// answered by the server's paged list; axe-core finds no serious or critical violation on the full dashboard.
// Screenshots of the 300-file dashboard are kept in e2e/artifacts/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../src/axe.js';
import { startBackend, type RunningBackend } from '../src/backend.js';
import { EVAL_DIR } from '../src/settings.js';
import { launchChromium, screenshot } from '../src/browser.js';

const PNGS = 298;
const BATCH = 50;
const PAGE_SIZE = 48;
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 844 };
const PDF = readFileSync(path.join(EVAL_DIR, 'pdf_001/degraded.pdf'));

/** Every 10th file is an invoice; every 7th name is long enough to wrap onto more lines in its card. */
const fileName = (i: number) =>
  `${i % 10 === 0 ? 'invoice' : 'scan'}-${String(i).padStart(3, '0')}${i % 7 === 0 ? '-a-much-longer-name-that-wraps-onto-more-lines-in-its-card' : ''}.png`;

/** A small RGB PNG with a per-file colour, so every upload is a distinct, valid image. */
function png(width: number, height: number, seed: number): Buffer {
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * row + 1 + x * 3;
      raw[at] = (seed * 37 + x) % 256;
      raw[at + 1] = (seed * 91 + y) % 256;
      raw[at + 2] = 200;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, tail]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let backend: RunningBackend;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  backend = await startBackend({ DEV_LOGIN: 'true', GOOGLE_CLIENT_ID: '' });
  browser = await launchChromium();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await backend?.stop();
});

const originals = (page: Page) => page.getByTestId('original-files');
const cardNames = (page: Page) =>
  originals(page)
    .getByTestId('file-card')
    .evaluateAll((cards) => cards.map((c) => c.querySelector('label')?.textContent ?? ''));

/** Waits for the Original Files section to show `text` in its pager line (the server answered). */
const showing = (page: Page, text: string) => originals(page).getByText(text, { exact: true }).waitFor();

describe('dashboard with 300 files', () => {
  it('shows pages of 48, finds files by name, sorts, filters and has no serious axe violation', async () => {
    const login = await fetch(`${backend.url}/api/v1/auth/dev-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'many@example.com', name: 'Many Files' }),
    });
    const session = (await login.json()) as { token: string; user: unknown };
    const auth = { authorization: `Bearer ${session.token}` };

    const uploadStart = performance.now();
    for (let first = 0; first < PNGS; first += BATCH) {
      const form = new FormData();
      for (let i = first; i < Math.min(PNGS, first + BATCH); i++) {
        form.append(
          'files',
          new Blob([new Uint8Array(png(120, 160, i))], { type: 'image/png' }),
          fileName(i),
        );
      }
      const res = await fetch(`${backend.url}/api/v1/files/batch-upload`, {
        method: 'POST',
        headers: auth,
        body: form,
      });
      expect(res.status).toBe(200);
    }
    const pdfs = new FormData();
    for (const name of ['contract-a.pdf', 'contract-b.pdf']) {
      pdfs.append('files', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), name);
    }
    const pdfAnswer = await fetch(`${backend.url}/api/v1/files/batch-upload`, {
      method: 'POST',
      headers: auth,
      body: pdfs,
    });
    expect(pdfAnswer.status).toBe(200);
    const total = PNGS + 2;
    const uploadMs = performance.now() - uploadStart;
    // The first page's previews, so the screenshot shows them (the rest render in the background).
    for (;;) {
      const res = await fetch(`${backend.url}/api/v1/files/all?type=original&limit=${PAGE_SIZE}`, {
        headers: auth,
      });
      const list = (await res.json()) as { files: { preview_available: boolean }[]; total: number };
      if (list.total === total && list.files.every((f) => f.preview_available)) break;
      if (performance.now() - uploadStart > 240_000) throw new Error('previews did not finish in 240 s');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }

    context = await browser.newContext({ baseURL: backend.url, viewport: DESKTOP, reducedMotion: 'reduce' });
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
    const listQueries: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/files/all')) listQueries.push(new URL(request.url()).search);
    });
    await page.goto('/dashboard');
    await showing(page, `Showing 1–${PAGE_SIZE} of ${total} files`);
    const renderedAtMs = await page.evaluate(() => performance.now());
    // The count badge counts every file; the browser asked for one page per section, never the whole list.
    expect(await originals(page).getByText(`${total} files`, { exact: true }).isVisible()).toBe(true);
    expect(listQueries.length).toBeGreaterThan(0);
    expect(listQueries.every((q) => q.includes(`limit=${PAGE_SIZE}`))).toBe(true);
    expect(
      await originals(page)
        .getByText(`Page 1 of ${Math.ceil(total / PAGE_SIZE)}`)
        .isVisible(),
    ).toBe(true);
    // One page: the dashboard is a few screens tall, not 38,000 px.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(12 * DESKTOP.height);
    expect(await page.getByRole('heading', { name: /Original Files/ }).isVisible()).toBe(true);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="original-grid"] [data-preview-state]')]
        .filter((el) => {
          const box = el.getBoundingClientRect();
          return box.bottom > 0 && box.top < innerHeight;
        })
        .every((el) => el.getAttribute('data-preview-state') === 'loaded'),
    );
    await screenshot(page, 'dashboard-300-desktop');
    expect(await seriousViolations(page)).toEqual([]);

    // Next page, and the last one.
    await originals(page).getByRole('button', { name: 'Next' }).click();
    await showing(page, `Showing ${PAGE_SIZE + 1}–${2 * PAGE_SIZE} of ${total} files`);
    const lastPage = Math.ceil(total / PAGE_SIZE);
    for (let p = 2; p < lastPage; p++) await originals(page).getByRole('button', { name: 'Next' }).click();
    await showing(page, `Showing ${(lastPage - 1) * PAGE_SIZE + 1}–${total} of ${total} files`);
    expect(await originals(page).getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    // Search by name (any case): back to page 1, only the 30 invoices.
    await page.getByLabel('Search by name').fill('INVOICE');
    await showing(page, `Showing 1–30 of 30 files`);
    const invoices = await cardNames(page);
    expect(invoices.length).toBeGreaterThan(0);
    expect(invoices.every((name) => name.startsWith('invoice-'))).toBe(true);
    expect(await originals(page).getByText('30 files', { exact: true }).isVisible()).toBe(true);

    // Sort by name, Z to A: the last invoice first.
    await page.getByLabel('Sort').selectOption({ label: 'Name (Z to A)' });
    await originals(page).getByTestId('file-card').first().getByText('invoice-290.png').waitFor();
    // Oldest first, then without the search: the very first upload leads.
    await page.getByLabel('Sort').selectOption({ label: 'Oldest first' });
    await page.getByLabel('Search by name').fill('');
    await showing(page, `Showing 1–${PAGE_SIZE} of ${total} files`);
    expect((await cardNames(page))[0]).toMatch(/^invoice-000/);

    // Type filter: the two PDFs; status filter: nothing has failed.
    await page.getByLabel('Type').selectOption({ label: 'PDF documents' });
    await showing(page, 'Showing 1–2 of 2 files');
    expect((await cardNames(page)).sort()).toEqual(['contract-a.pdf', 'contract-b.pdf']);
    await page.getByLabel('Status').selectOption({ label: 'Error' });
    await originals(page).getByText('No files match your search.').waitFor();
    await page.getByLabel('Status').selectOption({ label: 'All statuses' });
    await page.getByLabel('Type').selectOption({ label: 'All types' });
    await page.getByLabel('Sort').selectOption({ label: 'Newest first' });
    await showing(page, `Showing 1–${PAGE_SIZE} of ${total} files`);

    // Select All selects the page shown (and says so against the page's cards).
    await originals(page).getByRole('button', { name: 'Select All', exact: true }).click();
    await originals(page).getByRole('button', { name: 'Deselect All' }).waitFor();

    // A phone: one column, the pager still reachable.
    await page.setViewportSize(MOBILE);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await screenshot(page, 'dashboard-300-mobile');
    expect(await seriousViolations(page)).toEqual([]);

    console.log(
      [
        `dashboard with ${total} files:`,
        `  upload in ${Math.ceil(PNGS / BATCH)} batch requests: ${(uploadMs / 1000).toFixed(1)} s`,
        `  page load to the first page rendered: ${renderedAtMs.toFixed(0)} ms; page height ${height} px`,
      ].join('\n'),
    );
  }, 420_000);
});
