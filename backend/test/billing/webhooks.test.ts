// Stripe webhooks: only verified events grant credits, each session exactly once whatever the order or the
// number of deliveries; refunds and disputes take credits back, and what cannot be taken back is owed.
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInRegistered, type SignedIn } from '../helpers/auth.js';
import {
  createStripeHarness,
  creditsOwed,
  ledgerReferences,
  me,
  sendEvent,
  spend,
  startPurchase,
  type BillingHarness,
} from './billing-harness.js';

describe('Stripe webhooks', () => {
  let harness: BillingHarness;
  let counter = 0;

  const newUser = async (): Promise<SignedIn> => {
    counter += 1;
    return signInRegistered(harness.testApp.app, `webhook${counter}@example.com`);
  };
  const credits = async (user: SignedIn) => (await me(harness.testApp, user)).credits_remaining;
  const eventsFor = (user: SignedIn): RealtimeEvent[] => {
    const seen: RealtimeEvent[] = [];
    harness.testApp.app.eventBus.subscribe(user.userId, (event) => seen.push(event));
    return seen;
  };

  beforeAll(async () => {
    harness = await createStripeHarness();
  });
  afterAll(async () => {
    await harness.close();
  });

  it('grants the pack once for a paid checkout.session.completed and publishes credits.updated', async () => {
    const user = await newUser();
    const published = eventsFor(user);
    const sessionId = await startPurchase(harness, user, 'power100');

    const response = await sendEvent(harness, harness.stripe.completeSession(sessionId));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true, outcome: 'processed' });
    expect(await credits(user)).toBe(user.credits + 100);
    expect(published).toEqual([{ type: 'credits.updated', credits_remaining: user.credits + 100 }]);
    expect(await ledgerReferences(harness.testApp, user)).toContain(`checkout:${sessionId} +100`);
  });

  it('rejects a tampered payload, a wrong secret and a stale timestamp with 400 and changes nothing', async () => {
    const user = await newUser();
    const sessionId = await startPurchase(harness, user, 'ultimate500');
    const event = harness.stripe.completeSession(sessionId);

    const tampered = await sendEvent(harness, event, {
      tamper: (payload) => payload.replace('"amount_total": 24999', '"amount_total": 1'),
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json<{ detail: string }>().detail).toMatch(/^Invalid Stripe webhook signature: /);

    const wrongSecret = await sendEvent(harness, event, { secret: 'whsec_someone_else' });
    expect(wrongSecret.statusCode).toBe(400);

    const stale = await sendEvent(harness, event, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.statusCode).toBe(400);
    expect(stale.json<{ detail: string }>().detail).toContain('tolerance');

    const unsigned = await harness.testApp.app.inject({
      method: 'POST',
      url: '/api/v1/billing/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(event),
    });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json<{ detail: string }>().detail).toBe('Missing Stripe-Signature header');

    expect(await credits(user)).toBe(user.credits);
    expect((await me(harness.testApp, user)).purchase_tier).toBe('standard');
    // The event was never stored, so the genuine delivery still counts.
    const genuine = await sendEvent(harness, event);
    expect(genuine.json()).toEqual({ received: true, outcome: 'processed' });
    expect(await credits(user)).toBe(user.credits + 500);
  });

  it('accepts a timestamp inside the 300 s tolerance', async () => {
    const user = await newUser();
    const sessionId = await startPurchase(harness, user, 'essential10');
    const response = await sendEvent(harness, harness.stripe.completeSession(sessionId), {
      timestamp: Math.floor(Date.now() / 1000) - 240,
    });
    expect(response.statusCode).toBe(200);
    expect(await credits(user)).toBe(user.credits + 10);
  });

  it('grants once when the same event is replayed ten times, also concurrently', async () => {
    const user = await newUser();
    const published = eventsFor(user);
    const sessionId = await startPurchase(harness, user, 'power100');
    const event = harness.stripe.completeSession(sessionId);

    const first = await Promise.all(Array.from({ length: 5 }, () => sendEvent(harness, event)));
    const rest = [];
    for (let i = 0; i < 5; i += 1) rest.push(await sendEvent(harness, event));
    const outcomes = [...first, ...rest].map((response) => {
      expect(response.statusCode).toBe(200);
      return response.json<{ outcome: string }>().outcome;
    });
    expect(outcomes.filter((outcome) => outcome === 'processed')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(9);
    expect(await credits(user)).toBe(user.credits + 100);
    expect(published).toHaveLength(1);
  });

  it('grants once when completed and async_payment_succeeded both arrive, in either order', async () => {
    const user = await newUser();
    // Bank debit: the session completes unpaid, then the payment succeeds. Stripe may deliver in any order.
    const delayed = await startPurchase(harness, user, 'essential10');
    const completedUnpaid = harness.stripe.completeSession(delayed, 'unpaid');
    const succeeded = harness.stripe.asyncPaymentSucceeded(delayed);
    expect((await sendEvent(harness, succeeded)).json()).toEqual({ received: true, outcome: 'processed' });
    expect((await sendEvent(harness, completedUnpaid)).json()).toEqual({
      received: true,
      outcome: 'ignored',
    });
    expect(await credits(user)).toBe(user.credits + 10);

    // Card payment: completed (paid) first, then a paid async event for the same session.
    const card = await startPurchase(harness, user, 'essential10');
    const completedPaid = harness.stripe.completeSession(card);
    const laterAsync = harness.stripe.asyncPaymentSucceeded(card);
    await sendEvent(harness, completedPaid);
    expect((await sendEvent(harness, laterAsync)).statusCode).toBe(200);
    // And a replay of the first pair after both were handled.
    await sendEvent(harness, succeeded);
    expect(await credits(user)).toBe(user.credits + 20);
    const references = await ledgerReferences(harness.testApp, user);
    expect(references.filter((reference) => reference.startsWith('checkout:'))).toHaveLength(2);
  });

  it('grants nothing for an unpaid session, nor for a failed async payment', async () => {
    const user = await newUser();
    const sessionId = await startPurchase(harness, user, 'ultimate500');
    const unpaid = await sendEvent(harness, harness.stripe.completeSession(sessionId, 'unpaid'));
    expect(unpaid.json()).toEqual({ received: true, outcome: 'ignored' });
    const failed = await sendEvent(harness, harness.stripe.asyncPaymentFailed(sessionId));
    expect(failed.statusCode).toBe(200);
    expect(await credits(user)).toBe(user.credits);
    expect((await me(harness.testApp, user)).purchase_tier).toBe('standard');
  });

  it('answers 200 to event types it does not handle, and ignores them', async () => {
    const user = await newUser();
    for (const type of ['customer.created', 'payment_intent.succeeded', 'invoice.paid']) {
      const response = await sendEvent(harness, harness.stripe.event(type, { id: 'obj_1', object: 'thing' }));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true, outcome: 'ignored' });
    }
    expect(await credits(user)).toBe(user.credits);
  });

  it('ignores a paid session whose metadata names no known user or pack', async () => {
    const user = await newUser();
    const sessionId = await startPurchase(harness, user, 'power100');
    const event = harness.stripe.completeSession(sessionId);
    const session = event.data.object as { id: string; metadata: Record<string, string> };
    session.id = 'cs_test_created_elsewhere';
    session.metadata = { user_id: 'nobody', pack_key: 'power100', credits: '100' };
    expect((await sendEvent(harness, event)).json()).toEqual({ received: true, outcome: 'ignored' });
    // The same metadata pointing at a real user is adopted (the session was created by another deployment).
    const adopted = harness.stripe.event('checkout.session.completed', {
      ...session,
      id: 'cs_test_adopted',
      payment_intent: 'pi_adopted',
      metadata: { user_id: user.userId, pack_key: 'essential10', credits: '10' },
    });
    expect((await sendEvent(harness, adopted)).json()).toEqual({ received: true, outcome: 'processed' });
    expect(await credits(user)).toBe(user.credits + 10);
  });

  it('sets the purchase tier to the best pack bought, never lowering it', async () => {
    const user = await newUser();
    const tier = async () => (await me(harness.testApp, user)).purchase_tier;
    expect(await tier()).toBe('standard');
    await sendEvent(harness, harness.stripe.completeSession(await startPurchase(harness, user, 'power100')));
    expect(await tier()).toBe('priority');
    await sendEvent(
      harness,
      harness.stripe.completeSession(await startPurchase(harness, user, 'essential10')),
    );
    expect(await tier()).toBe('priority');
    await sendEvent(
      harness,
      harness.stripe.completeSession(await startPurchase(harness, user, 'ultimate500')),
    );
    expect(await tier()).toBe('highest_priority');
  });

  it('takes back a partial refund, records what was already spent as owed, and collects it from the next purchase', async () => {
    const user = await newUser();
    const published = eventsFor(user);
    const sessionId = await startPurchase(harness, user, 'power100');
    await sendEvent(harness, harness.stripe.completeSession(sessionId));
    const start = user.credits + 100;

    // Half the money back: half the credits back.
    const half = await sendEvent(harness, harness.stripe.refund(sessionId, 3000));
    expect(half.json()).toEqual({ received: true, outcome: 'processed' });
    expect(await credits(user)).toBe(start - 50);
    expect(await creditsOwed(harness.testApp, user)).toBe(0);

    // The user spends most of the rest, then the remainder is refunded: only what is left can be taken.
    await spend(harness.testApp, user, start - 50 - 5, 'test:restoration-1');
    expect(await credits(user)).toBe(5);
    const rest = harness.stripe.refund(sessionId, 2999);
    expect((await sendEvent(harness, rest)).statusCode).toBe(200);
    expect(await credits(user)).toBe(0);
    expect(await creditsOwed(harness.testApp, user)).toBe(45);
    expect(published.at(-1)).toEqual({ type: 'credits.updated', credits_remaining: 0 });
    // A replay of the refund event changes nothing.
    expect((await sendEvent(harness, rest)).json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(await creditsOwed(harness.testApp, user)).toBe(45);

    // The next purchase pays the debt first: 10 credits bought, all 10 go to the debt.
    await sendEvent(
      harness,
      harness.stripe.completeSession(await startPurchase(harness, user, 'essential10')),
    );
    expect(await credits(user)).toBe(0);
    expect(await creditsOwed(harness.testApp, user)).toBe(35);
    // 100 more: 35 pay the rest of the debt, 65 remain.
    await sendEvent(harness, harness.stripe.completeSession(await startPurchase(harness, user, 'power100')));
    expect(await credits(user)).toBe(65);
    expect(await creditsOwed(harness.testApp, user)).toBe(0);

    const references = await ledgerReferences(harness.testApp, user);
    const charge = harness.stripe.chargeFor(sessionId);
    expect(references).toEqual(
      expect.arrayContaining([
        `refund:${charge.id}:3000 -50`,
        `refund:${charge.id}:5999 -5`,
        expect.stringMatching(/^debt:cs_test_\w+ -10$/),
        expect.stringMatching(/^debt:cs_test_\w+ -35$/),
      ]),
    );
  });

  it('takes back a disputed payment, and a later refund of the same charge takes nothing twice', async () => {
    const user = await newUser();
    const sessionId = await startPurchase(harness, user, 'ultimate500');
    await sendEvent(harness, harness.stripe.completeSession(sessionId));
    expect(await credits(user)).toBe(user.credits + 500);

    const dispute = harness.stripe.dispute(sessionId);
    expect((await sendEvent(harness, dispute)).json()).toEqual({ received: true, outcome: 'processed' });
    expect(await credits(user)).toBe(user.credits);
    // The merchant then refunds the same charge in full: the credits were already taken back.
    await sendEvent(harness, harness.stripe.refund(sessionId, 24999));
    expect(await credits(user)).toBe(user.credits);
    expect(await creditsOwed(harness.testApp, user)).toBe(0);
  });

  it('keeps a refund for a payment not fulfilled yet, and applies it when the payment succeeds', async () => {
    const user = await newUser();
    const sessionId = await startPurchase(harness, user, 'power100');
    harness.stripe.completeSession(sessionId, 'unpaid'); // payment exists at Stripe, not paid here yet
    const response = await sendEvent(harness, harness.stripe.refund(sessionId, 5999));
    expect(response.json()).toEqual({ received: true, outcome: 'processed' });
    expect(await credits(user)).toBe(user.credits);
    expect(await creditsOwed(harness.testApp, user)).toBe(0);

    // The payment then succeeds: the pack is granted and the refund taken back in the same step.
    await sendEvent(harness, harness.stripe.asyncPaymentSucceeded(sessionId));
    expect(await credits(user)).toBe(user.credits);
    expect(await creditsOwed(harness.testApp, user)).toBe(0);
    const charge = harness.stripe.chargeFor(sessionId);
    expect(await ledgerReferences(harness.testApp, user)).toEqual(
      expect.arrayContaining([`checkout:${sessionId} +100`, `refund:${charge.id}:5999 -100`]),
    );
  });
});
