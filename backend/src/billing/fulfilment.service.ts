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
import { findPack, TIER_PRIORITY, type PurchaseTier } from '@folio/shared';
import type { CreditsService } from '../credits/credits.service.js';
import type { Trx } from '../db/transaction.js';
import { nowIso } from '../db/values.js';
import type { BillingRepository, CheckoutSessionRow } from './billing.repository.js';

export interface CreditChangeOutcome {
  userId: string;
  /** Balance after the change. */
  balance: number;
  /** False when nothing changed (already fulfilled, nothing left to take back). */
  changed: boolean;
}

export type ReversalRequest = {
  paymentIntentId: string;
  reference: string;
} & (
  | { reason: 'refund'; /** Stripe's cumulative `amount_refunded` of the charge. */ refundedCents: number }
  | { reason: 'dispute'; /** Amount of this (new) dispute. */ disputedCents: number }
);

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
    let balance = grant.balance;
    if (grant.applied) {
      balance = await this.payDebt(trx, session, balance, now);
      await this.raiseTier(trx, session, now);
    }
    await this.repo.markFulfilled(trx, session.id, paymentIntentId, now);
    return { userId: session.user_id, balance, changed: grant.applied };
  }

  /** Takes credits back for money returned on a fulfilled session; null when no session matches. */
  async reverse(trx: Trx, request: ReversalRequest): Promise<CreditChangeOutcome | null> {
    const session = await this.repo.findSessionByPaymentIntent(trx, request.paymentIntentId);
    if (!session || session.status !== 'fulfilled') return null;
    const now = nowIso();
    const refunded =
      request.reason === 'refund'
        ? Math.max(session.refunded_cents, request.refundedCents)
        : session.refunded_cents;
    const disputed = session.disputed_cents + (request.reason === 'dispute' ? request.disputedCents : 0);
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
        reason: request.reason,
        reference: request.reference,
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
