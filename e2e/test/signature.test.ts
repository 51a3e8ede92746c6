// The signature mode of the file viewer's annotation editor (pdf.js's SignatureEditor): a drawn signature and one
// made from an uploaded picture land on the page, and the downloaded PDF carries both.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Download } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../src/axe.js';
import { startBackend, type RunningBackend } from '../src/backend.js';
import { EVAL_DIR } from '../src/settings.js';
import { launchChromium, screenshot } from '../src/browser.js';
import { devLogin, openDashboard, uploadThroughUi } from '../src/session.js';
import { smallTargets } from '../src/targets.js';

const PDF_3_PAGES = path.join(EVAL_DIR, 'pdf_001/degraded.pdf');

let backend: RunningBackend;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  backend = await startBackend({ DEV_LOGIN: 'true', SIGNUP_CREDITS: '10', GOOGLE_CLIENT_ID: '' });
  browser = await launchChromium();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await backend?.stop();
});

/** Where a download was saved, once it has finished. */
async function downloaded(download: Download): Promise<string> {
  const late = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('no download in 30 s')), 30_000),
  );
  return Promise.race([download.path(), late]);
}

/** The annotations of every page of a PDF, as pdf.js reads them. */
async function annotationsOf(bytes: Buffer): Promise<{ subtype: string }[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const found: { subtype: string }[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    for (const a of (await (await doc.getPage(n)).getAnnotations()) as { subtype: string }[])
      found.push({ subtype: a.subtype });
  }
  await doc.destroy();
  return found;
}

describe('signature mode', () => {
  it('adds a drawn and an uploaded signature, and downloads the PDF with both', async () => {
    const session = await devLogin(backend.url);
    const opened = await openDashboard(browser, backend.url, session);
    context = opened.context;
    const { page } = opened;
    await uploadThroughUi(page, [PDF_3_PAGES]);
    await page.getByRole('button', { name: 'Open pdf_001.pdf' }).click();
    const viewer = page.getByTestId('file-viewer');
    await viewer.locator('[data-testid="pdf-viewer"][data-status="ready"]').waitFor({ timeout: 30_000 });
    const firstPage = viewer.locator('.page[data-page-number="1"]');
    const signatures = firstPage.locator('.signatureEditor:not([hidden])');
    // Editors are added to a page once its annotation editor layer is there.
    await firstPage.locator('.annotationEditorLayer').waitFor({ state: 'attached', timeout: 30_000 });

    await viewer.getByRole('button', { name: 'Signature', exact: true }).click();
    await expect
      .poll(() => viewer.getByRole('button', { name: 'Signature', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');

    // Drawn: two strokes with the mouse on the pad.
    await viewer.getByRole('button', { name: 'Add signature', exact: true }).click();
    const signing = viewer.getByRole('dialog', { name: 'Add a signature' });
    await signing.getByRole('tab', { name: 'Draw' }).click();
    const add = signing.getByRole('button', { name: 'Add', exact: true });
    expect(await add.isDisabled()).toBe(true);
    const pad = signing.getByRole('img', { name: 'Draw your signature here' });
    const box = (await pad.boundingBox())!;
    for (const [from, to] of [
      [0.1, 0.6],
      [0.5, 0.9],
    ] as const) {
      await page.mouse.move(box.x + box.width * from, box.y + box.height * 0.7);
      await page.mouse.down();
      for (let step = 1; step <= 12; step++) {
        const x = from + ((to - from) * step) / 12;
        await page.mouse.move(box.x + box.width * x, box.y + box.height * (0.5 + 0.3 * Math.sin(step)));
      }
      await page.mouse.up();
    }
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'viewer-signature-draw-desktop');
    await add.click();
    await signing.waitFor({ state: 'detached' });
    await expect.poll(() => signatures.count()).toBe(1);

    // Uploaded: a picture of a signature (dark strokes on white), made in the page.
    const picture = Buffer.from(
      await page.evaluate(async () => {
        const canvas = new OffscreenCanvas(400, 150);
        const context = canvas.getContext('2d')!;
        context.fillStyle = '#fff';
        context.fillRect(0, 0, 400, 150);
        context.strokeStyle = '#111';
        context.lineWidth = 6;
        context.beginPath();
        context.moveTo(30, 110);
        context.bezierCurveTo(90, 10, 140, 140, 200, 60);
        context.bezierCurveTo(250, 10, 300, 130, 370, 50);
        context.stroke();
        const blob = await canvas.convertToBlob({ type: 'image/png' });
        return [...new Uint8Array(await blob.arrayBuffer())];
      }),
    );
    await viewer.getByRole('button', { name: 'Add signature', exact: true }).click();
    await signing.getByRole('tab', { name: 'Image' }).click();
    await signing.getByLabel('Signature image').setInputFiles({
      name: 'my-signature.png',
      mimeType: 'image/png',
      buffer: picture,
    });
    await signing.getByRole('img', { name: 'The chosen signature image' }).waitFor();
    await expect.poll(() => add.isEnabled()).toBe(true);
    await add.click();
    await signing.waitFor({ state: 'detached' });
    await expect.poll(() => signatures.count()).toBe(2);
    // pdf.js keeps each signature's description (the alt text it saves in the structure tree).
    const described = await signatures.evaluateAll((editors) =>
      editors.map(
        (e) => (JSON.parse(e.getAttribute('data-l10n-args') ?? '{}') as { description?: string }).description,
      ),
    );
    expect(described.sort()).toEqual(['Drawn signature', 'my-signature']);
    await screenshot(page, 'viewer-pdf-drawn-and-image-signatures-desktop');
    // pdf.js's own toolbar of the selected signature keeps to the 24 px targets too, and its Remove button is named.
    await expect
      .poll(() => firstPage.locator('.editToolbar:not(.hidden) .deleteButton').getAttribute('title'))
      .toBe('Remove signature');
    expect(await smallTargets(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      viewer.getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    const annotations = await annotationsOf(readFileSync(await downloaded(download)));
    // pdf.js saves a signature as a Stamp annotation drawing its outline.
    expect(annotations.map((a) => a.subtype)).toEqual(['Stamp', 'Stamp']);
  });

  it('opens the signature dialog when the mode and Add signature are pressed the moment the file opens', async () => {
    const session = await devLogin(backend.url);
    const opened = await openDashboard(browser, backend.url, session);
    await context?.close();
    context = opened.context;
    const { page } = opened;
    await uploadThroughUi(page, [PDF_3_PAGES]);
    // A slower CPU (as under load) leaves time between the document's opening and its first page's editor layer.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
    await page.getByRole('button', { name: 'Open pdf_001.pdf' }).click();
    const viewer = page.getByTestId('file-viewer');
    await viewer.locator('[data-testid="pdf-viewer"][data-status="ready"]').waitFor({ timeout: 60_000 });
    // Pressed from within the page, without waiting for anything: what an enabled control does at once.
    const pressed = await page.evaluate(async () => {
      const find = (name: string) =>
        [...document.querySelectorAll<HTMLButtonElement>('[data-testid="file-viewer"] button')].find(
          (b) => b.textContent?.trim() === name,
        );
      const press = (name: string) => {
        const button = find(name);
        if (!button || button.disabled) return false;
        button.click();
        return true;
      };
      const mode = press('Signature');
      await new Promise((resolve) => setTimeout(resolve, 0));
      return { mode, add: press('Add signature') };
    });
    // What was not enabled yet is pressed once it is.
    if (!pressed.mode) await viewer.getByRole('button', { name: 'Signature', exact: true }).click();
    if (!pressed.add)
      await viewer.getByRole('button', { name: 'Add signature', exact: true }).click({ timeout: 60_000 });
    await viewer.getByRole('dialog', { name: 'Add a signature' }).waitFor({ timeout: 60_000 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }, 240_000);
});
