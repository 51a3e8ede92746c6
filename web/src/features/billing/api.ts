import { CURRENCY, type PackKey } from '@folio/shared';
import { getApi, unwrap } from '../../api/client.js';

/** Creates a checkout session for a credit pack and returns the payment page's address. */
export async function createCheckoutSession(packKey: PackKey): Promise<string> {
  const { url } = await unwrap(
    getApi().POST('/billing/checkout/session', { body: { packKey, currency: CURRENCY } }),
  );
  return url;
}
