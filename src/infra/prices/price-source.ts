import type { ValueEstimate } from '../../contracts/grading.ts';
import type { CardmarketPrices } from '../../domain/cards/index.ts';

// Where a card's market value comes from (DESIGN.md §8: no invented prices): a port with two adapters, the public
// Pokémon TCG API (TCGplayer and Cardmarket prices, by catalogue id) and none. A price always names its source, what
// it is and the day its source updated it; when there is none, the reason is given instead, never a figure.

export interface MarketPrice {
  /** In the currency's smallest unit (cents). */
  amount: number;
  currency: 'USD' | 'EUR';
  /** What the figure is and where from: "TCGplayer market, Near Mint". */
  kind: string;
  /** YYYY-MM-DD: when the source last updated it. */
  updatedOn: string;
  /** The printing priced: "holofoil", "normal", "1stEditionHolofoil". */
  printing: string | null;
  /** Cardmarket's trend and 30-day average in euros, with their own day, when the source lists them; else null. */
  cardmarket: CardmarketPrices | null;
}

export type PriceLookup = { ok: true; price: MarketPrice } | { ok: false; reason: string };

/** The card as the price source needs it: its catalogue id, and its printed rarity to choose the printing. */
export interface PricedCard {
  catalogId: string;
  rarity: string | null;
}

export interface PriceSource {
  readonly name: 'pokemontcg' | 'none';
  priceOf(card: PricedCard): Promise<PriceLookup>;
}

const formatAmount = (amount: number) => (amount / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "$12.34" with its label "TCGplayer market, Near Mint, 2026-11-20": SPEC.md §9's parsing finds 12.34 in the text. */
export function priceEstimate(price: MarketPrice): ValueEstimate {
  const symbol = price.currency === 'USD' ? '$' : '€';
  return { text: `${symbol}${formatAmount(price.amount)}`, label: `${price.kind}, ${price.updatedOn}` };
}

export { unavailableEstimate } from '../../domain/cards/index.ts';

export const noPriceSource: PriceSource = {
  name: 'none',
  priceOf: async () => ({ ok: false, reason: 'no price source is configured' }),
};
