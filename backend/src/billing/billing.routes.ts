// Billing routes: /api/v1/billing/* (checkout, portal, Stripe webhook) and the test-mode checkout pages at
// /billing/test-checkout/* (browser pages, no token: the unguessable session id is the capability).
import type { FastifyPluginAsyncTypebox, FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { ErrorSchema } from '../auth/auth.schemas.js';
import { HttpError } from '../errors.js';
import { createBillingService, type BillingDependencies } from './billing.module.js';
import {
  CheckoutSessionBody,
  PortalSessionSchema,
  RedirectUrlSchema,
  TestCheckoutParams,
  WebhookResultSchema,
} from './billing.schemas.js';
import { TEST_CHECKOUT_PATH, type BillingService } from './billing.service.js';
import { renderTestCheckoutError, renderTestCheckoutPage } from './test-checkout-page.js';

const billingApiRoutes: FastifyPluginAsyncTypebox<{ billing: BillingService }> = async (app, { billing }) => {
  app.post(
    '/checkout/session',
    {
      schema: {
        operationId: 'createCheckoutSession',
        tags: ['billing'],
        summary: 'Start buying a credit package; the browser goes to the returned url',
        body: CheckoutSessionBody,
        response: { 200: RedirectUrlSchema, 400: ErrorSchema, 401: ErrorSchema, 503: ErrorSchema },
      },
    },
    (request) => billing.createCheckoutSession(request.user, request.body.packKey, request.body.currency),
  );

  app.post(
    '/portal/session',
    {
      schema: {
        operationId: 'createPortalSession',
        tags: ['billing'],
        summary: 'Open the Stripe customer portal (404 until the user has bought a pack)',
        response: { 200: PortalSessionSchema, 401: ErrorSchema, 404: ErrorSchema, 503: ErrorSchema },
      },
    },
    (request) => billing.createPortalSession(request.user.id),
  );

  // The signature covers the exact bytes Stripe sent, so this route alone keeps JSON bodies raw.
  await app.register((webhook, _options, done) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    webhook.post(
      '/webhook',
      {
        config: { public: true },
        schema: {
          operationId: 'stripeWebhook',
          tags: ['billing'],
          summary: 'Stripe webhook endpoint (signed with STRIPE_WEBHOOK_SECRET)',
          response: { 200: WebhookResultSchema, 400: ErrorSchema, 503: ErrorSchema },
        },
      },
      (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        return billing.handleWebhook(body, Array.isArray(signature) ? signature[0] : signature);
      },
    );
    done();
  });
};

const testCheckoutRoutes: FastifyPluginCallbackTypebox<{ billing: BillingService }> = (
  app,
  { billing },
  done,
) => {
  // The page's forms post urlencoded bodies with no fields; the action is in the URL.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );

  const page = async (reply: FastifyReply, render: () => Promise<string>) => {
    try {
      return await reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(await render());
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return reply
        .status(error.statusCode)
        .type('text/html; charset=utf-8')
        .send(renderTestCheckoutError(error.detail));
    }
  };
  const redirect = async (reply: FastifyReply, next: () => Promise<string>) => {
    try {
      return reply.redirect(await next(), 303);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return reply
        .status(error.statusCode)
        .type('text/html; charset=utf-8')
        .send(renderTestCheckoutError(error.detail));
    }
  };

  app.get('/:sessionId', { schema: { hide: true, params: TestCheckoutParams } }, (request, reply) =>
    page(reply, async () => {
      const { session, pack } = await billing.testCheckout(request.params.sessionId);
      return renderTestCheckoutPage({
        sessionId: session.id,
        pack,
        status: session.status,
        actionBase: TEST_CHECKOUT_PATH,
      });
    }),
  );
  app.post('/:sessionId/pay', { schema: { hide: true, params: TestCheckoutParams } }, (request, reply) =>
    redirect(reply, () => billing.payTestCheckout(request.params.sessionId)),
  );
  app.post('/:sessionId/cancel', { schema: { hide: true, params: TestCheckoutParams } }, (request, reply) =>
    redirect(reply, () => billing.cancelTestCheckout(request.params.sessionId)),
  );
  done();
};

/** Registered once at the root of the app (not under the /api/v1 prefix: it serves both trees). */
export const billingRoutes: FastifyPluginAsyncTypebox<BillingDependencies> = async (app, dependencies) => {
  const billing = createBillingService({
    log: { warn: (message) => app.log.warn(message) },
    ...dependencies,
  });
  await app.register(billingApiRoutes, { prefix: '/api/v1/billing', billing });
  await app.register(testCheckoutRoutes, { prefix: TEST_CHECKOUT_PATH, billing });
};
