// Touch targets of at least 24 × 24 px (WCAG 2.2, 2.5.8) on every control of the landing page, the dashboard
// (desktop and phone, files listed, the upload list, a restored file) and its dialogs (onboarding, restore
// confirmation, credit packages, file viewer with its annotation tools and signature dialog, compare view),
// measured in Debian's Chromium; axe-core finds no serious or critical violation on each of them either.
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../src/axe.js';
import { startBackend, type RunningBackend } from '../src/backend.js';
import { EVAL_DIR } from '../src/settings.js';
import { launchChromium } from '../src/browser.js';
import { DESKTOP, devLogin, openDashboard, uploadThroughUi, type Session } from '../src/session.js';
import { smallTargets, type SmallTarget } from '../src/targets.js';

const PDF_3_PAGES = path.join(EVAL_DIR, 'pdf_001/degraded.pdf');
const IMAGE = path.join(EVAL_DIR, 'doc_005/degraded.png');
const MOBILE = { width: 390, height: 844 };

let backend: RunningBackend;
let browser: Browser;
const contexts: BrowserContext[] = [];

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

/** Small targets and serious axe violations of the page as it is now, named after the screen. */
async function check(page: Page, screen: string): Promise<Record<string, unknown>> {
  // Fades and slides end first: axe measures contrast as painted, and a banner caught mid-fade reads as too faint.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const small: SmallTarget[] = await smallTargets(page);
  const axe = await seriousViolations(page);
  return {
    ...(small.length ? { [`${screen}: small`]: small } : {}),
    ...(axe.length ? { [`${screen}: axe`]: axe } : {}),
  };
}

async function dashboard(session: Session, viewport = DESKTOP): Promise<Page> {
  const { context, page } = await openDashboard(browser, backend.url, session, viewport);
  contexts.push(context);
  return page;
}

describe('touch targets of 24 px and axe-core', () => {
  it('on the landing page, desktop and phone with its menu open', async () => {
    const found = {};
    for (const viewport of [DESKTOP, MOBILE]) {
      const context = await browser.newContext({ baseURL: backend.url, viewport, reducedMotion: 'reduce' });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto('/');
      await page.locator('#features').waitFor();
      // The skip link, hidden until the keyboard reaches it.
      await page.keyboard.press('Tab');
      const skip = await page.getByRole('link', { name: 'Skip to content' }).boundingBox();
      expect(skip?.height).toBeGreaterThanOrEqual(24);
      if (viewport === MOBILE) await page.getByRole('button', { name: /menu/i }).click();
      Object.assign(found, await check(page, `landing ${viewport.width}`));
    }
    expect(found).toEqual({});
  });

  it('on the dashboard and its dialogs', async () => {
    const found = {};
    const session = await devLogin(backend.url);
    const page = await dashboard(session);

    // The onboarding of a first visit.
    const first = await browser.newContext({
      baseURL: backend.url,
      viewport: DESKTOP,
      reducedMotion: 'reduce',
    });
    contexts.push(first);
    await first.addInitScript(
      ({ token, user }) => {
        localStorage.setItem('google_token', token);
        localStorage.setItem('user_data', JSON.stringify(user));
      },
      { token: session.token, user: session.user },
    );
    const onboarding = await first.newPage();
    await onboarding.goto('/dashboard');
    await onboarding.getByRole('dialog', { name: 'Upload Your Documents' }).waitFor();
    Object.assign(found, await check(onboarding, 'onboarding'));

    // The upload panel with two files picked (their list, remove and clear controls), then uploaded.
    await page.getByTestId('file-input').setInputFiles([PDF_3_PAGES, IMAGE]);
    await page.getByText('Selected Files (2)').waitFor();
    Object.assign(found, await check(page, 'upload list'));
    await page.getByRole('button', { name: 'Clear All' }).click();
    await uploadThroughUi(page, [PDF_3_PAGES]);
    await uploadThroughUi(page, [IMAGE]);
    const cards = page.getByTestId('original-files').getByTestId('file-card');
    await expect.poll(() => cards.count()).toBe(2);
    Object.assign(found, await check(page, 'dashboard'));

    // Restore the one-page image: the confirmation, then a restored file with its compare view.
    await cards
      .filter({ hasText: 'doc_005.png' })
      .getByRole('button', { name: 'Restore doc_005.png' })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Start AI Restoration?' });
    await confirm.waitFor();
    Object.assign(found, await check(page, 'restore dialog'));
    await page.keyboard.press('Enter');
    const restored = page.getByTestId('restored-files').getByTestId('file-card');
    await restored.first().waitFor({ timeout: 180_000 });
    Object.assign(found, await check(page, 'dashboard with a restored file'));
    await restored
      .first()
      .getByRole('button', { name: /^Compare / })
      .click();
    await page.getByTestId('compare-view').waitFor();
    Object.assign(found, await check(page, 'compare'));
    await page.keyboard.press('Escape');

    // The file viewer of the PDF, its annotation tools and the signature dialog.
    await cards.filter({ hasText: 'pdf_001.pdf' }).getByRole('button', { name: 'Open pdf_001.pdf' }).click();
    const viewer = page.getByTestId('file-viewer');
    await viewer.locator('[data-testid="pdf-viewer"][data-status="ready"]').waitFor({ timeout: 30_000 });
    Object.assign(found, await check(page, 'viewer'));
    await viewer.getByRole('button', { name: 'Signature', exact: true }).click();
    await viewer.getByRole('button', { name: 'Add signature', exact: true }).click();
    const signing = viewer.getByRole('dialog', { name: 'Add a signature' });
    await signing.waitFor();
    Object.assign(found, await check(page, 'signature dialog'));
    for (const tab of ['Draw', 'Image']) {
      await signing.getByRole('tab', { name: tab }).click();
      Object.assign(found, await check(page, `signature dialog, ${tab}`));
    }
    await page.keyboard.press('Escape');
    await viewer.getByRole('button', { name: 'Close', exact: true }).click();

    // Credit packages.
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.getByRole('dialog', { name: 'Select Credit Package' }).waitFor();
    Object.assign(found, await check(page, 'credit packages'));
    await page.keyboard.press('Escape');

    // The phone layout.
    const phone = await dashboard(session, MOBILE);
    await phone.getByTestId('original-files').getByTestId('file-card').first().waitFor();
    Object.assign(found, await check(phone, 'dashboard phone'));

    expect(found).toEqual({});
  }, 300_000);
});
