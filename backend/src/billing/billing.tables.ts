// Tables of the billing domain (migrations 004_billing, 005_payment_reversals), part of the Database type in db/schema.ts.

/** One payment-provider customer per user, created on the first checkout and reused afterwards. */
export interface BillingCustomersTable {
  user_id: string;
  stripe_customer_id: string;
  created_at: string;
}

export type CheckoutMode = 'stripe' | 'test';
export type CheckoutStatus = 'open' | 'fulfilled' | 'canceled' | 'expired' | 'failed';

/** Every checkout session Folio created (or learnt about from a verified webhook). */
export interface CheckoutSessionsTable {
  id: string;
  user_id: string;
  pack_key: string;
  credits: number;
  amount_cents: number;
  currency: string;
  mode: CheckoutMode;
  status: CheckoutStatus;
  payment_intent_id: string | null;
  /** Money refunded so far (Stripe's cumulative `amount_refunded`), in cents. */
  refunded_cents: number;
  /** Money disputed so far (sum over disputes), in cents. */
  disputed_cents: number;
  /** Credits already taken back or recorded as owed for this session. */
  credits_reversed: number;
  success_url: string;
  cancel_url: string;
  created_at: string;
  updated_at: string;
  fulfilled_at: string | null;
}

/** Every verified webhook event, stored once: a replay of a stored id changes nothing. */
export interface BillingEventsTable {
  id: string;
  type: string;
  /** Stripe's `created` (seconds since epoch). */
  stripe_created: number;
  received_at: string;
}

/** Credits a refund or dispute could not take back because they were already spent. */
export interface CreditDebtsTable {
  user_id: string;
  credits_owed: number;
  updated_at: string;
}

export type ReversalReason = 'refund' | 'dispute';

/**
 * Every refund step and dispute, by its ledger reference (`refund:<charge id>:<cents refunded so far>`,
 * `refund:<dispute id>`). `applied_at` is null while its payment is not fulfilled here (the refund arrived
 * before the checkout's completion); fulfilment applies it then.
 */
export interface PaymentReversalsTable {
  reference: string;
  payment_intent_id: string;
  reason: ReversalReason;
  /** Refund: the charge's cumulative `amount_refunded`; dispute: the amount disputed. */
  amount_cents: number;
  received_at: string;
  applied_at: string | null;
}

export type BillingTables = {
  billing_customers: BillingCustomersTable;
  checkout_sessions: CheckoutSessionsTable;
  billing_events: BillingEventsTable;
  credit_debts: CreditDebtsTable;
  payment_reversals: PaymentReversalsTable;
};
