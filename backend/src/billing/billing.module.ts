// Wiring of the billing domain: which payment provider the settings select, and the service built on it.
import { CreditsService } from '../credits/credits.service.js';
import type { Db } from '../db/database.js';
import type { EventBus } from '../realtime/event-bus.js';
import type { Settings } from '../settings.js';
import { BillingService, type PaymentProvider } from './billing.service.js';
import { StripeGateway } from './stripe-gateway.js';

export interface BillingDependencies {
  settings: Pick<
    Settings,
    'isProduction' | 'stripeSecretKey' | 'stripeWebhookSecret' | 'stripeApiBase' | 'publicBaseUrl'
  >;
  db: Db;
  eventBus: EventBus;
  credits?: CreditsService;
  log?: { warn: (message: string) => void };
}

/**
 * Stripe when STRIPE_SECRET_KEY is set; otherwise the test-mode checkout outside production, and 503 in
 * production. In production Stripe also needs STRIPE_WEBHOOK_SECRET before it takes money, since only
 * verified webhooks grant credits.
 */
export function selectPaymentProvider(settings: BillingDependencies['settings']): PaymentProvider {
  if (settings.stripeSecretKey !== '') {
    const gateway = new StripeGateway({
      secretKey: settings.stripeSecretKey,
      webhookSecret: settings.stripeWebhookSecret,
      apiBase: settings.stripeApiBase,
    });
    return { kind: 'stripe', gateway, requireWebhooks: settings.isProduction };
  }
  return settings.isProduction ? { kind: 'unconfigured' } : { kind: 'test' };
}

export function createBillingService(dependencies: BillingDependencies): BillingService {
  return new BillingService(
    dependencies.db,
    dependencies.credits ?? new CreditsService(),
    dependencies.eventBus,
    selectPaymentProvider(dependencies.settings),
    dependencies.settings.publicBaseUrl,
    dependencies.log,
  );
}
