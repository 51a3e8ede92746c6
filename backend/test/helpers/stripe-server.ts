// A local HTTP server that speaks the part of Stripe's REST protocol Folio uses (form-encoded POST
// /v1/customers, /v1/checkout/sessions, /v1/billing_portal/sessions), so billing tests run the real `stripe`
// SDK against the network edge. It records every request for assertions and can play Stripe's side of a
// payment: complete a session, refund or dispute its charge, and deliver the signed webhook events.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export interface RecordedRequest {
  method: string;
  path: string;
  params: FormObject;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
}

export interface StripeCheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  customer: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  amount_total: number;
  currency: string;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  url: string | null;
  created: number;
  livemode: false;
}

export interface StripeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  currency: string;
  customer: string | null;
  payment_intent: string;
  refunded: boolean;
  created: number;
  livemode: false;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  data: { object: object };
}

const sdk = new Stripe('sk_test_signer_only');

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Decodes Stripe's bracket notation (`metadata[user_id]=…`, `line_items[0][quantity]=1`) into objects. */
export function parseStripeForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.split('[').map((part, index) => (index === 0 ? part : part.replace(/\]$/, '')));
    let node: FormObject | FormValue[] = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const key: string | number = Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, FormValue>;
      if (last) {
        container[key] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(parts[index + 1] ?? '');
      container[key] ??= nextIsIndex ? [] : {};
      node = container[key] as FormObject | FormValue[];
    });
  }
  return root;
}

function str(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function obj(value: FormValue | undefined): FormObject {
  return value !== undefined && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export class StripeProtocolServer {
  readonly requests: RecordedRequest[] = [];
  readonly customers = new Map<
    string,
    { id: string; email: string | null; metadata: Record<string, string> }
  >();
  readonly sessions = new Map<string, StripeCheckoutSession>();
  readonly charges = new Map<string, StripeCharge>();
  /** Set to make the next API call fail the way Stripe reports an outage. */
  failNextWith: { status: number; message: string } | null = null;
  private server: Server | null = null;
  private baseUrl = '';

  constructor(
    readonly secretKey = 'sk_test_folio_local',
    readonly webhookSecret = 'whsec_folio_local_test_secret',
  ) {}

  /** The STRIPE_API_BASE value that points the SDK here. */
  get apiBase(): string {
    return this.baseUrl;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      void this.handle(request, response);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', this.baseUrl);
    const params = parseStripeForm(Buffer.concat(chunks).toString('utf8'));
    const header = (name: string): string | undefined => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    this.requests.push({
      method: request.method ?? '',
      path: url.pathname,
      params,
      authorization: header('authorization'),
      idempotencyKey: header('idempotency-key'),
    });
    try {
      if (header('authorization') !== `Bearer ${this.secretKey}`) {
        throw new StripeApiError(401, 'Invalid API Key provided');
      }
      if (this.failNextWith) {
        const failure = this.failNextWith;
        this.failNextWith = null;
        throw new StripeApiError(failure.status, failure.message);
      }
      const body = this.route(request.method ?? '', url.pathname, params, header('idempotency-key'));
      response.writeHead(200, { 'content-type': 'application/json', 'request-id': newId('req') });
      response.end(JSON.stringify(body));
    } catch (error) {
      const apiError = error instanceof StripeApiError ? error : new StripeApiError(500, String(error));
      response.writeHead(apiError.status, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: {
            type: apiError.status >= 500 ? 'api_error' : 'invalid_request_error',
            message: apiError.message,
            param: apiError.param,
          },
        }),
      );
    }
  }

  private readonly idempotent = new Map<string, object>();

  private route(
    method: string,
    path: string,
    params: FormObject,
    idempotencyKey: string | undefined,
  ): object {
    if (method !== 'POST') throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path})`);
    const cacheKey = idempotencyKey ? `${path}:${idempotencyKey}` : undefined;
    const cached = cacheKey ? this.idempotent.get(cacheKey) : undefined;
    if (cached) return cached;
    let result: object;
    if (path === '/v1/customers') result = this.createCustomer(params);
    else if (path === '/v1/checkout/sessions') result = this.createSession(params);
    else if (path === '/v1/billing_portal/sessions') result = this.createPortalSession(params);
    else throw new StripeApiError(404, `Unrecognized request URL (POST: ${path})`);
    if (cacheKey) this.idempotent.set(cacheKey, result);
    return result;
  }

  private createCustomer(params: FormObject): object {
    const customer = {
      id: newId('cus'),
      email: str(params.email) ?? null,
      metadata: obj(params.metadata) as Record<string, string>,
    };
    this.customers.set(customer.id, customer);
    return { object: 'customer', created: nowSeconds(), livemode: false, ...customer };
  }

  private createSession(params: FormObject): StripeCheckoutSession {
    const successUrl = str(params.success_url);
    const cancelUrl = str(params.cancel_url);
    if (!successUrl) throw new StripeApiError(400, 'Missing required param: success_url.', 'success_url');
    if (str(params.mode) !== 'payment')
      throw new StripeApiError(400, 'Only payment mode is served here.', 'mode');
    const items = Array.isArray(params.line_items) ? params.line_items : [];
    if (items.length === 0)
      throw new StripeApiError(400, 'Missing required param: line_items.', 'line_items');
    let amount = 0;
    let currency = '';
    for (const item of items) {
      const line = obj(item);
      const priceData = obj(line.price_data);
      const unit = Number(str(priceData.unit_amount));
      const quantity = Number(str(line.quantity) ?? '1');
      if (!Number.isInteger(unit) || unit <= 0) {
        throw new StripeApiError(
          400,
          'Invalid integer: unit_amount',
          'line_items[0][price_data][unit_amount]',
        );
      }
      amount += unit * quantity;
      currency = str(priceData.currency) ?? '';
    }
    const customer = str(params.customer) ?? null;
    if (customer && !this.customers.has(customer)) {
      throw new StripeApiError(400, `No such customer: '${customer}'`, 'customer');
    }
    const id = newId('cs_test');
    const session: StripeCheckoutSession = {
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      customer,
      client_reference_id: str(params.client_reference_id) ?? null,
      metadata: obj(params.metadata) as Record<string, string>,
      amount_total: amount,
      currency,
      payment_intent: null,
      success_url: successUrl.replace('{CHECKOUT_SESSION_ID}', id),
      cancel_url: cancelUrl ?? '',
      url: `${this.baseUrl}/c/pay/${id}`,
      created: nowSeconds(),
      livemode: false,
    };
    this.sessions.set(id, session);
    return session;
  }

  private createPortalSession(params: FormObject): object {
    const customer = str(params.customer);
    if (!customer) throw new StripeApiError(400, 'Missing required param: customer.', 'customer');
    if (!this.customers.has(customer))
      throw new StripeApiError(400, `No such customer: '${customer}'`, 'customer');
    const id = newId('bps');
    return {
      id,
      object: 'billing_portal.session',
      customer,
      return_url: str(params.return_url) ?? null,
      url: `${this.baseUrl}/p/session/${id}`,
      created: nowSeconds(),
      livemode: false,
    };
  }

  // ---- Stripe's side of a payment: state changes and the events they emit ----

  private session(id: string): StripeCheckoutSession {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`unknown checkout session ${id}`);
    return session;
  }

  event(type: string, object: object): StripeEvent {
    return {
      id: newId('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: nowSeconds(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: structuredClone(object) },
    };
  }

  /** The customer finished the Checkout page; card payments are paid at once, bank debits later. */
  completeSession(id: string, paymentStatus: 'paid' | 'unpaid' = 'paid'): StripeEvent {
    const session = this.session(id);
    session.status = 'complete';
    session.payment_status = paymentStatus;
    session.payment_intent ??= newId('pi');
    session.url = null;
    return this.event('checkout.session.completed', session);
  }

  asyncPaymentSucceeded(id: string): StripeEvent {
    const session = this.session(id);
    session.payment_status = 'paid';
    session.payment_intent ??= newId('pi');
    return this.event('checkout.session.async_payment_succeeded', session);
  }

  asyncPaymentFailed(id: string): StripeEvent {
    const session = this.session(id);
    session.payment_status = 'unpaid';
    return this.event('checkout.session.async_payment_failed', session);
  }

  /** The charge behind a paid session (created on first use). */
  chargeFor(sessionId: string): StripeCharge {
    const session = this.session(sessionId);
    if (!session.payment_intent) throw new Error(`session ${sessionId} has no payment yet`);
    const existing = [...this.charges.values()].find(
      (charge) => charge.payment_intent === session.payment_intent,
    );
    if (existing) return existing;
    const charge: StripeCharge = {
      id: newId('ch'),
      object: 'charge',
      amount: session.amount_total,
      amount_refunded: 0,
      currency: session.currency,
      customer: session.customer,
      payment_intent: session.payment_intent,
      refunded: false,
      created: nowSeconds(),
      livemode: false,
    };
    this.charges.set(charge.id, charge);
    return charge;
  }

  /** Refunds `amountCents` more of the session's charge (cumulative, as Stripe reports it). */
  refund(sessionId: string, amountCents: number): StripeEvent {
    const charge = this.chargeFor(sessionId);
    charge.amount_refunded = Math.min(charge.amount, charge.amount_refunded + amountCents);
    charge.refunded = charge.amount_refunded === charge.amount;
    return this.event('charge.refunded', charge);
  }

  dispute(sessionId: string, amountCents?: number): StripeEvent {
    const charge = this.chargeFor(sessionId);
    return this.event('charge.dispute.created', {
      id: newId('dp'),
      object: 'dispute',
      amount: amountCents ?? charge.amount,
      charge: charge.id,
      currency: charge.currency,
      payment_intent: charge.payment_intent,
      reason: 'fraudulent',
      status: 'needs_response',
      created: nowSeconds(),
      livemode: false,
    });
  }

  /** The exact bytes and Stripe-Signature header Stripe would send for `event`. */
  sign(event: StripeEvent | string, options: { secret?: string; timestamp?: number } = {}) {
    const payload = typeof event === 'string' ? event : JSON.stringify(event, null, 2);
    const signature = sdk.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? this.webhookSecret,
      ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
    });
    return { payload, signature };
  }

  /** Delivers `event` to a webhook endpoint over real HTTP, like Stripe does. */
  async deliver(endpoint: string, event: StripeEvent): Promise<{ status: number; body: string }> {
    const { payload, signature } = this.sign(event);
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      body: payload,
    });
    return { status: response.status, body: await response.text() };
  }
}
