// 500 files on the dashboard in Chromium against the real backend: the windowed grid mounts only the rows near
// the viewport, keeps the spec's columns, fetches previews only for cards near the viewport, reaches every card
// when scrolled, selects off-screen cards and keeps the focused card. How long it takes to render and how
// smoothly it scrolls are printed, not asserted (timings depend on the machine).
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type RunningBackend } from '../src/backend.js';
import { launchChromium, screenshot } from '../src/browser.js';

const FILES = 500;
const BATCH = 50;
const STEP_PX = 300;
const DESKTOP = { width: 1440, height: 900 };
const MOBILE = { width: 390, height: 844 };

/** Every 7th name is long enough to wrap onto more lines, so rows of cards differ in height as in real lists. */
const fileName = (i: number) =>
  `scan-${String(i).padStart(3, '0')}${i % 7 === 0 ? '-a-much-longer-name-that-wraps-onto-more-lines-in-its-card' : ''}.png`;

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

/** In the page: how the Original Files grid is rendered right now. */
function gridState() {
  const items = [
    ...document.querySelectorAll<HTMLElement>('[data-testid="original-grid"] > li:not(.sr-only)'),
  ];
  const boxes = items.map((li) => li.getBoundingClientRect());
  return {
    mounted: items.length,
    lastIndex: Math.max(-1, ...items.map((li) => Number(li.dataset.index))),
    columns: new Set(boxes.map((box) => Math.round(box.left))).size,
    visible: boxes.filter((box) => box.bottom > 0 && box.top < innerHeight).length,
    scrollHeight: document.documentElement.scrollHeight,
  };
}

/**
 * In the page: the preview images of the mounted cards are decoded, so a screenshot shows them. Bounded: a
 * renderer that stops producing frames can leave decode() pending for good, and page.evaluate has no timeout.
 */
async function previewsDecoded() {
  const images = [...document.querySelectorAll<HTMLImageElement>('[data-testid="original-grid"] img')];
  const decoded = Promise.all(images.map((img) => img.decode().catch(() => undefined)));
  const late = new Promise((_, reject) =>
    setTimeout(() => reject(new Error('previews not decoded in 10 s')), 10_000),
  );
  await Promise.race([decoded, late]);
}

/** In the page: every card preview on screen has loaded. */
function visiblePreviewsLoaded() {
  return [...document.querySelectorAll('[data-testid="original-grid"] [data-preview-state]')]
    .filter((el) => {
      const box = el.getBoundingClientRect();
      return box.bottom > 0 && box.top < innerHeight;
    })
    .every((el) => el.getAttribute('data-preview-state') === 'loaded');
}

/**
 * In the page: from the bottom, scroll up `steps` times by `step` px and report every step that moved the card
 * in the middle of the viewport by anything else than `step`.
 */
async function scrollUpAndTrack({ steps, step }: { steps: number; step: number }): Promise<string[]> {
  const frames = async (n: number) => {
    // A frame, or 250 ms if the renderer stops delivering frames (seen under load): never wait forever.
    for (let i = 0; i < n; i++)
      await new Promise<void>((resolve) => {
        const fallback = setTimeout(resolve, 250);
        requestAnimationFrame(() => {
          clearTimeout(fallback);
          resolve();
        });
      });
  };
  const cards = () => [
    ...document.querySelectorAll<HTMLElement>('[data-testid="original-grid"] > li:not(.sr-only)'),
  ];
  window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
  await frames(10);
  const jumps: string[] = [];
  for (let i = 0; i < steps && window.scrollY > step; i++) {
    const middle = innerHeight / 2;
    const card = cards().find((li) => li.getBoundingClientRect().bottom > middle);
    if (!card) return [`no card at the middle of the viewport at scrollY ${window.scrollY}`];
    const before = card.getBoundingClientRect().top;
    window.scrollBy({ top: -step, behavior: 'instant' });
    await frames(3);
    if (!card.isConnected) return [`card ${card.dataset.index} unmounted one step after it was on screen`];
    const moved = card.getBoundingClientRect().top - before;
    if (Math.abs(moved - step) > 1) jumps.push(`card ${card.dataset.index} moved ${moved.toFixed(0)} px`);
  }
  return jumps;
}

interface ScrollPass {
  frames: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
  over50ms: number;
  /** Steps whose frame never came (the 250 ms fallback ended the wait), and how many of those the page was hidden. */
  framesMissed: number;
  missedWhileHidden: number;
  reachedBottom: boolean;
  cardsSeen: number;
  mountedMax: number;
}

/**
 * In the page: scroll from the top to the bottom by `step` px per frame. Stops at the bottom of the page, not
 * at the first frame that did not move (a frame can be stalled by layout or a late render); a page that stays
 * stuck for 2 s ends the pass with reachedBottom false.
 */
async function scrollThrough(step: number): Promise<ScrollPass> {
  const gaps: number[] = [];
  const seen = new Set<string>();
  let mountedMax = 0;
  const bottom = () => document.documentElement.scrollHeight - innerHeight;
  window.scrollTo({ top: 0, behavior: 'instant' });
  let last = performance.now();
  let stuckSince = last;
  let framesMissed = 0;
  let missedWhileHidden = 0;
  while (window.scrollY < bottom() - 1 && performance.now() - stuckSince < 2000) {
    const before = window.scrollY;
    window.scrollBy({ top: step, behavior: 'instant' });
    // A frame, or 250 ms if the renderer stops delivering frames (seen under load): never wait forever.
    await new Promise<void>((resolve) => {
      const fallback = setTimeout(() => {
        framesMissed += 1;
        if (document.visibilityState !== 'visible') missedWhileHidden += 1;
        resolve();
      }, 250);
      requestAnimationFrame(() => {
        clearTimeout(fallback);
        resolve();
      });
    });
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    if (window.scrollY !== before) stuckSince = now;
    const labels = document.querySelectorAll('[data-testid="original-grid"] > li:not(.sr-only) label');
    mountedMax = Math.max(mountedMax, labels.length);
    for (const label of labels) seen.add(label.textContent ?? '');
  }
  const reachedBottom = window.scrollY >= bottom() - 1;
  gaps.sort((a, b) => a - b);
  const pick = (q: number) => gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))] ?? 0;
  return {
    frames: gaps.length,
    meanMs: gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length),
    p95Ms: pick(0.95),
    maxMs: gaps[gaps.length - 1] ?? 0,
    over50ms: gaps.filter((g) => g > 50).length,
    framesMissed,
    missedWhileHidden,
    reachedBottom,
    cardsSeen: seen.size,
    mountedMax,
  };
}

/** A scroll pass in one line; printed before its assertions, so a failing run shows whether frames stopped. */
const pass = (p: ScrollPass) =>
  `${p.frames} frames, mean ${p.meanMs.toFixed(1)} ms, p95 ${p.p95Ms.toFixed(1)} ms, max ${p.maxMs.toFixed(1)} ms, ` +
  `${p.over50ms} frames over 50 ms, ${p.framesMissed} steps without a frame (${p.missedWhileHidden} while hidden)`;

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
  it('renders the cards near the viewport, scrolls through all of them, selects and keeps focus', async () => {
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

    // Reduced motion: the app then scrolls focused cards into view at once instead of smoothly. Headless
    // Chromium 156 here now and then stopped delivering frames for good after smooth scrolls (scroll events never
    // came, waits hung): 3 of 7 runs passed with smooth scrolling, 6 of 6 without.
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
    let previewRequests = 0;
    page.on('request', (request) => {
      if (request.url().includes('preview=true')) previewRequests += 1;
    });
    await page.goto('/dashboard');
    await page.getByTestId('original-grid').locator('[data-testid="file-card"]').first().waitFor();
    const renderedAtMs = await page.evaluate(() => performance.now());
    expect(await page.getByText(`${FILES} files`).isVisible()).toBe(true);

    // Windowed: a few rows are mounted, in the spec's 4 columns at this width; the page is as long as all rows.
    const grid = await page.evaluate(gridState);
    expect(grid.mounted).toBeGreaterThan(0);
    expect(grid.mounted).toBeLessThan(FILES / 4);
    expect(grid.columns).toBe(4);
    expect(grid.scrollHeight).toBeGreaterThan(20 * DESKTOP.height);

    // Previews: every card on screen loads its preview; only mounted cards near the viewport fetched one.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="original-grid"] [data-preview-state]')]
        .filter((el) => {
          const box = el.getBoundingClientRect();
          return box.bottom > 0 && box.top < innerHeight;
        })
        .every((el) => el.getAttribute('data-preview-state') === 'loaded'),
    );
    const onScreen = await page.evaluate(gridState);
    expect(previewRequests).toBeGreaterThanOrEqual(onScreen.visible);
    expect(previewRequests).toBeLessThanOrEqual(onScreen.mounted);
    await page.evaluate(previewsDecoded);
    await screenshot(page, 'dashboard-500-desktop');

    // Scroll top to bottom, 300 px per frame, recording every frame interval and every card that was mounted.
    const scroll = await page.evaluate(scrollThrough, STEP_PX);
    console.log(`scroll to bottom: ${pass(scroll)}, ${scroll.cardsSeen} cards seen`);
    expect(scroll.frames).toBeGreaterThan(grid.scrollHeight / STEP_PX - 5);
    expect(scroll.reachedBottom).toBe(true);
    expect(scroll.cardsSeen).toBe(FILES);
    const lastCard = page.getByTestId('original-grid').locator(`li[data-index="${FILES - 1}"]`);
    expect(await lastCard.isVisible()).toBe(true);
    expect(await lastCard.evaluate((el) => el.getBoundingClientRect().bottom <= innerHeight)).toBe(true);
    // Each preview was fetched once, when its card first came near the viewport.
    await expect.poll(() => previewRequests, { timeout: 30_000 }).toBe(FILES);

    // Second pass: previews come from the cache, so only rendering and painting remain.
    const scrollAgain = await page.evaluate(scrollThrough, STEP_PX);
    console.log(`second pass: ${pass(scrollAgain)}, ${scrollAgain.cardsSeen} cards seen`);
    expect(scrollAgain.reachedBottom).toBe(true);
    expect(scrollAgain.cardsSeen).toBe(FILES);
    expect(previewRequests).toBe(FILES);

    // Mid-list, everything on screen drawn: no gaps where rows are swapped in and out.
    await page.evaluate(() =>
      window.scrollTo({ top: document.documentElement.scrollHeight / 2, behavior: 'instant' }),
    );
    await page.waitForFunction(visiblePreviewsLoaded);
    await page.evaluate(previewsDecoded);
    await screenshot(page, 'dashboard-500-middle-desktop');

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
    expect(await page.getByTestId('selection-cost').textContent()).toBe(`−${FILES - 1}`);

    // Select All also selected the cards that were not mounted: the first one, back at the top.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    const firstBox = page.getByTestId('original-grid').locator('li[data-index="0"] input[type="checkbox"]');
    expect(await firstBox.isChecked()).toBe(true);

    // The focused card stays mounted when scrolled far away, and Space still toggles it.
    await firstBox.focus();
    await page.evaluate(() =>
      window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }),
    );
    await page.waitForFunction(
      () => !document.querySelector('[data-testid="original-grid"] li[data-index="1"]'),
    );
    expect(await firstBox.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: `Select All (${FILES - 2} of ${FILES} selected)` }).waitFor();

    // Tab walks from the first card past the rows that were mounted at the top.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="original-grid"] li[data-index="1"]'),
    );
    const mountedAtTop = await page.evaluate(gridState);
    await firstBox.focus();
    for (let i = 0; i < 4 * (mountedAtTop.lastIndex + 2); i++) await page.keyboard.press('Tab');
    const focusedIndex = await page.evaluate(() =>
      Number(document.activeElement?.closest('li')?.getAttribute('data-index') ?? -1),
    );
    expect(focusedIndex).toBeGreaterThan(mountedAtTop.lastIndex);

    // A phone: one column, mid-list.
    await page.setViewportSize(MOBILE);
    await page.evaluate(() =>
      window.scrollTo({ top: document.documentElement.scrollHeight / 2, behavior: 'instant' }),
    );
    await page.waitForFunction(visiblePreviewsLoaded);
    const phone = await page.evaluate(gridState);
    expect(phone.columns).toBe(1);
    expect(phone.mounted).toBeLessThan(FILES / 10);
    await page.evaluate(previewsDecoded);
    await screenshot(page, 'dashboard-500-middle-mobile');

    // Rows mounting above the viewport with heights never measured at this width do not move the cards on
    // screen: from the bottom, every step up moves the card in the middle of the screen by exactly the step.
    const jumps = await page.evaluate(scrollUpAndTrack, { steps: 100, step: 200 });
    expect(jumps).toEqual([]);

    console.log(
      [
        `dashboard with ${FILES} files:`,
        `  upload ${FILES} files in ${FILES / BATCH} batch requests: ${(uploadMs / 1000).toFixed(1)} s`,
        `  server previews done ${(previewMs / 1000).toFixed(1)} s after the last upload`,
        `  page load to the first cards rendered: ${renderedAtMs.toFixed(0)} ms (${grid.mounted} of ${FILES} cards mounted)`,
        `  scroll to bottom: ${pass(scroll)} (${scroll.mountedMax} cards mounted at most)`,
        `  second pass: ${pass(scrollAgain)}`,
        `  Select All on ${FILES} cards: ${selection.selectAllMs.toFixed(1)} ms; toggling one card: ${selection.toggleMs.toFixed(1)} ms`,
      ].join('\n'),
    );
  }, 420_000);
});
