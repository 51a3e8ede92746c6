// Credit packs of spec §9. Prices are in USD cents to keep money exact.
export type PackKey = 'essential10' | 'power100' | 'ultimate500';
export type PurchaseTier = 'standard' | 'priority' | 'highest_priority';

export interface CreditPack {
  key: PackKey;
  name: string;
  priceCents: number;
  credits: number;
  popular: boolean;
  tier: PurchaseTier;
}

export const CREDIT_PACKS: readonly CreditPack[] = [
  {
    key: 'essential10',
    name: 'Essential 10',
    priceCents: 799,
    credits: 10,
    popular: false,
    tier: 'standard',
  },
  { key: 'power100', name: 'Power 100', priceCents: 5999, credits: 100, popular: true, tier: 'priority' },
  {
    key: 'ultimate500',
    name: 'Ultimate 500',
    priceCents: 24999,
    credits: 500,
    popular: false,
    tier: 'highest_priority',
  },
];

export const DEFAULT_PACK_KEY: PackKey = 'essential10';
export const CURRENCY = 'USD';

export function findPack(key: string): CreditPack | undefined {
  return CREDIT_PACKS.find((pack) => pack.key === key);
}

/** Higher number = served first by the job queue. */
export const TIER_PRIORITY: Record<PurchaseTier, number> = { standard: 0, priority: 1, highest_priority: 2 };
