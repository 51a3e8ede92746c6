// Display helpers for the credit packs of @folio/shared (spec §9), shared by the landing page and the modal.
import type { CreditPack, PurchaseTier } from '@folio/shared';

export function formatPrice(pack: CreditPack): string {
  return `$${(pack.priceCents / 100).toFixed(2)}`;
}

export function pricePerCredit(pack: CreditPack): string {
  return `$${(pack.priceCents / 100 / pack.credits).toFixed(2)} per page`;
}

/** Tier claims of spec §2 pricing. */
export const TIER_CLAIMS: Record<PurchaseTier, string[]> = {
  standard: ['Standard AI processing', 'Standard support'],
  priority: ['Priority AI processing', 'Priority support'],
  highest_priority: ['Highest priority AI processing', 'Highest priority support', 'Batch processing'],
};
