// Billing rules: checkout and portal sessions, verified webhooks, and the test-mode checkout. A unit of work
// (CONTRIBUTING.md, "Transactions"): it opens the transactions, and calls to Stripe happen outside them, so each
// database step is its own short transaction; FulfilmentService and CreditsService run inside the one they are
// given. `credits.updated` is published only after the transaction that changed the balance has committed.
import { randomUUID } from 'node:crypto';
import { CURRENCY, findPack, CREDIT_PACKS, type CreditPack } from '@folio/shared';
import type { CreditsService } from '../credits/credits.service.js';
import type { Db } from '../db/database.js';
import { withTransaction, type Trx } from '../db/transaction.js';
import { nowIso } from '../db/values.js';
import { BadRequestError, NotFoundError, ServiceUnavailableError } from '../errors.js';
import type { EventBus } from '../realtime/event-bus.js';
import { BillingRepository, type CheckoutSessionRow } from './billing.repository.js';
import type { CheckoutMode } from './billing.tables.js';
import { FulfilmentService, type CreditChangeOutcome } from './fulfilment.service.js';
import type { StripeEvent, StripeGateway } from './stripe-gateway.js';

/** Where payments go: Stripe, the built-in test-mode checkout, or nowhere (production without keys). */
export type PaymentProvider =
  | { kind: 'stripe'; gateway: StripeGateway; requireWebhooks: boolean }
  | { kind: 'test' }
  | { kind: 'unconfigured' };

export interface BillingUser {
  id: string;
  email: string;
  name: string;
}

export interface WebhookResult {
  received: true;
  /** What Folio did with the event. */
  outcome: 'processed' | 'duplicate' | 'ignored';
}

export interface TestCheckoutView {
  session: CheckoutSessionRow;
  pack: CreditPack;
}

export const TEST_CHECKOUT_PATH = '/billing/test-checkout';
const TEST_SESSION_PREFIX = 'cs_folio_test_';
const PAYMENTS_UNCONFIGURED =
  'Payments are not configured on this server: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.';
const WEBHOOKS_UNCONFIGURED = 'Stripe webhooks are not configured on this server: set STRIPE_WEBHOOK_SECRET.';

type StripeSessionObject = {
  id: string;
  payment_status?: string;
  payment_intent?: string | { id: string } | null;
  metadata?: Record<string, string> | null;
  amount_total?: number | null;
  currency?: string | null;
  success_url?: string | null;
  cancel_url?: string | null;
};

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

export class BillingService {
  readonly #repo = new BillingRepository();
  readonly #fulfilment: FulfilmentService;

  constructor(
    private readonly db: Db,
    credits: CreditsService,
    private readonly eventBus: EventBus,
    private readonly provider: PaymentProvider,
    private readonly publicBaseUrl: string,
    private readonly log: { warn: (message: string) => void } = console,
  ) {
    this.#fulfilment = new FulfilmentService(credits, this.#repo);
  }

  /** Starts buying `packKey`; answers the page the browser goes to. */
  async createCheckoutSession(
    user: BillingUser,
    packKey: string,
    currency: string,
  ): Promise<{ url: string }> {
    const pack = findPack(packKey);
    if (!pack) {
      const keys = CREDIT_PACKS.map((candidate) => candidate.key).join(', ');
      throw new BadRequestError(`Unknown credit package "${packKey}". Choose one of: ${keys}.`);
    }
    if (currency.toUpperCase() !== CURRENCY) {
      throw new BadRequestError(`Unsupported currency "${currency}". Only ${CURRENCY} is accepted.`);
    }
    const successUrl = `${this.publicBaseUrl}/dashboard/billing/success?session_id={CHECKOUT_SESSION_ID}`;
    const cancelUrl = `${this.publicBaseUrl}/dashboard/billing/cancel`;
    const metadata = { user_id: user.id, pack_key: pack.key, credits: String(pack.credits) };
    const provider = this.provider;

    if (provider.kind === 'unconfigured') throw new ServiceUnavailableError(PAYMENTS_UNCONFIGURED);
    if (provider.kind === 'test') {
      const id = `${TEST_SESSION_PREFIX}${randomUUID().replaceAll('-', '')}`;
      await this.storeSession(
        user.id,
        pack,
        id,
        'test',
        successUrl.replace('{CHECKOUT_SESSION_ID}', id),
        cancelUrl,
      );
      return { url: `${this.publicBaseUrl}${TEST_CHECKOUT_PATH}/${id}` };
    }
    if (provider.requireWebhooks && !provider.gateway.webhooksConfigured) {
      // Without webhooks a payment would never turn into credits: refuse to take money.
      throw new ServiceUnavailableError(WEBHOOKS_UNCONFIGURED);
    }
    const customerId = await this.customerFor(provider.gateway, user);
    const session = await provider.gateway.createCheckoutSession({
      customerId,
      userId: user.id,
      productName: pack.name,
      productDescription: `${pack.credits} credits. One credit restores one page.`,
      unitAmountCents: pack.priceCents,
      currency: CURRENCY.toLowerCase(),
      successUrl,
      cancelUrl,
      metadata,
    });
    await this.storeSession(
      user.id,
      pack,
      session.id,
      'stripe',
      successUrl.replace('{CHECKOUT_SESSION_ID}', session.id),
      cancelUrl,
    );
    return { url: session.url };
  }

  /** The Stripe customer portal for a user who has paid through Stripe before. */
  async createPortalSession(userId: string): Promise<{ url: string }> {
    const provider = this.provider;
    if (provider.kind === 'unconfigured') throw new ServiceUnavailableError(PAYMENTS_UNCONFIGURED);
    if (provider.kind === 'test') {
      throw new NotFoundError(
        'The billing portal is not available in test mode: test purchases have no invoices or payment methods to manage.',
      );
    }
    const customerId = await withTransaction(this.db, async (trx) => {
      if (!(await this.#repo.hasFulfilledSession(trx, userId, 'stripe'))) return undefined;
      return this.#repo.findCustomerId(trx, userId);
    });
    if (!customerId) {
      throw new NotFoundError(
        'No billing account yet: the billing portal opens once you have bought a credit pack.',
      );
    }
    const url = await provider.gateway.createPortalSession(customerId, `${this.publicBaseUrl}/dashboard`);
    return { url };
  }

  /** Verifies, stores and applies one Stripe event. Safe to receive any number of times, in any order. */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<WebhookResult> {
    const provider = this.provider;
    if (provider.kind !== 'stripe') throw new ServiceUnavailableError(PAYMENTS_UNCONFIGURED);
    if (!provider.gateway.webhooksConfigured) throw new ServiceUnavailableError(WEBHOOKS_UNCONFIGURED);
    const event = provider.gateway.verifyWebhook(rawBody, signature);

    const { outcome, change } = await withTransaction(this.db, async (trx) => {
      const stored = await this.#repo.recordEvent(trx, {
        id: event.id,
        type: event.type,
        stripe_created: event.created,
        received_at: nowIso(),
      });
      if (!stored) return { outcome: 'duplicate' as const, change: null };
      return this.applyEvent(trx, event);
    });
    if (change?.changed) await this.publishCredits(change);
    return { received: true, outcome };
  }

  async testCheckout(sessionId: string): Promise<TestCheckoutView> {
    return withTransaction(this.db, (trx) => this.findTestSession(trx, sessionId));
  }

  /** The test-mode Pay button: the same fulfilment as a paid Stripe webhook. Returns where to go next. */
  async payTestCheckout(sessionId: string): Promise<string> {
    const { session, change } = await withTransaction(this.db, async (trx) => {
      const { session } = await this.findTestSession(trx, sessionId);
      return { session, change: await this.#fulfilment.fulfil(trx, session.id, null) };
    });
    if (change?.changed) await this.publishCredits(change);
    return session.success_url;
  }

  async cancelTestCheckout(sessionId: string): Promise<string> {
    return withTransaction(this.db, async (trx) => {
      const { session } = await this.findTestSession(trx, sessionId);
      await this.#repo.closeUnfulfilled(trx, session.id, 'canceled', nowIso());
      return session.cancel_url;
    });
  }

  private async findTestSession(trx: Trx, sessionId: string): Promise<TestCheckoutView> {
    if (this.provider.kind !== 'test')
      throw new NotFoundError('Test-mode checkout is off: this server uses Stripe.');
    const session = await this.#repo.findSession(trx, sessionId, true);
    const pack = session ? findPack(session.pack_key) : undefined;
    if (!session || session.mode !== 'test' || !pack) throw new NotFoundError('Checkout session not found');
    return { session, pack };
  }

  private async applyEvent(
    trx: Trx,
    event: StripeEvent,
  ): Promise<{ outcome: WebhookResult['outcome']; change: CreditChangeOutcome | null }> {
    const ignored = { outcome: 'ignored' as const, change: null };
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object as StripeSessionObject;
        // A completed session with a delayed payment method is not paid yet: its async event will follow.
        if (session.payment_status !== 'paid') return ignored;
        if (!(await this.adoptStripeSession(trx, session))) return ignored;
        const change = await this.#fulfilment.fulfil(trx, session.id, idOf(session.payment_intent));
        return { outcome: 'processed', change };
      }
      case 'checkout.session.async_payment_failed':
      case 'checkout.session.expired': {
        const session = event.data.object as StripeSessionObject;
        const status = event.type === 'checkout.session.expired' ? 'expired' : 'failed';
        await this.#repo.closeUnfulfilled(trx, session.id, status, nowIso());
        return { outcome: 'processed', change: null };
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const paymentIntentId = idOf(charge.payment_intent);
        if (!paymentIntentId) return ignored;
        const change = await this.#fulfilment.reverse(trx, {
          paymentIntentId,
          reason: 'refund',
          amountCents: charge.amount_refunded,
          reference: `refund:${charge.id}:${charge.amount_refunded}`,
        });
        return change === 'pending' ? this.held(event, paymentIntentId) : { outcome: 'processed', change };
      }
      case 'charge.dispute.created': {
        const dispute = event.data.object;
        const paymentIntentId = idOf(dispute.payment_intent);
        if (!paymentIntentId) return ignored;
        const change = await this.#fulfilment.reverse(trx, {
          paymentIntentId,
          reason: 'dispute',
          amountCents: dispute.amount,
          reference: `refund:${dispute.id}`,
        });
        return change === 'pending' ? this.held(event, paymentIntentId) : { outcome: 'processed', change };
      }
      default:
        return ignored;
    }
  }

  /** A refund or dispute of a payment not fulfilled here (yet): kept, and applied if the payment is. */
  private held(event: StripeEvent, paymentIntentId: string) {
    this.log.warn(
      `Stripe ${event.type} ${event.id}: no fulfilled checkout session has payment ${paymentIntentId} yet; ` +
        'kept until it is fulfilled',
    );
    return { outcome: 'processed' as const, change: null };
  }

  /**
   * Makes sure a paid Stripe session is in our table. Normally it is (stored at creation); if not (created by
   * another deployment of the same account, or the row was lost), it is rebuilt from the signed metadata.
   */
  private async adoptStripeSession(trx: Trx, session: StripeSessionObject): Promise<boolean> {
    if (await this.#repo.findSession(trx, session.id)) return true;
    const metadata = session.metadata ?? {};
    const pack = findPack(metadata.pack_key ?? '');
    const userId = metadata.user_id ?? '';
    if (
      !pack ||
      String(pack.credits) !== metadata.credits ||
      !(await this.#repo.findUserEmail(trx, userId))
    ) {
      this.log.warn(`Stripe checkout session ${session.id} has no matching user or pack; no credits granted`);
      return false;
    }
    const now = nowIso();
    await this.#repo.insertSession(trx, {
      ...this.sessionRow(
        userId,
        pack,
        session.id,
        'stripe',
        session.success_url ?? '',
        session.cancel_url ?? '',
        now,
      ),
      amount_cents: session.amount_total ?? pack.priceCents,
    });
    return true;
  }

  private async customerFor(gateway: StripeGateway, user: BillingUser): Promise<string> {
    const stored = await withTransaction(this.db, (trx) => this.#repo.findCustomerId(trx, user.id));
    if (stored) return stored;
    const created = await gateway.createCustomer(user);
    return withTransaction(this.db, (trx) => this.#repo.saveCustomerId(trx, user.id, created, nowIso()));
  }

  private async storeSession(
    userId: string,
    pack: CreditPack,
    id: string,
    mode: CheckoutMode,
    successUrl: string,
    cancelUrl: string,
  ): Promise<void> {
    const row = this.sessionRow(userId, pack, id, mode, successUrl, cancelUrl, nowIso());
    await withTransaction(this.db, (trx) => this.#repo.insertSession(trx, row));
  }

  private sessionRow(
    userId: string,
    pack: CreditPack,
    id: string,
    mode: CheckoutMode,
    successUrl: string,
    cancelUrl: string,
    now: string,
  ): CheckoutSessionRow {
    return {
      id,
      user_id: userId,
      pack_key: pack.key,
      credits: pack.credits,
      amount_cents: pack.priceCents,
      currency: CURRENCY.toLowerCase(),
      mode,
      status: 'open',
      payment_intent_id: null,
      refunded_cents: 0,
      disputed_cents: 0,
      credits_reversed: 0,
      success_url: successUrl,
      cancel_url: cancelUrl,
      created_at: now,
      updated_at: now,
      fulfilled_at: null,
    };
  }

  private async publishCredits(change: CreditChangeOutcome): Promise<void> {
    await this.eventBus.publish(change.userId, {
      type: 'credits.updated',
      credits_remaining: change.balance,
    });
  }
}
