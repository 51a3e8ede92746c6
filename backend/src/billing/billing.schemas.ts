import { Type } from '@fastify/type-provider-typebox';
import { CREDIT_PACKS, CURRENCY } from '@folio/shared';

export const CheckoutSessionBody = Type.Object(
  {
    packKey: Type.String({
      minLength: 1,
      description: `Credit package key: ${CREDIT_PACKS.map((pack) => pack.key).join(', ')}`,
      examples: ['power100'],
    }),
    currency: Type.String({ minLength: 1, description: `Only ${CURRENCY}`, examples: [CURRENCY] }),
  },
  { title: 'CheckoutSessionRequest' },
);

export const RedirectUrlSchema = Type.Object(
  { url: Type.String({ description: 'Where the browser goes next' }) },
  { title: 'CheckoutSessionResponse' },
);

export const WebhookResultSchema = Type.Object(
  {
    received: Type.Boolean(),
    outcome: Type.Union([Type.Literal('processed'), Type.Literal('duplicate'), Type.Literal('ignored')]),
  },
  { title: 'WebhookResult' },
);

export const TestCheckoutParams = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 200 }) });

export const PortalSessionSchema = Type.Object(
  { url: Type.String({ description: 'The Stripe customer portal' }) },
  { title: 'PortalSessionResponse' },
);
