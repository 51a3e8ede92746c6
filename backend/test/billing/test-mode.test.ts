// Without Stripe keys outside production, checkout goes to Folio's own test-mode page, whose Pay button runs
// the same fulfilment as a paid Stripe webhook. In production without keys billing answers 503.
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingService } from '../../src/billing/billing.module.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signInRegistered } from '../helpers/auth.js';
import { StripeProtocolServer } from '../helpers/stripe-server.js';
import { checkout, ledgerReferences, me, PUBLIC_BASE_URL } from './billing-harness.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('test-mode checkout (no Stripe keys, not production)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ env: { PUBLIC_BASE_URL } });
  });
  afterAll(async () => {
    await testApp.close();
  });

  const pathOf = (url: string) => new URL(url).pathname;

  it('runs the whole flow: page, Pay twice, credits granted once, redirect to the success page', async () => {
    const user = await signInRegistered(testApp.app, 'tester@example.com');
    const published: RealtimeEvent[] = [];
    testApp.app.eventBus.subscribe(user.userId, (event) => published.push(event));

    const created = await checkout(testApp, user, 'power100');
    expect(created.statusCode).toBe(200);
    const { url } = created.json<{ url: string }>();
    expect(url).toMatch(new RegExp(`^${PUBLIC_BASE_URL}/billing/test-checkout/cs_folio_test_[0-9a-f]{32}$`));
    const sessionId = url.split('/').pop() ?? '';

    const page = await testApp.app.inject({ method: 'GET', url: pathOf(url) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('Test mode — no card is charged');
    expect(page.body).toContain('Power 100');
    expect(page.body).toContain('100 credits');
    expect(page.body).toContain('$59.99 USD');
    expect(page.body).toContain(`action="/billing/test-checkout/${sessionId}/pay"`);
    expect(page.body).toContain(`action="/billing/test-checkout/${sessionId}/cancel"`);
    expect((await me(testApp, user)).credits_remaining).toBe(user.credits);

    const success = `${PUBLIC_BASE_URL}/dashboard/billing/success?session_id=${sessionId}`;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const paid = await testApp.app.inject({
        method: 'POST',
        url: `${pathOf(url)}/pay`,
        headers: FORM,
        payload: '',
      });
      expect(paid.statusCode).toBe(303);
      expect(paid.headers.location).toBe(success);
    }
    const profile = await me(testApp, user);
    expect(profile.credits_remaining).toBe(user.credits + 100);
    expect(profile.purchase_tier).toBe('priority');
    expect(await ledgerReferences(testApp, user)).toContain(`checkout:${sessionId} +100`);
    expect(published).toEqual([{ type: 'credits.updated', credits_remaining: user.credits + 100 }]);

    const again = await testApp.app.inject({ method: 'GET', url: pathOf(url) });
    expect(again.body).toContain('This checkout is already paid');
  });

  it('grants once when Pay is submitted concurrently', async () => {
    const user = await signInRegistered(testApp.app, 'double-click@example.com');
    const { url } = (await checkout(testApp, user, 'essential10')).json<{ url: string }>();
    const responses = await Promise.all(
      Array.from({ length: 4 }, () =>
        testApp.app.inject({ method: 'POST', url: `${pathOf(url)}/pay`, headers: FORM, payload: '' }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([303, 303, 303, 303]);
    expect((await me(testApp, user)).credits_remaining).toBe(user.credits + 10);
  });

  it('Cancel leads to the cancel page and grants nothing', async () => {
    const user = await signInRegistered(testApp.app, 'undecided@example.com');
    const { url } = (await checkout(testApp, user, 'ultimate500')).json<{ url: string }>();
    const canceled = await testApp.app.inject({
      method: 'POST',
      url: `${pathOf(url)}/cancel`,
      headers: FORM,
      payload: '',
    });
    expect(canceled.statusCode).toBe(303);
    expect(canceled.headers.location).toBe(`${PUBLIC_BASE_URL}/dashboard/billing/cancel`);
    expect((await me(testApp, user)).credits_remaining).toBe(user.credits);
    const page = await testApp.app.inject({ method: 'GET', url: pathOf(url) });
    expect(page.body).toContain('This checkout was canceled');
  });

  it('answers 404 pages for unknown sessions, and keeps the same 400s as Stripe mode', async () => {
    const unknown = await testApp.app.inject({
      method: 'GET',
      url: '/billing/test-checkout/cs_folio_test_nope',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('Checkout session not found');
    const pay = await testApp.app.inject({
      method: 'POST',
      url: '/billing/test-checkout/cs_folio_test_nope/pay',
      headers: FORM,
      payload: '',
    });
    expect(pay.statusCode).toBe(404);

    const user = await signInRegistered(testApp.app, 'typo@example.com');
    expect((await checkout(testApp, user, 'power99')).statusCode).toBe(400);
    expect((await checkout(testApp, user, 'power100', 'GBP')).statusCode).toBe(400);
    expect((await me(testApp, user)).credits_remaining).toBe(user.credits);
  });

  it('has no billing portal and no webhook endpoint in test mode', async () => {
    const user = await signInRegistered(testApp.app, 'portal-test@example.com');
    const portal = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/billing/portal/session',
      headers: user.headers,
    });
    expect(portal.statusCode).toBe(404);
    expect(portal.json<{ detail: string }>().detail).toBe(
      'The billing portal is not available in test mode: test purchases have no invoices or payment methods to manage.',
    );
    const signed = new StripeProtocolServer().sign(
      '{"id":"evt_1","object":"event","type":"x","data":{"object":{}}}',
    );
    const webhook = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/billing/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
      payload: signed.payload,
    });
    expect(webhook.statusCode).toBe(503);
  });
});

describe('billing in production without Stripe keys', () => {
  it('answers 503 with a clear detail for checkout, portal and webhook, and serves no test checkout', async () => {
    const testApp = await createTestApp();
    try {
      const user = await signInRegistered(testApp.app, 'prod-nokeys@example.com');
      const production = createBillingService({
        settings: { ...testApp.settings, isProduction: true, stripeSecretKey: '', stripeWebhookSecret: '' },
        db: testApp.database.db,
        eventBus: testApp.app.eventBus,
      });
      const detail =
        'Payments are not configured on this server: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.';
      const billingUser = { id: user.userId, email: 'prod-nokeys@example.com', name: 'Test User' };
      await expect(production.createCheckoutSession(billingUser, 'power100', 'USD')).rejects.toMatchObject({
        statusCode: 503,
        detail,
      });
      await expect(production.createPortalSession(user.userId)).rejects.toMatchObject({
        statusCode: 503,
        detail,
      });
      await expect(production.handleWebhook(Buffer.from('{}'), 't=1,v1=00')).rejects.toMatchObject({
        statusCode: 503,
        detail,
      });
      await expect(production.payTestCheckout('cs_folio_test_any')).rejects.toMatchObject({
        statusCode: 404,
      });
    } finally {
      await testApp.close();
    }
  });
});
