// The web app in Debian's Chromium against the real backend on loopback. Only Google's sign-in edge is
// replaced (GoogleStandIn); payments use the backend's own test-mode checkout.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type RunningBackend } from '../src/backend.js';
import { seriousViolations } from '../src/axe.js';
import { launchChromium, screenshot } from '../src/browser.js';
import { GoogleStandIn, TEST_CLIENT_ID } from '../src/google-standin.js';

const SESSION_EXPIRED = 'Session expired. Please sign in again.';
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 844 };

let google: GoogleStandIn;
let backend: RunningBackend;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  google = new GoogleStandIn();
  const jwksUrl = await google.start();
  backend = await startBackend({
    GOOGLE_CLIENT_ID: TEST_CLIENT_ID,
    GOOGLE_JWKS_URL: jwksUrl,
    DEV_LOGIN: 'false',
    SIGNUP_CREDITS: '10',
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await backend?.stop();
  await google?.stop();
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  google.account = {
    sub: 'g-100',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    given_name: 'Ada',
    family_name: 'Lovelace',
  };
});

async function openPage(
  options: { viewport?: { width: number; height: number }; dark?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: backend.url,
    viewport: options.viewport ?? DESKTOP,
    colorScheme: options.dark ? 'dark' : 'light',
    reducedMotion: 'reduce',
  });
  contexts.push(context);
  await google.install(context);
  // The dashboard's first-visit onboarding is the dashboard suite's subject; here it would cover the shell.
  await context.addInitScript(() => localStorage.setItem('folio_onboarding_done', 'true'));
  return context.newPage();
}

const path = (page: Page) => new URL(page.url()).pathname;

async function signIn(page: Page): Promise<void> {
  await page.goto('/');
  const header = page.locator('header');
  if (await page.getByRole('button', { name: 'Open menu' }).isVisible()) {
    await page.getByRole('button', { name: 'Open menu' }).click();
  }
  await header.locator('[data-gis-standin]:visible').click();
  await page.waitForURL('**/dashboard');
  await page.getByTestId('credits-balance').waitFor();
}

describe('landing page', () => {
  it('has the product sections, working anchors, the demo video and runtime title', async () => {
    const page = await openPage();
    await page.goto('/');
    expect(await page.title()).toBe('Folio AI — AI-Powered Document Restoration');
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe(
      'AI-Powered Document Restoration',
    );
    await expect.poll(() => page.getByRole('heading', { level: 1 }).isVisible()).toBe(true);
    for (const [label, id] of [
      ['Example', 'example'],
      ['Features', 'features'],
      ['Pricing', 'pricing'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
      await expect.poll(() => new URL(page.url()).hash).toBe(`#${id}`);
      await expect.poll(() => page.locator(`#${id}`).isVisible()).toBe(true);
    }
    const video = page.locator('#example video');
    expect(await video.getAttribute('src')).toBe('/demo_video.mp4');
    expect(await video.evaluate((v: HTMLVideoElement) => [v.muted, v.loop])).toEqual([true, true]);
    expect(await video.getAttribute('poster')).toBe('/demo_poster.jpg');
    // The committed demo is a real, playable H.264 file of several seconds.
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => (v.readyState >= 1 ? v.duration : 0)))
      .toBeGreaterThan(5);
    for (const title of ['AI-Powered Enhancement', 'Secure & Private', 'Lightning Fast']) {
      expect(await page.locator('#features').getByRole('heading', { name: title }).count()).toBe(1);
    }
    const cards = page.locator('#pricing [data-pack]');
    expect(await cards.count()).toBe(3);
    expect(await cards.allTextContents()).toEqual([
      expect.stringMatching(/Essential 10.*\$7\.99.*10 credits.*Standard AI processing/),
      expect.stringMatching(/Most popular.*Power 100.*\$59\.99.*100 credits.*Priority AI processing/),
      expect.stringMatching(
        /Ultimate 500.*\$249\.99.*500 credits.*Highest priority AI processing.*Batch processing/,
      ),
    ]);
    expect(
      await page.locator('footer').getByRole('link', { name: 'Contact Us' }).getAttribute('href'),
    ).toMatch(/^mailto:/);
    // The Google button is the stand-in rendered through the identity service script.
    expect(await page.locator('#get-started [data-gis-standin]').count()).toBe(1);
    // The demo plays by itself, so it has a pause control (WCAG 2.2.2).
    const toggle = page.getByTestId('video-toggle');
    await video.evaluate((v: HTMLVideoElement) => v.play());
    await expect.poll(() => toggle.textContent()).toBe('Pause video');
    await toggle.click();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    // The label follows the video's pause event, which React renders a moment after it.
    await expect.poll(() => toggle.textContent()).toBe('Play video');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'landing-light-desktop', true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('renders in dark mode when the system prefers it, and on a phone', async () => {
    const dark = await openPage({ dark: true });
    await dark.goto('/');
    await expect
      .poll(() => dark.evaluate(() => document.documentElement.classList.contains('dark')))
      .toBe(true);
    await screenshot(dark, 'landing-dark-desktop', true);
    const phone = await openPage({ viewport: MOBILE });
    await phone.goto('/');
    await expect.poll(() => phone.getByRole('heading', { level: 1 }).isVisible()).toBe(true);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone, 'landing-light-mobile', true);
  });

  it('mobile menu at 390 px repeats the links, the theme switch and the sign-in button', async () => {
    const page = await openPage({ viewport: MOBILE });
    await page.goto('/');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await menu.getByRole('link').allTextContents()).toEqual(['Example', 'Features', 'Pricing']);
    const menuToggle = menu.getByRole('button', { name: /Switch to dark theme/ });
    expect(await menuToggle.count()).toBe(1);
    // Its visible label is its name.
    expect(await menuToggle.textContent()).toBe('Switch to dark theme');
    expect(await menu.locator('[data-gis-standin]').count()).toBe(1);
    await screenshot(page, 'mobile-menu');
    await menu.getByRole('link', { name: 'Pricing' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#pricing');
    expect(await menu.isVisible()).toBe(false);
  });

  it('theme toggle survives a reload', async () => {
    const page = await openPage();
    await page.goto('/');
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    expect(await isDark()).toBe(false);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.locator('header').getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await isDark()).toBe(true);
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.locator('header').getByRole('button', { name: 'Switch to light theme' }).click();
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await isDark()).toBe(false);
  });
});

describe('routes and sign-in', () => {
  it('sends visitors from every signed-in route and unknown paths to "/"', async () => {
    const page = await openPage();
    for (const target of [
      '/dashboard',
      '/dashboard/billing/success',
      '/dashboard/billing/cancel',
      '/no/such/page',
      '/auth/callback',
    ]) {
      await page.goto(target);
      await expect.poll(() => path(page), { message: target }).toBe('/');
    }
  });

  it('signs in with Google through the identity service script and shows the signed-in header', async () => {
    const page = await openPage();
    await signIn(page);
    const header = page.locator('header');
    expect(await page.getByTestId('user-name').textContent()).toBe('Ada Lovelace');
    await expect.poll(() => page.getByTestId('credits-balance').textContent()).toBe('10 credits');
    expect(await header.getByRole('button', { name: 'Buy' }).isVisible()).toBe(true);
    await screenshot(page, 'header-signed-in-desktop');
    expect(await page.evaluate(() => localStorage.getItem('google_token'))).toMatch(/^ey/);

    for (const [target, landing] of [
      ['/', '/dashboard'],
      ['/no/such/page', '/dashboard'],
      ['/auth/callback', '/dashboard'],
      ['/dashboard/billing/cancel', '/dashboard/billing/cancel'],
    ] as const) {
      await page.goto(target);
      await expect.poll(() => path(page), { message: target }).toBe(landing);
    }
    expect(
      await page.getByText('Your payment was canceled. No changes were made to your credits.').isVisible(),
    ).toBe(true);

    await header.getByRole('button', { name: 'Logout' }).click();
    await expect.poll(() => path(page)).toBe('/');
    expect(await page.evaluate(() => localStorage.getItem('google_token'))).toBeNull();
    await page.goto('/dashboard');
    await expect.poll(() => path(page)).toBe('/');
  });

  it('shows the server message when Google sign-in is rejected', async () => {
    google.account = { sub: 'g-200', email: 'unverified@example.com', name: 'Eve', email_verified: false };
    const page = await openPage();
    await page.goto('/');
    await page.locator('#get-started [data-gis-standin]').click();
    const alert = page.getByRole('alert').filter({ hasText: 'Google account email is not verified' });
    await alert.waitFor();
    expect(path(page)).toBe('/');
  });

  it('an expired session on refocus sends the user to "/" with the notice', async () => {
    const page = await openPage();
    await page.clock.install();
    await signIn(page);
    // Twelve hours on, the session token has expired and the user has been idle for far longer than 30 min.
    await page.clock.fastForward('13:00:00');
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.clock.runFor(1500);
    await expect.poll(() => path(page)).toBe('/');
    await page.getByText(SESSION_EXPIRED).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('google_token'))).toBeNull();
  });

  it('a token the server rejects ends the session with "Session expired" on "/" (not the raw detail)', async () => {
    const page = await openPage();
    // The notice shows for 5 s from the 401, which a loaded machine can spend before the test looks: the page
    // itself notes every notification it shows (kept in sessionStorage across the redirect), and the test reads
    // that note. The note-taker is in place before sign-in, so a 401 met by the dashboard's own requests before
    // the reload is noted too. One CI run saw no notice at all, for a cause not found: what the page logged and
    // where it went are kept and shown beside the notes if that happens again.
    await page.context().addInitScript(() => {
      const seen = () => JSON.parse(sessionStorage.getItem('notifications_seen') ?? '[]') as string[];
      new MutationObserver(() => {
        for (const element of document.querySelectorAll('[data-testid="notification"]')) {
          const text = element.textContent ?? '';
          if (text && !seen().includes(text)) {
            sessionStorage.setItem('notifications_seen', JSON.stringify([...seen(), text]));
          }
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const trail: string[] = [];
    page.on('console', (message) => trail.push(`${message.type()} ${message.text()}`));
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) trail.push(`at ${new URL(frame.url()).pathname}`);
    });
    await signIn(page);
    await page.evaluate(() => {
      const token = localStorage.getItem('google_token') ?? '';
      localStorage.setItem('google_token', `${token.slice(0, -4)}AAAA`);
    });
    trail.length = 0;
    await page.reload({ waitUntil: 'commit' });
    await expect.poll(() => path(page), { timeout: 15_000 }).toBe('/');
    await expect
      .poll(() => page.evaluate(() => sessionStorage.getItem('notifications_seen') ?? ''), {
        timeout: 15_000,
      })
      .toContain('Session expired. Please sign in again.')
      .catch((error: Error) => {
        throw new Error(`no notice; the page after the reload: ${trail.join(' | ')}; ${error.message}`);
      });
    expect(await page.evaluate(() => sessionStorage.getItem('notifications_seen'))).not.toContain(
      'Invalid token',
    );
    expect(await page.getByText('Invalid token').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('user_data'))).toBeNull();
  });
});

describe('buying credits', () => {
  it('credit modal → test-mode checkout → success page with the balance updated', async () => {
    const page = await openPage();
    await signIn(page);
    await expect.poll(() => page.getByTestId('credits-balance').textContent()).toBe('10 credits');
    await page.locator('header').getByRole('button', { name: 'Buy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Select Credit Package' });
    await dialog.waitFor();
    expect(await dialog.getByRole('radio', { name: /Essential 10/ }).isChecked()).toBe(true);
    expect(await dialog.locator('[data-pack="power100"]').getByText('Popular', { exact: true }).count()).toBe(
      1,
    );
    await screenshot(page, 'credit-modal-desktop');
    // Hold the request a moment so the busy label can be seen; the real backend still answers it.
    await page.route('**/api/v1/billing/checkout/session', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await dialog.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await dialog.getByRole('button', { name: 'Processing...' }).waitFor();
    await page.getByRole('button', { name: 'Pay $7.99' }).click();
    await page.waitForURL('**/dashboard/billing/success**');
    await page.getByText('Payment successful').waitFor();
    expect(await page.getByText('Your credits have been updated. You can close this page.').isVisible()).toBe(
      true,
    );
    await expect.poll(() => page.getByTestId('credits-balance').textContent()).toBe('20 credits');
    await screenshot(page, 'billing-success-desktop');
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'billing-success-mobile');
  });

  it('cancelling the checkout at 390 px lands on the cancel page with the balance unchanged', async () => {
    google.account = { sub: 'g-300', email: 'grace@example.com', name: 'Grace Hopper' };
    const page = await openPage({ viewport: MOBILE });
    await signIn(page);
    await expect.poll(() => page.getByTestId('credits-balance').textContent()).toBe('10 credits');
    await screenshot(page, 'header-signed-in-mobile');
    await page.evaluate(() => {
      window.dispatchEvent(
        new CustomEvent('credits:insufficient', {
          detail: {
            message: 'You need 12 credit(s) but only have 10. Please purchase more credits to continue.',
          },
        }),
      );
    });
    const dialog = page.getByRole('dialog', { name: 'Select Credit Package' });
    await dialog.getByText('You need 12 credit(s) but only have 10.', { exact: false }).waitFor();
    await screenshot(page, 'credit-modal-mobile');
    await dialog.getByRole('radio', { name: /Power 100/ }).check({ force: true });
    await dialog.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await page.getByRole('button', { name: 'Pay $59.99' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL('**/dashboard/billing/cancel');
    await page.getByText('Payment canceled').waitFor();
    await expect.poll(() => page.getByTestId('credits-balance').textContent()).toBe('10 credits');
  });
});
