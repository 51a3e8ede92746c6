import { CURRENCY, type PackKey } from '@folio/shared';
import type { Client } from 'openapi-fetch';
import { getApi, unwrap } from '../../api/client.js';

// The billing routes are not yet in backend/openapi.json; this mirrors their documented shape
// (spec §7) until `npm run api:generate` picks them up.
interface BillingPaths {
  '/billing/checkout/session': {
    post: {
      requestBody: { content: { 'application/json': { packKey: PackKey; currency: string } } };
      responses: {
        200: { content: { 'application/json': { url: string } } };
        default: { content: { 'application/json': { detail: string } } };
      };
    };
  };
}

const api = (): Client<BillingPaths> => getApi() as unknown as Client<BillingPaths>;

/** Creates a checkout session for a credit pack and returns the payment page's address. */
export async function createCheckoutSession(packKey: PackKey): Promise<string> {
  const { url } = await unwrap(
    api().POST('/billing/checkout/session', { body: { packKey, currency: CURRENCY } }),
  );
  return url;
}
