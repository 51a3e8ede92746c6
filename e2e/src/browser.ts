// Debian's Chromium driven by playwright-core, headless, with a fresh profile per launch.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_PATH, REPO_ROOT } from './settings.js';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Keep frames and timers running in a headless page that Chromium may treat as hidden: the scale test waits
  // on animation frames, which stalled now and then under load.
  '--disable-renderer-backgrounding',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
];

export function launchChromium(): Promise<Browser> {
  // launch() gives every browser a fresh temporary user-data-dir.
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

export const ARTIFACTS = path.join(REPO_ROOT, 'e2e/artifacts');

export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const options = { path: path.join(ARTIFACTS, `${name}.png`), fullPage };
  try {
    await page.screenshot({ ...options, timeout: 15_000 });
  } catch {
    // Headless Chromium's compositor can go idle and leave a capture waiting for a frame that never comes; a
    // short screencast makes it draw again. One more try, with the default timeout.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 10, everyNthFrame: 1 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    await cdp.send('Page.stopScreencast');
    await cdp.detach();
    await page.screenshot(options);
  }
}
