// A restoration that fails for real: the worker's page time limit (JOB_PAGE_TIMEOUT_MS, its smallest allowed
// value, 1 s) is shorter than any page of the 3-page eval PDF takes, so the engine stops every page and the job
// ends with no page restored. The card says why and that the 3 credits came back, live and after a reload.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../src/axe.js';
import { startBackend, type RunningBackend } from '../src/backend.js';
import { EVAL_DIR } from '../src/settings.js';
import { launchChromium, screenshot } from '../src/browser.js';
import { devLogin, openDashboard, uploadThroughUi } from '../src/session.js';

const PDF_3_PAGES = path.join(EVAL_DIR, 'pdf_001/degraded.pdf');
const REASON = 'No page could be restored: Page 1 took longer than 1000 ms.';
const SHOWN = `Restoration failed: ${REASON} 3 credits were returned.`;

let backend: RunningBackend;
let browser: Browser;

beforeAll(async () => {
  backend = await startBackend({
    DEV_LOGIN: 'true',
    SIGNUP_CREDITS: '10',
    GOOGLE_CLIENT_ID: '',
    JOB_PAGE_TIMEOUT_MS: '1000',
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await backend?.stop();
});

describe('a failed restoration', () => {
  it('shows why the pages failed and that the credits came back, also after a reload', async () => {
    const session = await devLogin(backend.url);
    const { context, page } = await openDashboard(browser, backend.url, session);
    try {
      await uploadThroughUi(page, [PDF_3_PAGES]);
      const card = page
        .getByTestId('original-files')
        .getByTestId('file-card')
        .filter({ hasText: 'pdf_001.pdf' });
      await card.waitFor();
      await card.getByRole('button', { name: 'Restore pdf_001.pdf' }).click();
      await page.getByRole('dialog', { name: 'Start AI Restoration?' }).waitFor();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('credits-balance').textContent()).toBe('7 credits');

      const failure = card.getByTestId('file-failure');
      await failure.waitFor({ timeout: 120_000 });
      expect(await failure.textContent()).toBe(SHOWN);
      await expect.poll(() => page.getByTestId('credits-balance').textContent()).toBe('10 credits');
      expect(await card.getByText('Error', { exact: true }).count()).toBe(1);
      expect(await page.getByTestId('restoration-announcement').textContent()).toBe(`pdf_001.pdf: ${SHOWN}`);
      expect(await page.getByTestId('progress-card').count()).toBe(0);
      await card.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await screenshot(page, 'dashboard-failure-desktop');

      // The server kept the reason of every page and the refund: a reload shows the same.
      await page.reload();
      await failure.waitFor();
      expect(await failure.textContent()).toBe(SHOWN);
      expect(await page.getByTestId('credits-balance').textContent()).toBe('10 credits');
      expect(await seriousViolations(page)).toEqual([]);

      const files = (await (
        await fetch(`${backend.url}/api/v1/files/all`, {
          headers: { authorization: `Bearer ${session.token}` },
        })
      ).json()) as { files: { restoration_failure?: { job_id: string } }[] };
      const jobId = files.files[0]?.restoration_failure?.job_id;
      const job = (await (
        await fetch(`${backend.url}/api/v1/restoration/jobs/${jobId}`, {
          headers: { authorization: `Bearer ${session.token}` },
        })
      ).json()) as {
        status: string;
        credits_refunded: number;
        page_failures: { page: number; reason: string }[];
      };
      expect(job).toMatchObject({ status: 'failed', credits_refunded: 3 });
      expect(job.page_failures).toEqual(
        [1, 2, 3].map((n) => ({ page: n, reason: `Page ${n} took longer than 1000 ms.` })),
      );
    } finally {
      await context.close();
    }
  });
});
