// Turning payments into credits and refunds back into debits. The webhook and the test-mode checkout both
// call `fulfil`, so a session is granted exactly once whatever path, order or number of deliveries.
//
// Rules:
// - A session's credits go through the ledger with reference `checkout:<session id>`: a replay is a no-op.
// - Credits owed (see `reverse`) are paid first from the next grant: ledger reference `debt:<session id>`.
// - The user's purchase tier becomes the best pack ever paid for (standard < priority < highest_priority).
// - A refund or dispute takes back the share of the session's credits matching the share of money returned,
//   as far as the balance allows; the rest is recorded as owed. Ledger references: `refund:<charge id>:<cents
//   refunded so far>` (Stripe reports partial refunds cumulatively, so each step is unique) and
//   `refund:<dispute id>`.
// - Events of one checkout reconcile whatever their order: every refund step and dispute is recorded by its
//   reference (payment_reversals); one that arrives before its payment is fulfilled waits, and the
//   fulfilment grants the credits and takes them back in the same transaction. Everything about one payment
//   runs under one lock (`lockPayment`), so a refund racing its completion is seen by one of the two.
import { findPack, TIER_PRIORITY, type PurchaseTier } from '@folio/shared';
import type { CreditsService } from '../credits/credits.service.js';
import type { Trx } from '../db/transaction.js';
import { nowIso } from '../db/values.js';
import type { BillingRepository, CheckoutSessionRow, PaymentReversalRow } from './billing.repository.js';
import type { ReversalReason } from './billing.tables.js';

export interface CreditChangeOutcome {
  userId: string;
  /** Balance after the change. */
  balance: number;
  /** False when nothing changed (already fulfilled, nothing left to take back). */
  changed: boolean;
}

export interface ReversalRequest {
  paymentIntentId: string;
  /** Ledger reference of this refund step or dispute; unique, so a replay changes nothing. */
  reference: string;
  reason: ReversalReason;
  /** Refund: Stripe's cumulative `amount_refunded` of the charge. Dispute: the amount of this dispute. */
  amountCents: number;
}

function isTier(value: string | undefined): value is PurchaseTier {
  return value !== undefined && value in TIER_PRIORITY;
}

export class FulfilmentService {
  constructor(
    private readonly credits: CreditsService,
    private readonly repo: BillingRepository,
  ) {}

  /** Grants the session's credits once. `paymentIntentId` links later refunds to the session. */
  async fulfil(
    trx: Trx,
    sessionId: string,
    paymentIntentId: string | null,
  ): Promise<CreditChangeOutcome | null> {
    if (paymentIntentId) await this.repo.lockPayment(trx, paymentIntentId);
    const session = await this.repo.findSession(trx, sessionId, true);
    if (!session) return null;
    const now = nowIso();
    if (session.status === 'fulfilled') {
      return {
        userId: session.user_id,
        balance: await this.credits.balance(trx, session.user_id),
        changed: false,
      };
    }
    const grant = await this.credits.apply(trx, {
      userId: session.user_id,
      delta: session.credits,
      reason: 'purchase',
      reference: `checkout:${session.id}`,
    });
    await this.repo.markFulfilled(trx, session.id, paymentIntentId, now);
    let balance = grant.balance;
    if (grant.applied) {
      const paymentIntent = session.payment_intent_id ?? paymentIntentId;
      // Refunds and disputes that came before this completion: taken back now, before any debt is paid.
      if (paymentIntent) balance = await this.applyPending(trx, session.id, paymentIntent, balance, now);
      balance = await this.payDebt(trx, session, balance, now);
      await this.raiseTier(trx, session, now);
    }
    return { userId: session.user_id, balance, changed: grant.applied };
  }

  /**
   * Takes credits back for money returned on a fulfilled session. `pending` when no fulfilled session has
   * this payment (yet): the reversal is kept and applied if and when the payment is fulfilled.
   */
  async reverse(trx: Trx, request: ReversalRequest): Promise<CreditChangeOutcome | 'pending'> {
    await this.repo.lockPayment(trx, request.paymentIntentId);
    const now = nowIso();
    const reversal = await this.repo.recordReversal(trx, {
      reference: request.reference,
      payment_intent_id: request.paymentIntentId,
      reason: request.reason,
      amount_cents: request.amountCents,
      received_at: now,
      applied_at: null,
    });
    const session = await this.repo.findSessionByPaymentIntent(trx, request.paymentIntentId);
    if (!session || session.status !== 'fulfilled') return 'pending';
    if (reversal.applied_at !== null) {
      return {
        userId: session.user_id,
        balance: await this.credits.balance(trx, session.user_id),
        changed: false,
      };
    }
    return this.applyReversal(trx, session, reversal, now);
  }

  /** Applies the payment's waiting reversals in the order they came; answers the balance after them. */
  private async applyPending(
    trx: Trx,
    sessionId: string,
    paymentIntentId: string,
    balance: number,
    now: string,
  ): Promise<number> {
    let after = balance;
    for (const reversal of await this.repo.pendingReversals(trx, paymentIntentId)) {
      // Read again each time: every reversal changes the session's figures.
      const session = await this.repo.findSession(trx, sessionId);
      if (!session) break;
      after = (await this.applyReversal(trx, session, reversal, now)).balance;
    }
    return after;
  }

  private async applyReversal(
    trx: Trx,
    session: CheckoutSessionRow,
    reversal: PaymentReversalRow,
    now: string,
  ): Promise<CreditChangeOutcome> {
    await this.repo.markReversalApplied(trx, reversal.reference, now);
    const refunded =
      reversal.reason === 'refund'
        ? Math.max(session.refunded_cents, reversal.amount_cents)
        : session.refunded_cents;
    const disputed = session.disputed_cents + (reversal.reason === 'dispute' ? reversal.amount_cents : 0);
    const reversedCents = Math.min(session.amount_cents, refunded + disputed);
    const target = Math.round((session.credits * reversedCents) / session.amount_cents);
    const due = target - session.credits_reversed;
    const current = await this.credits.balance(trx, session.user_id);
    const creditsReversed = Math.max(target, session.credits_reversed);
    await this.repo.setReversal(
      trx,
      session.id,
      { refunded_cents: refunded, disputed_cents: disputed, credits_reversed: creditsReversed },
      now,
    );
    if (due <= 0) return { userId: session.user_id, balance: current, changed: false };

    const taken = Math.min(due, current);
    let balance = current;
    if (taken > 0) {
      const debit = await this.credits.apply(trx, {
        userId: session.user_id,
        delta: -taken,
        reason: reversal.reason,
        reference: reversal.reference,
      });
      balance = debit.balance;
    }
    if (due > taken) await this.repo.addCreditsOwed(trx, session.user_id, due - taken, now);
    return { userId: session.user_id, balance, changed: true };
  }

  private async payDebt(
    trx: Trx,
    session: CheckoutSessionRow,
    balance: number,
    now: string,
  ): Promise<number> {
    const owed = await this.repo.creditsOwed(trx, session.user_id);
    const payment = Math.min(owed, balance);
    if (payment <= 0) return balance;
    const debit = await this.credits.apply(trx, {
      userId: session.user_id,
      delta: -payment,
      reason: 'debt',
      reference: `debt:${session.id}`,
    });
    await this.repo.addCreditsOwed(trx, session.user_id, -payment, now);
    return debit.balance;
  }

  private async raiseTier(trx: Trx, session: CheckoutSessionRow, now: string): Promise<void> {
    const packTier = findPack(session.pack_key)?.tier;
    if (!packTier) return;
    const current = await this.repo.purchaseTier(trx, session.user_id);
    if (isTier(current) && TIER_PRIORITY[current] >= TIER_PRIORITY[packTier]) return;
    await this.repo.setPurchaseTier(trx, session.user_id, packTier, now);
  }
}
