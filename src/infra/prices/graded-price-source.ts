import type { GradedPrices } from '../../contracts/worth-grading.ts';

// What a card sells for at each grade (issue 32 items 4 and 5): a port with two adapters, PriceCharting's API (when
// PRICECHARTING_TOKEN is set) and none. Every figure names its source, currency and day; when there is none, the
// reason is given instead, never a figure.

export type GradedPriceLookup = { ok: true; prices: GradedPrices } | { ok: false; reason: string };

/** The card as a per-grade source searches for it: what the catalogue knows of it. */
export interface GradedPricedCard {
  catalogId: string;
  name: string;
  set: string | null;
  number: string | null;
}

export interface GradedPriceSource {
  readonly name: 'pricecharting' | 'none';
  gradedPricesOf(card: GradedPricedCard): Promise<GradedPriceLookup>;
}

export const NO_GRADED_PRICE_SOURCE_REASON = 'No per-grade price source is configured (set PRICECHARTING_TOKEN to use PriceCharting), so only the grade odds are shown.';

export const noGradedPriceSource: GradedPriceSource = {
  name: 'none',
  gradedPricesOf: async () => ({ ok: false, reason: NO_GRADED_PRICE_SOURCE_REASON }),
};
