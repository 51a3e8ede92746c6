// The file viewer in Debian's Chromium against the real backend and engine: a restored PDF opens in pdf.js's viewer,
// a word of its OCR text layer is found, a free-text note and an ink stroke are added, the stroke is undone, and
// the download carries the note (read back with pdfjs-dist); an original PDF and an image open too; the compare
// view opens with its slider focused, follows a drag on the image, zooms and pages through the PDF.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type RunningBackend } from '../src/backend.js';
import { EVAL_DIR } from '../src/settings.js';
import { launchChromium, screenshot } from '../src/browser.js';

const EVAL = EVAL_DIR;
const IMAGE = path.join(EVAL, 'doc_005/degraded.png');
const DESKTOP = { width: 1280, height: 800 };
const NOTE = 'Checked by Folio';
// Opens with the password "user" (the engine's fixture for refused uploads).
const ENCRYPTED = path.join(import.meta.dirname, '../../engine/test/fixtures/encrypted.pdf');

/** A valid one-page blank PDF of exactly `size` bytes (padded with a comment line). */
function blankPdf(size: number): Buffer {
  const build = (padding: number): Buffer => {
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    ];
    let body = `%PDF-1.4\n%${'x'.repeat(padding)}\n`;
    const offsets = objects.map((object, i) => {
      const at = body.length;
      body += `${i + 1} 0 obj\n${object}\nendobj\n`;
      return at;
    });
    const xref = body.length;
    body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
    for (const at of offsets) body += `${String(at).padStart(10, '0')} 00000 n \n`;
    body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return Buffer.from(body, 'latin1');
  };
  // The padding shifts the xref offset, whose digit count can grow: settle in a few steps.
  let padding = size - build(0).length;
  for (let step = 0; step < 3 && padding >= 0; step++) {
    const pdf = build(padding);
    if (pdf.length === size) return pdf;
    padding -= pdf.length - size;
  }
  throw new Error(`no blank PDF of ${size} bytes`);
}

interface Session {
  token: string;
  user: { id: string; email: string; name: string };
}

interface FileRow {
  id: string;
  filename: string;
  type: 'original' | 'restored';
  status: string;
}

let backend: RunningBackend;
let browser: Browser;
let session: Session;
let workDir: string;
let restoredName: string;
const contexts: BrowserContext[] = [];

async function api(pathname: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${backend.url}/api/v1${pathname}`, {
    ...init,
    headers: { authorization: `Bearer ${session.token}`, ...init.headers },
  });
}

async function upload(name: string, bytes: Buffer, mime: string): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type: mime }), name);
  const res = await api('/files/upload', { method: 'POST', body: form });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { file_id: string }).file_id;
}

async function listFiles(): Promise<FileRow[]> {
  return ((await (await api('/files/all')).json()) as { files: FileRow[] }).files;
}

beforeAll(async () => {
  backend = await startBackend({ DEV_LOGIN: 'true', SIGNUP_CREDITS: '10', GOOGLE_CLIENT_ID: '' });
  browser = await launchChromium();
  const login = await fetch(`${backend.url}/api/v1/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `viewer-${Date.now()}@example.com`, name: 'Viewer' }),
  });
  session = (await login.json()) as Session;
  expect((await api('/users/register', { method: 'POST' })).status).toBe(200);

  // The first two pages of the 3-page eval PDF (poppler-utils), restored once for every test.
  workDir = mkdtempSync(path.join(tmpdir(), 'folio-viewer-'));
  const source = path.join(EVAL, 'pdf_001/degraded.pdf');
  execFileSync('pdfseparate', ['-f', '1', '-l', '2', source, path.join(workDir, 'p%d.pdf')]);
  const twoPages = path.join(workDir, 'minutes.pdf');
  execFileSync('pdfunite', [path.join(workDir, 'p1.pdf'), path.join(workDir, 'p2.pdf'), twoPages]);
  const pdfId = await upload('minutes.pdf', readFileSync(twoPages), 'application/pdf');
  await upload('page.png', readFileSync(IMAGE), 'image/png');
  // Uploads refuse password-protected PDFs, so an encrypted original is put in place on disk: a blank PDF of the
  // same size is uploaded and its stored bytes are replaced (the download answers with the recorded length).
  const encrypted = readFileSync(ENCRYPTED);
  const sealedId = await upload('sealed.pdf', blankPdf(encrypted.length), 'application/pdf');
  const stored = path.join(backend.dataDir, 'files/objects', sealedId, 'content');
  expect(statSync(stored).size).toBe(encrypted.length);
  writeFileSync(stored, encrypted);
  const form = new FormData();
  form.set('file_id', pdfId);
  form.set('filename', 'minutes.pdf');
  expect((await api('/restoration/restore', { method: 'POST', body: form })).status).toBe(200);
  const deadline = Date.now() + 400_000;
  for (;;) {
    const done = (await listFiles()).find((f) => f.type === 'restored' && f.status === 'processed');
    if (done) {
      restoredName = done.filename;
      break;
    }
    if (Date.now() > deadline) throw new Error(`no restored file in 400 s:\n${backend.log().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await backend?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function openDashboard(): Promise<Page> {
  const context = await browser.newContext({
    baseURL: backend.url,
    viewport: DESKTOP,
    reducedMotion: 'reduce',
    acceptDownloads: true,
  });
  contexts.push(context);
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
  return page;
}

const card = (page: Page, name: string) =>
  page.getByTestId('file-card').filter({ has: page.getByText(name, { exact: true }) });

/** Where a download was saved, once it has finished; bounded, as Download.path() waits without a timeout. */
async function downloaded(download: Download): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('not downloaded in 30 s')), 30_000);
  });
  try {
    return await Promise.race([download.path(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The annotations of every page of a PDF, as pdf.js reads them. */
async function annotationsOf(bytes: Buffer): Promise<{ subtype: string; contents: string }[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const found: { subtype: string; contents: string }[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const annotations = (await (await doc.getPage(n)).getAnnotations()) as {
      subtype: string;
      contentsObj?: { str: string };
    }[];
    for (const a of annotations) found.push({ subtype: a.subtype, contents: a.contentsObj?.str ?? '' });
  }
  await doc.destroy();
  return found;
}

describe('file viewer', () => {
  it('opens a restored PDF, finds a word of its text layer, annotates, undoes and downloads the note', async () => {
    const page = await openDashboard();
    await card(page, restoredName)
      .getByRole('button', { name: `Open ${restoredName}` })
      .click();
    const viewer = page.getByTestId('file-viewer');
    await viewer.locator('[data-testid="pdf-viewer"][data-status="ready"]').waitFor({ timeout: 30_000 });
    expect(await viewer.getByTestId('page-number').textContent()).toBe('Page 1 of 2');
    const firstPage = viewer.locator('.page[data-page-number="1"]');
    await firstPage.locator('.textLayer span').first().waitFor({ timeout: 30_000 });

    // Search the OCR text layer.
    await viewer.getByRole('searchbox', { name: 'Find in document' }).fill('Westgate');
    await page.keyboard.press('Enter');
    await expect.poll(() => viewer.getByTestId('find-result').textContent()).toMatch(/^1 of [1-9]\d*$/);
    const highlight = firstPage.locator('.textLayer .highlight.selected');
    await highlight.first().waitFor();
    expect((await highlight.allTextContents()).join('').toLowerCase()).toContain('westgate');

    // Zoom in and back to the page width.
    const zoom = viewer.getByTestId('zoom');
    const fitted = await zoom.textContent();
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => zoom.textContent()).not.toBe(fitted);
    await viewer.getByRole('button', { name: 'Fit width' }).click();
    await expect.poll(() => zoom.textContent()).toBe(fitted);

    // A free-text note, then an ink stroke.
    await viewer.getByRole('button', { name: 'Text', exact: true }).click();
    await expect
      .poll(() => viewer.getByRole('button', { name: 'Text', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');
    await firstPage.scrollIntoViewIfNeeded();
    const box = await firstPage.boundingBox();
    if (!box) throw new Error('page 1 is not laid out');
    await page.mouse.click(box.x + box.width * 0.5, box.y + 120);
    // The new note's (still empty, so zero-sized) text box has the focus.
    const note = firstPage.locator('.freeTextEditor .internal');
    await note.waitFor({ state: 'attached' });
    await expect.poll(() => note.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(NOTE);
    await viewer.getByRole('button', { name: 'Draw', exact: true }).click();
    await expect
      .poll(() => viewer.getByRole('button', { name: 'Draw', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');
    await page.mouse.move(box.x + 100, box.y + 200);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + 100 + i * 20, box.y + 200 + (i % 2) * 30);
    await page.mouse.up();
    await viewer.getByRole('button', { name: 'Select', exact: true }).click();
    await expect.poll(() => firstPage.locator('.inkEditor').count()).toBe(1);
    expect(await firstPage.locator('.freeTextEditor').count()).toBe(1);
    await screenshot(page, 'viewer-pdf-annotated-desktop');

    // Undo takes back the stroke; the note stays.
    await viewer.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => firstPage.locator('.inkEditor').count()).toBe(0);
    expect(await firstPage.locator('.freeTextEditor').count()).toBe(1);
    expect(await viewer.getByRole('button', { name: 'Redo', exact: true }).isEnabled()).toBe(true);

    // A highlight over a word of the text layer, and an image from a file.
    await viewer.getByRole('button', { name: 'Highlight', exact: true }).click();
    await expect
      .poll(() => viewer.getByRole('button', { name: 'Highlight', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');
    const word = await firstPage.locator('.textLayer span', { hasText: 'Westgate' }).first().boundingBox();
    if (!word) throw new Error('the word is not laid out');
    await page.mouse.move(word.x + 1, word.y + word.height / 2);
    await page.mouse.down();
    await page.mouse.move(word.x + word.width - 1, word.y + word.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => firstPage.locator('.highlightEditor').count()).toBe(1);
    await viewer.getByRole('button', { name: 'Image', exact: true }).click();
    await expect
      .poll(() => viewer.getByRole('button', { name: 'Image', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      viewer.getByRole('button', { name: 'Add image', exact: true }).click(),
    ]);
    await chooser.setFiles(IMAGE);
    await expect.poll(() => firstPage.locator('.stampEditor canvas').count(), { timeout: 15_000 }).toBe(1);
    await viewer.getByRole('button', { name: 'Select', exact: true }).click();

    // Download: the saved PDF carries the note, highlight and image, not the undone stroke, and keeps its text.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      viewer.getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(restoredName);
    const saved = readFileSync(await downloaded(download));
    const annotations = await annotationsOf(saved);
    expect(annotations.filter((a) => a.subtype === 'FreeText').map((a) => a.contents)).toEqual([NOTE]);
    expect(annotations.some((a) => a.subtype === 'Ink')).toBe(false);
    expect(annotations.filter((a) => a.subtype === 'Highlight')).toHaveLength(1);
    expect(annotations.filter((a) => a.subtype === 'Stamp')).toHaveLength(1);
    const text = execFileSync('pdftotext', ['-f', '1', '-l', '1', '-', '-'], { input: saved }).toString();
    expect(text).toMatch(/Westgate/i);

    await viewer.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => firstPage.locator('.stampEditor').count()).toBe(0);

    // Undo takes back the image too; then a typed signature lands on the page through pdf.js's signature editor.
    await viewer.getByRole('button', { name: 'Signature', exact: true }).click();
    await expect
      .poll(() => viewer.getByRole('button', { name: 'Signature', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');
    await viewer.getByRole('button', { name: 'Add signature', exact: true }).click();
    const signing = viewer.getByRole('dialog', { name: 'Add a signature' });
    await signing.waitFor();
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Enter');
    await signing.waitFor({ state: 'detached' });
    await expect.poll(() => firstPage.locator('.signatureEditor:not([hidden])').count()).toBe(1);
    await screenshot(page, 'viewer-pdf-signed-desktop');
    expect(await firstPage.locator('.highlightEditor, .freeTextEditor').count()).toBe(2);

    await viewer.getByRole('button', { name: 'Close', exact: true }).click();
    await viewer.waitFor({ state: 'detached' });
  });

  it('asks for the password of an encrypted original with pdf.js’s prompt texts', async () => {
    const page = await openDashboard();
    await card(page, 'sealed.pdf').getByRole('button', { name: 'Open sealed.pdf' }).click();
    const viewer = page.getByTestId('file-viewer');
    const prompt = viewer.getByRole('dialog', { name: 'Enter the password to open this PDF file.' });
    await prompt.waitFor({ timeout: 30_000 });
    await screenshot(page, 'viewer-password-desktop');
    await prompt.locator('input').fill('wrong');
    await page.keyboard.press('Enter');
    const retry = viewer.getByRole('dialog', { name: 'Invalid password. Please try again.' });
    await retry.waitFor();
    await retry.locator('input').fill('user');
    await page.keyboard.press('Enter');
    await viewer.locator('[data-testid="pdf-viewer"][data-status="ready"]').waitFor({ timeout: 30_000 });
    expect(await viewer.getByTestId('page-number').textContent()).toBe('Page 1 of 1');
    await viewer.locator('.page[data-page-number="1"] canvas').waitFor();

    // Cancelling the prompt leaves the viewer saying the file did not load.
    await viewer.getByRole('button', { name: 'Close', exact: true }).click();
    await card(page, 'sealed.pdf').getByRole('button', { name: 'Open sealed.pdf' }).click();
    await prompt.waitFor();
    await prompt.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => viewer.getByRole('alert').textContent()).toBe('Failed to load PDF file');
  });

  it('opens an original PDF and an image at full size with zoom and pan', async () => {
    const page = await openDashboard();
    await card(page, 'minutes.pdf').getByRole('button', { name: 'Open minutes.pdf' }).click();
    const viewer = page.getByTestId('file-viewer');
    await viewer.locator('[data-testid="pdf-viewer"][data-status="ready"]').waitFor({ timeout: 30_000 });
    await viewer.locator('.page[data-page-number="2"]').waitFor();
    // A narrower window fits the page to the new width (after the 200 ms resize debounce).
    const fitted = await viewer.getByTestId('zoom').textContent();
    await page.setViewportSize({ width: 900, height: DESKTOP.height });
    await expect.poll(() => viewer.getByTestId('zoom').textContent()).not.toBe(fitted);
    await page.setViewportSize(DESKTOP);
    await expect.poll(() => viewer.getByTestId('zoom').textContent()).toBe(fitted);
    await viewer.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => viewer.getByTestId('page-number').textContent()).toBe('Page 2 of 2');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    await card(page, 'page.png').getByRole('button', { name: 'Open page.png' }).click();
    const image = viewer.getByRole('img', { name: 'page.png' });
    await image.waitFor();
    await viewer.getByRole('button', { name: 'Full size' }).click();
    expect(await viewer.getByTestId('zoom').textContent()).toBe('100%');
    const sizes = await image.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.clientWidth]);
    expect(sizes[1]).toBe(sizes[0]);
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    expect(await viewer.getByTestId('zoom').textContent()).toBe('125%');

    // Pan by dragging.
    const scroller = viewer.getByTestId('image-scroll');
    const area = await scroller.boundingBox();
    if (!area) throw new Error('image area is not laid out');
    await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
    await page.mouse.down();
    await page.mouse.move(area.x + area.width / 2 - 150, area.y + area.height / 2 - 100, { steps: 5 });
    await page.mouse.up();
    const scrolled = await scroller.evaluate((el) => [el.scrollLeft, el.scrollTop]);
    expect(scrolled[0]).toBeGreaterThan(0);
    expect(scrolled[1]).toBeGreaterThan(0);
    await screenshot(page, 'viewer-image-desktop');
  });

  it('compares with the slider focused, follows a drag, zooms and pages through the PDF', async () => {
    const page = await openDashboard();
    await card(page, restoredName)
      .getByRole('button', { name: /^Compare / })
      .click();
    const compare = page.getByTestId('compare-view');
    const slider = compare.getByRole('slider');
    await expect.poll(() => slider.evaluate((el) => el === document.activeElement)).toBe(true);
    const after = compare.getByTestId('compare-after');
    await after.waitFor({ timeout: 60_000 });

    // A drag on the image moves the divider (and the slider) with the pointer.
    const stage = compare.getByTestId('compare-stage');
    const box = await stage.boundingBox();
    if (!box) throw new Error('comparison is not laid out');
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.3);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.3, { steps: 4 });
    await page.mouse.up();
    expect(Number(await slider.inputValue())).toBe(25);
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    expect(Number(await slider.inputValue())).toBe(26);

    // Zoom doubles the drawn width; the page turns.
    await compare.getByRole('button', { name: 'Zoom in' }).click();
    await compare.getByRole('button', { name: 'Zoom in' }).click();
    expect(await compare.getByTestId('compare-zoom').textContent()).toBe('200%');
    await expect
      .poll(async () => Math.round((await stage.boundingBox())?.width ?? 0))
      .toBe(Math.round(box.width * 2));
    await compare.getByRole('button', { name: 'Zoom out' }).click();
    await compare.getByRole('button', { name: 'Zoom out' }).click();
    const firstSrc = await after.getAttribute('src');
    expect(await compare.getByTestId('compare-page').textContent()).toBe('Page 1 of 2');
    await compare.getByRole('button', { name: 'Next page' }).click();
    expect(await compare.getByTestId('compare-page').textContent()).toBe('Page 2 of 2');
    await expect.poll(() => after.getAttribute('src')).not.toBe(firstSrc);
    await screenshot(page, 'viewer-compare-desktop');
  });
});
