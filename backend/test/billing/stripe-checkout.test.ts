// Checkout and portal sessions through the real `stripe` SDK against the local Stripe protocol server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingService } from '../../src/billing/billing.module.js';
import { signInRegistered } from '../helpers/auth.js';
import {
  checkout,
  createStripeHarness,
  me,
  PUBLIC_BASE_URL,
  sendEvent,
  startPurchase,
  type BillingHarness,
} from './billing-harness.js';

describe('billing with Stripe: checkout and portal sessions', () => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await createStripeHarness();
  });
  afterAll(async () => {
    await harness.close();
  });

  it('creates a payment-mode Checkout Session for the pack, with the exact parameters Stripe needs', async () => {
    const user = await signInRegistered(harness.testApp.app, 'buyer@example.com', 'Ada Buyer');
    const response = await checkout(harness.testApp, user, 'power100');
    expect(response.statusCode).toBe(200);
    const { url } = response.json<{ url: string }>();

    const customerCalls = harness.stripe.requestsTo('/v1/customers');
    expect(customerCalls).toHaveLength(1);
    expect(customerCalls[0]?.params).toEqual({
      email: 'buyer@example.com',
      name: 'Ada Buyer',
      metadata: { user_id: user.userId },
    });
    expect(customerCalls[0]?.idempotencyKey).toBe(`folio-customer-${user.userId}`);
    const customerId = [...harness.stripe.customers.keys()][0];

    const sessionCalls = harness.stripe.requestsTo('/v1/checkout/sessions');
    expect(sessionCalls).toHaveLength(1);
    const metadata = { user_id: user.userId, pack_key: 'power100', credits: '100' };
    expect(sessionCalls[0]?.params).toEqual({
      mode: 'payment',
      customer: customerId,
      client_reference_id: user.userId,
      line_items: [
        {
          quantity: '1',
          price_data: {
            currency: 'usd',
            unit_amount: '5999',
            product_data: { name: 'Power 100', description: '100 credits. One credit restores one page.' },
          },
        },
      ],
      success_url: `${PUBLIC_BASE_URL}/dashboard/billing/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${PUBLIC_BASE_URL}/dashboard/billing/cancel`,
      metadata,
      payment_intent_data: { metadata },
    });
    expect(sessionCalls[0]?.authorization).toBe(`Bearer ${harness.stripe.secretKey}`);
    const session = [...harness.stripe.sessions.values()][0];
    expect(url).toBe(session?.url);
    // Creating a session grants nothing: only a verified webhook does.
    expect((await me(harness.testApp, user)).credits_remaining).toBe(user.credits);
  });

  it('creates the Stripe customer once per user and reuses it', async () => {
    const user = await signInRegistered(harness.testApp.app, 'repeat@example.com');
    const before = harness.stripe.requestsTo('/v1/customers').length;
    await startPurchase(harness, user, 'essential10');
    await startPurchase(harness, user, 'ultimate500');
    await startPurchase(harness, user, 'essential10');
    expect(harness.stripe.requestsTo('/v1/customers').length - before).toBe(1);
    const customers = harness.stripe
      .requestsTo('/v1/checkout/sessions')
      .slice(-3)
      .map((request) => request.params.customer);
    expect(new Set(customers).size).toBe(1);
    const amounts = harness.stripe
      .requestsTo('/v1/checkout/sessions')
      .slice(-3)
      .map((request) => JSON.stringify(request.params.line_items));
    expect(amounts[1]).toContain('"unit_amount":"24999"');
    expect(amounts[0]).toContain('"unit_amount":"799"');
  });

  it('refuses unknown packs and currencies with 400 and calls Stripe for neither', async () => {
    const user = await signInRegistered(harness.testApp.app, 'careless@example.com');
    const calls = harness.stripe.requests.length;
    const unknownPack = await checkout(harness.testApp, user, 'mega1000');
    expect(unknownPack.statusCode).toBe(400);
    expect(unknownPack.json<{ detail: string }>().detail).toBe(
      'Unknown credit package "mega1000". Choose one of: essential10, power100, ultimate500.',
    );
    const euro = await checkout(harness.testApp, user, 'power100', 'EUR');
    expect(euro.statusCode).toBe(400);
    expect(euro.json<{ detail: string }>().detail).toBe('Unsupported currency "EUR". Only USD is accepted.');
    const missing = await harness.testApp.app.inject({
      method: 'POST',
      url: '/api/v1/billing/checkout/session',
      headers: user.headers,
      payload: { currency: 'USD' },
    });
    expect(missing.statusCode).toBe(422);
    expect(harness.stripe.requests.length).toBe(calls);
  });

  it('requires a signed-in user', async () => {
    const response = await harness.testApp.app.inject({
      method: 'POST',
      url: '/api/v1/billing/checkout/session',
      payload: { packKey: 'power100', currency: 'USD' },
    });
    expect(response.statusCode).toBe(401);
    const portal = await harness.testApp.app.inject({
      method: 'POST',
      url: '/api/v1/billing/portal/session',
    });
    expect(portal.statusCode).toBe(401);
  });

  it('answers 404 for the portal until the user has paid, then a portal session for their customer', async () => {
    const user = await signInRegistered(harness.testApp.app, 'portal@example.com');
    const portal = () =>
      harness.testApp.app.inject({
        method: 'POST',
        url: '/api/v1/billing/portal/session',
        headers: user.headers,
      });

    const never = await portal();
    expect(never.statusCode).toBe(404);
    expect(never.json<{ detail: string }>().detail).toBe(
      'No billing account yet: the billing portal opens once you have bought a credit pack.',
    );
    const sessionId = await startPurchase(harness, user, 'essential10');
    expect((await portal()).statusCode).toBe(404); // a started but unpaid checkout is not a purchase

    expect((await sendEvent(harness, harness.stripe.completeSession(sessionId))).statusCode).toBe(200);
    const response = await portal();
    expect(response.statusCode).toBe(200);
    const calls = harness.stripe.requestsTo('/v1/billing_portal/sessions');
    expect(calls.at(-1)?.params).toEqual({
      customer: harness.stripe.sessions.get(sessionId)?.customer,
      return_url: `${PUBLIC_BASE_URL}/dashboard`,
    });
    expect(response.json<{ url: string }>().url).toMatch(/\/p\/session\/bps_/);
  });

  it('reports a Stripe outage as an error and stores nothing', async () => {
    const user = await signInRegistered(harness.testApp.app, 'outage@example.com');
    await startPurchase(harness, user, 'essential10'); // customer exists now
    harness.stripe.failNextWith = { status: 400, message: 'Amount must be at least $0.50 usd' };
    const response = await checkout(harness.testApp, user, 'power100');
    expect(response.statusCode).toBe(502);
    expect(response.json<{ detail: string }>().detail).toBe(
      'Stripe could not create the checkout session: Amount must be at least $0.50 usd',
    );
    expect((await me(harness.testApp, user)).credits_remaining).toBe(user.credits);
  });
});

describe('billing with Stripe in production', () => {
  it('refuses to take money when no webhook secret is set (credits could never arrive)', async () => {
    const harness = await createStripeHarness({ STRIPE_WEBHOOK_SECRET: '' });
    try {
      const user = await signInRegistered(harness.testApp.app, 'prod@example.com');
      const production = createBillingService({
        settings: { ...harness.testApp.settings, isProduction: true },
        db: harness.testApp.database.db,
        eventBus: harness.testApp.app.eventBus,
      });
      await expect(
        production.createCheckoutSession(
          { id: user.userId, email: 'prod@example.com', name: 'Test User' },
          'power100',
          'USD',
        ),
      ).rejects.toMatchObject({
        statusCode: 503,
        detail: 'Stripe webhooks are not configured on this server: set STRIPE_WEBHOOK_SECRET.',
      });
      expect(harness.stripe.requests).toHaveLength(0);
      // Outside production the same settings still create sessions, but the webhook cannot verify anything.
      expect((await checkout(harness.testApp, user, 'power100')).statusCode).toBe(200);
      const webhook = await sendEvent(harness, harness.stripe.event('checkout.session.completed', {}));
      expect(webhook.statusCode).toBe(503);
      expect(webhook.json<{ detail: string }>().detail).toBe(
        'Stripe webhooks are not configured on this server: set STRIPE_WEBHOOK_SECRET.',
      );
    } finally {
      await harness.close();
    }
  });
});
