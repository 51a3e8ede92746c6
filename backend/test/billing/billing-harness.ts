// A real app wired to the local Stripe protocol server: checkout sessions are created through the real
// `stripe` SDK, and webhook events are signed exactly as Stripe signs them.
import type { LightMyRequestResponse } from 'fastify';
import { withTransaction } from '../../src/db/transaction.js';
import { signInRegistered, type SignedIn } from '../helpers/auth.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { StripeProtocolServer, type StripeEvent } from '../helpers/stripe-server.js';

export const PUBLIC_BASE_URL = 'http://folio.localhost:8000';

export interface BillingHarness {
  stripe: StripeProtocolServer;
  testApp: TestApp;
  close(): Promise<void>;
}

export async function createStripeHarness(env: Record<string, string> = {}): Promise<BillingHarness> {
  const stripe = await new StripeProtocolServer().start();
  const testApp = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.apiBase,
      PUBLIC_BASE_URL,
      ...env,
    },
  });
  return {
    stripe,
    testApp,
    async close() {
      await testApp.close();
      await stripe.stop();
    },
  };
}

export async function checkout(
  testApp: TestApp,
  user: SignedIn,
  packKey: string,
  currency = 'USD',
): Promise<LightMyRequestResponse> {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/v1/billing/checkout/session',
    headers: user.headers,
    payload: { packKey, currency },
  });
}

/** Starts a checkout through the API and answers the id of the Stripe session it created. */
export async function startPurchase(
  harness: BillingHarness,
  user: SignedIn,
  packKey: string,
): Promise<string> {
  const response = await checkout(harness.testApp, user, packKey);
  if (response.statusCode !== 200)
    throw new Error(`checkout failed: ${response.statusCode} ${response.body}`);
  const { url } = response.json<{ url: string }>();
  const id = url.split('/').pop();
  if (!id || !harness.stripe.sessions.has(id)) throw new Error(`checkout url ${url} names no Stripe session`);
  return id;
}

/** Posts a signed event to the webhook route, as Stripe would. */
export async function sendEvent(
  harness: BillingHarness,
  event: StripeEvent | string,
  options: { secret?: string; timestamp?: number; tamper?: (payload: string) => string } = {},
): Promise<LightMyRequestResponse> {
  const signed = harness.stripe.sign(event, options);
  return harness.testApp.app.inject({
    method: 'POST',
    url: '/api/v1/billing/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signed.signature },
    payload: options.tamper ? options.tamper(signed.payload) : signed.payload,
  });
}

export async function me(
  testApp: TestApp,
  user: SignedIn,
): Promise<{ credits_remaining: number; purchase_tier: string }> {
  const response = await testApp.app.inject({
    method: 'GET',
    url: '/api/v1/users/me',
    headers: user.headers,
  });
  if (response.statusCode !== 200)
    throw new Error(`users/me failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** Spends credits the way a restoration does (through the ledger). */
export async function spend(
  testApp: TestApp,
  user: SignedIn,
  credits: number,
  reference: string,
): Promise<void> {
  await withTransaction(testApp.database.db, (trx) =>
    testApp.app.services.credits.apply(trx, {
      userId: user.userId,
      delta: -credits,
      reason: 'test',
      reference,
    }),
  );
}

export async function ledgerReferences(testApp: TestApp, user: SignedIn): Promise<string[]> {
  const rows = await testApp.database.db
    .selectFrom('credit_ledger')
    .select(['reference', 'delta'])
    .where('user_id', '=', user.userId)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => `${row.reference} ${row.delta > 0 ? '+' : ''}${row.delta}`);
}

export async function creditsOwed(testApp: TestApp, user: SignedIn): Promise<number> {
  const row = await testApp.database.db
    .selectFrom('credit_debts')
    .select('credits_owed')
    .where('user_id', '=', user.userId)
    .executeTakeFirst();
  return row?.credits_owed ?? 0;
}

export { signInRegistered };
