// 500 files on the dashboard: how long the list takes to render and how smoothly it scrolls, in Chromium against
// the real backend. Figures are printed, not asserted (timings depend on the machine).
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type RunningBackend } from '../src/backend.js';
import { launchChromium } from '../src/browser.js';

const FILES = 500;
const BATCH = 50;

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

describe('dashboard with 500 files', () => {
  it('renders every card and scrolls through them', async () => {
    const login = await fetch(`${backend.url}/api/v1/auth/dev-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'many@example.com', name: 'Many Files' }),
    });
    const session = (await login.json()) as { token: string; user: unknown };
    const auth = { authorization: `Bearer ${session.token}` };

    const uploadStart = performance.now();
    for (let first = 0; first < FILES; first += BATCH) {
      const form = new FormData();
      for (let i = first; i < first + BATCH; i++) {
        form.append(
          'files',
          new Blob([new Uint8Array(png(120, 160, i))], { type: 'image/png' }),
          `scan-${String(i).padStart(3, '0')}.png`,
        );
      }
      const res = await fetch(`${backend.url}/api/v1/files/batch-upload`, {
        method: 'POST',
        headers: auth,
        body: form,
      });
      expect(res.status).toBe(200);
    }
    const uploadMs = performance.now() - uploadStart;
    // Measure the page, not the server: wait until the backend has rendered every preview.
    const previewStart = performance.now();
    for (;;) {
      const list = (await (await fetch(`${backend.url}/api/v1/files/all`, { headers: auth })).json()) as {
        files: { preview_available: boolean }[];
      };
      if (list.files.length === FILES && list.files.every((f) => f.preview_available)) break;
      if (performance.now() - previewStart > 240_000) throw new Error('previews did not finish in 240 s');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const previewMs = performance.now() - previewStart;

    context = await browser.newContext({ baseURL: backend.url, viewport: { width: 1440, height: 900 } });
    await context.addInitScript(
      ({ token, user }) => {
        localStorage.setItem('google_token', token);
        localStorage.setItem('user_data', JSON.stringify(user));
        localStorage.setItem('folio_onboarding_done', 'true');
      },
      { token: session.token, user: session.user },
    );
    const page = await context.newPage();
    await page.goto('/dashboard');
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="file-card"]').length === n,
      FILES,
      { timeout: 60_000 },
    );
    const renderedAtMs = await page.evaluate(() => performance.now());
    expect(await page.getByText(`${FILES} files`).isVisible()).toBe(true);

    // Scroll top to bottom, 300 px per frame, and record every frame interval.
    const scrollThrough = () =>
      page.evaluate(async () => {
        const gaps: number[] = [];
        let last = performance.now();
        window.scrollTo({ top: 0, behavior: 'instant' });
        // Until the page stops moving: the bottom is reached.
        for (;;) {
          const before = window.scrollY;
          window.scrollBy({ top: 300, behavior: 'instant' });
          await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
          const now = performance.now();
          gaps.push(now - last);
          last = now;
          if (window.scrollY === before) break;
        }
        gaps.sort((a, b) => a - b);
        const pick = (q: number) => gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))] ?? 0;
        return {
          frames: gaps.length,
          meanMs: gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length),
          p95Ms: pick(0.95),
          maxMs: gaps[gaps.length - 1] ?? 0,
          over50ms: gaps.filter((g) => g > 50).length,
        };
      });
    const scroll = await scrollThrough();
    // Second pass: every card rendered and every preview loaded, so only scrolling and painting remain.
    const scrollAgain = await scrollThrough();

    // Selection changes, timed inside the page: React applies a click's update before click() returns.
    const selection = await page.evaluate(async () => {
      // React flushes a click's update in a microtask; a zero timeout runs after it.
      const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
      const grid = document.querySelector('[data-testid="original-files"]');
      const buttons = () => [...(grid?.querySelectorAll('button') ?? [])];
      const selectAll = buttons().find((b) => b.textContent === 'Select All');
      const box = document.querySelector<HTMLInputElement>(
        '[data-testid="file-card"] input[type="checkbox"]',
      );
      if (!selectAll || !box) throw new Error('controls not found');
      const t0 = performance.now();
      selectAll.click();
      await settle();
      const t1 = performance.now();
      box.click();
      await settle();
      const t2 = performance.now();
      const label = buttons().find((b) => b.textContent?.startsWith('Select All ('));
      return { selectAllMs: t1 - t0, toggleMs: t2 - t1, label: label?.textContent ?? '' };
    });
    expect(selection.label).toBe(`Select All (${FILES - 1} of ${FILES} selected)`);

    console.log(
      [
        `dashboard with ${FILES} files:`,
        `  upload ${FILES} files in ${FILES / BATCH} batch requests: ${(uploadMs / 1000).toFixed(1)} s`,
        `  server previews done ${(previewMs / 1000).toFixed(1)} s after the last upload`,
        `  page load to ${FILES} cards rendered: ${renderedAtMs.toFixed(0)} ms`,
        `  scroll to bottom: ${scroll.frames} frames, mean ${scroll.meanMs.toFixed(1)} ms, p95 ${scroll.p95Ms.toFixed(1)} ms, max ${scroll.maxMs.toFixed(1)} ms, ${scroll.over50ms} frames over 50 ms`,
        `  second pass: ${scrollAgain.frames} frames, mean ${scrollAgain.meanMs.toFixed(1)} ms, p95 ${scrollAgain.p95Ms.toFixed(1)} ms, max ${scrollAgain.maxMs.toFixed(1)} ms, ${scrollAgain.over50ms} frames over 50 ms`,
        `  Select All on ${FILES} cards: ${selection.selectAllMs.toFixed(1)} ms; toggling one card: ${selection.toggleMs.toFixed(1)} ms`,
      ].join('\n'),
    );
    expect(scroll.frames).toBeGreaterThan(10);
  }, 420_000);
});
