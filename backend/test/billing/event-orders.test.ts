// The events of one checkout reconcile whatever order Stripe delivers them in: every permutation of a
// checkout's events (completion, async payment, refunds, disputes), each delivered twice and all replayed at
// the end, leaves the same balance, nothing owed, and a ledger that adds up to the balance after every step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingRepository } from '../../src/billing/billing.repository.js';
import { FulfilmentService } from '../../src/billing/fulfilment.service.js';
import { CreditsService } from '../../src/credits/credits.service.js';
import { withTransaction, type Trx } from '../../src/db/transaction.js';
import { signInRegistered, type SignedIn } from '../helpers/auth.js';
import type { StripeEvent } from '../helpers/stripe-server.js';
import {
  createStripeHarness,
  creditsOwed,
  me,
  sendEvent,
  spend,
  startPurchase,
  type BillingHarness,
} from './billing-harness.js';

interface Scenario {
  name: string;
  pack: string;
  /** The checkout's events, made at Stripe in the order they happen there. */
  events(sessionId: string): StripeEvent[];
  /** Credits the user keeps from the purchase once every event is in. */
  kept: number;
  /** Credits the user owes before the checkout (an earlier purchase spent, then refunded), and after. */
  owedBefore?: number;
  owedAfter?: number;
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}

describe('money orders: every order of a checkout’s events', () => {
  let harness: BillingHarness;
  let counter = 0;

  const newUser = async (): Promise<SignedIn> => {
    counter += 1;
    return signInRegistered(harness.testApp.app, `orders${counter}@example.com`);
  };

  const scenarios: Scenario[] = [
    {
      name: 'completed, refunded in two steps',
      pack: 'power100',
      events: (id) => [
        harness.stripe.completeSession(id),
        harness.stripe.refund(id, 3000),
        harness.stripe.refund(id, 2999),
      ],
      kept: 0,
    },
    {
      name: 'completed, half refunded',
      pack: 'power100',
      events: (id) => [harness.stripe.completeSession(id), harness.stripe.refund(id, 3000)],
      kept: 50,
    },
    {
      name: 'completed, disputed, then refunded in full',
      pack: 'ultimate500',
      events: (id) => [
        harness.stripe.completeSession(id),
        harness.stripe.dispute(id),
        harness.stripe.refund(id, 24999),
      ],
      kept: 0,
    },
    {
      name: 'completed, partly disputed and partly refunded',
      pack: 'power100',
      // 2000 + 3000 of 5999 cents back: round(100 × 5000 / 5999) = 83 credits taken back.
      events: (id) => [
        harness.stripe.completeSession(id),
        harness.stripe.dispute(id, 2000),
        harness.stripe.refund(id, 3000),
      ],
      kept: 17,
    },
    {
      name: 'completed unpaid, paid later, half refunded',
      pack: 'power100',
      events: (id) => [
        harness.stripe.completeSession(id, 'unpaid'),
        harness.stripe.asyncPaymentSucceeded(id),
        harness.stripe.refund(id, 3000),
      ],
      kept: 50,
    },
    {
      name: 'completed unpaid, payment failed, refunded',
      pack: 'essential10',
      events: (id) => [
        harness.stripe.completeSession(id, 'unpaid'),
        harness.stripe.asyncPaymentFailed(id),
        harness.stripe.refund(id, 799),
      ],
      kept: 0,
    },
    {
      name: 'owing 100, completed, refunded in full',
      pack: 'essential10',
      events: (id) => [harness.stripe.completeSession(id), harness.stripe.refund(id, 799)],
      kept: 0,
      owedBefore: 100,
      owedAfter: 100,
    },
    {
      name: 'owing 100, completed, half refunded',
      pack: 'power100',
      // The debt takes the 100 credits; the half refund (50) can take nothing more and is owed.
      events: (id) => [harness.stripe.completeSession(id), harness.stripe.refund(id, 3000)],
      kept: 0,
      owedBefore: 100,
      owedAfter: 50,
    },
  ];

  beforeAll(async () => {
    // Each scenario signs in a new user per order from one address: above the sign-in rate limit, which this
    // suite is not about (test/security covers it).
    harness = await createStripeHarness({ RATE_LIMIT_SIGNIN_PER_MINUTE: '100000' });
  });
  afterAll(async () => {
    await harness.close();
  });

  async function expectLedgerEqualsBalance(user: SignedIn): Promise<number> {
    const db = harness.testApp.database.db;
    const rows = await db
      .selectFrom('credit_ledger')
      .select('delta')
      .where('user_id', '=', user.userId)
      .execute();
    const balance = (await me(harness.testApp, user)).credits_remaining;
    expect(rows.reduce((sum, row) => sum + row.delta, 0)).toBe(balance);
    return balance;
  }

  /** An earlier power100 purchase, all credits spent, then refunded in full: 100 credits owed. */
  async function owe100(user: SignedIn): Promise<void> {
    const sessionId = await startPurchase(harness, user, 'power100');
    await deliver(harness.stripe.completeSession(sessionId));
    await spend(harness.testApp, user, user.credits + 100, `test:spend-${sessionId}`);
    await deliver(harness.stripe.refund(sessionId, 5999));
    expect(await creditsOwed(harness.testApp, user)).toBe(100);
  }

  async function deliver(event: StripeEvent): Promise<string> {
    const response = await sendEvent(harness, event);
    expect(response.statusCode).toBe(200);
    return response.json<{ outcome: string }>().outcome;
  }

  for (const scenario of scenarios) {
    it(`${scenario.name}: the same credits in every order`, async () => {
      // Each order gets a fresh user and checkout; the orders are known once the first events are made.
      let orders: number[][] | undefined;
      for (let run = 0; run < (orders?.length ?? 1); run += 1) {
        const user = await newUser();
        if (scenario.owedBefore) await owe100(user);
        const start = await expectLedgerEqualsBalance(user);
        const sessionId = await startPurchase(harness, user, scenario.pack);
        const events = scenario.events(sessionId);
        orders ??= permutations(events.map((_, index) => index));
        const order = orders[run] ?? [];
        const label = `${scenario.name}, order ${order.map((i) => events[i]?.type).join(' → ')}`;
        for (const index of order) {
          const event = events[index];
          if (!event) throw new Error(`${label}: no event ${index}`);
          expect(await deliver(event), label).not.toBe('duplicate');
          expect(await deliver(event), `${label}: replay`).toBe('duplicate');
          await expectLedgerEqualsBalance(user);
        }
        for (const event of events) expect(await deliver(event), `${label}: late replay`).toBe('duplicate');

        expect(await expectLedgerEqualsBalance(user), label).toBe(start + scenario.kept);
        expect(await creditsOwed(harness.testApp, user), label).toBe(scenario.owedAfter ?? 0);
      }
    });
  }

  it('a refund that arrives before its checkout’s completion is taken back when the completion comes', async () => {
    const user = await newUser();
    const sessionId = await startPurchase(harness, user, 'power100');
    const completed = harness.stripe.completeSession(sessionId);
    const refund = harness.stripe.refund(sessionId, 5999);
    const charge = harness.stripe.chargeFor(sessionId);

    expect(await deliver(refund)).toBe('processed');
    expect((await me(harness.testApp, user)).credits_remaining).toBe(user.credits);
    expect(await deliver(completed)).toBe('processed');
    expect((await me(harness.testApp, user)).credits_remaining).toBe(user.credits);
    const ledger = await harness.testApp.database.db
      .selectFrom('credit_ledger')
      .select(['reference', 'delta'])
      .where('user_id', '=', user.userId)
      .where('reason', '!=', 'signup')
      .execute();
    expect(ledger).toEqual(
      expect.arrayContaining([
        { reference: `checkout:${sessionId}`, delta: 100 },
        { reference: `refund:${charge.id}:5999`, delta: -100 },
      ]),
    );
    expect(ledger).toHaveLength(2);
    await expectLedgerEqualsBalance(user);
  });

  // A refund and its checkout's completion in two transactions that overlap: whichever commits first, the
  // other sees it. The first transaction is held open until the second has had time to run or to wait.
  for (const first of ['refund', 'completion'] as const) {
    it(`a refund racing its completion (${first} first) is taken back`, async () => {
      const db = harness.testApp.database.db;
      const fulfilment = new FulfilmentService(new CreditsService(), new BillingRepository());
      const user = await newUser();
      const sessionId = await startPurchase(harness, user, 'power100');
      const completed = harness.stripe.completeSession(sessionId).data.object as { payment_intent: string };
      const paymentIntentId = completed.payment_intent;
      const charge = harness.stripe.chargeFor(sessionId);
      const refund = (trx: Trx) =>
        fulfilment.reverse(trx, {
          paymentIntentId,
          reason: 'refund',
          amountCents: 5999,
          reference: `refund:${charge.id}:5999`,
        });
      const complete = (trx: Trx) => fulfilment.fulfil(trx, sessionId, paymentIntentId);
      const [firstStep, secondStep] = first === 'refund' ? [refund, complete] : [complete, refund];

      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let started = () => {};
      const firstDone = new Promise<void>((resolve) => (started = resolve));
      const firstTransaction = withTransaction(db, async (trx) => {
        await firstStep(trx);
        started();
        await held;
      });
      await firstDone;
      const secondTransaction = withTransaction(db, (trx) => secondStep(trx));
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await Promise.all([firstTransaction, secondTransaction]);

      expect(await expectLedgerEqualsBalance(user)).toBe(user.credits);
      expect(await creditsOwed(harness.testApp, user)).toBe(0);
    });
  }

  it('a checkout’s events delivered all at once, several times over, reconcile', async () => {
    for (let round = 0; round < 4; round += 1) {
      const user = await newUser();
      const sessionId = await startPurchase(harness, user, 'power100');
      const events = [
        harness.stripe.completeSession(sessionId),
        harness.stripe.refund(sessionId, 3000),
        harness.stripe.dispute(sessionId, 1000),
      ];
      // Refunds and dispute first, completion last: each delivery races all the others.
      const burst = [...events.toReversed(), ...events];
      const outcomes = await Promise.all(burst.map((event) => deliver(event)));
      expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(3);
      // 3000 + 1000 of 5999 cents back: round(100 × 4000 / 5999) = 67 credits taken back.
      expect(await expectLedgerEqualsBalance(user)).toBe(user.credits + 33);
      expect(await creditsOwed(harness.testApp, user)).toBe(0);
    }
  });
});
