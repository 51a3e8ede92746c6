// The Stripe adapter: the only file that talks to Stripe. STRIPE_API_BASE points the SDK at another host
// speaking Stripe's protocol (the tests' local server); webhooks are verified with the SDK's signature check.
import Stripe from 'stripe';
import { BadRequestError, HttpError } from '../errors.js';

export interface CheckoutRequest {
  customerId: string;
  userId: string;
  productName: string;
  productDescription: string;
  unitAmountCents: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
  metadata: Record<string, string>;
}

export interface StripeGatewayOptions {
  secretKey: string;
  webhookSecret: string;
  /** e.g. http://127.0.0.1:12111; empty = Stripe itself. */
  apiBase: string;
}

export type StripeEvent = Stripe.Event;

/** Stripe refused or could not be reached: a bad gateway for our client, with Stripe's reason. */
export class PaymentProviderError extends HttpError {
  override name = 'PaymentProviderError';
  constructor(action: string, cause: unknown) {
    super(502, `Stripe could not ${action}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

async function call<T>(action: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw new PaymentProviderError(action, error);
  }
}

function sdkConnection(apiBase: string): Stripe.StripeConfig {
  if (apiBase === '') return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const port = url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port);
  return { host: url.hostname, port, protocol };
}

export class StripeGateway {
  readonly #stripe: Stripe;
  readonly #webhookSecret: string;

  constructor(options: StripeGatewayOptions) {
    this.#stripe = new Stripe(options.secretKey, {
      ...sdkConnection(options.apiBase),
      maxNetworkRetries: 2,
      telemetry: false,
    });
    this.#webhookSecret = options.webhookSecret;
  }

  get webhooksConfigured(): boolean {
    return this.#webhookSecret !== '';
  }

  async createCustomer(user: { id: string; email: string; name: string }): Promise<string> {
    // The idempotency key makes two concurrent first checkouts of one user end with one customer.
    const customer = await call('create the customer', () =>
      this.#stripe.customers.create(
        { email: user.email, name: user.name, metadata: { user_id: user.id } },
        { idempotencyKey: `folio-customer-${user.id}` },
      ),
    );
    return customer.id;
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<{ id: string; url: string }> {
    const session = await call('create the checkout session', () =>
      this.#stripe.checkout.sessions.create({
        mode: 'payment',
        customer: request.customerId,
        client_reference_id: request.userId,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.currency,
              unit_amount: request.unitAmountCents,
              product_data: { name: request.productName, description: request.productDescription },
            },
          },
        ],
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        metadata: request.metadata,
        payment_intent_data: { metadata: request.metadata },
      }),
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
    return { id: session.id, url: session.url };
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<string> {
    const session = await this.#stripe.billingPortal.sessions.create({
      customer: customerId,
      return_url: returnUrl,
    });
    return session.url;
  }

  /** Verifies the Stripe-Signature header over the exact raw bytes (default tolerance 300 s). */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): StripeEvent {
    if (!signature) throw new BadRequestError('Missing Stripe-Signature header');
    try {
      return this.#stripe.webhooks.constructEvent(rawBody, signature, this.#webhookSecret);
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : 'invalid signature';
      throw new BadRequestError(`Invalid Stripe webhook signature: ${reason}`);
    }
  }
}
