import { plainReason } from '../../contracts/errors.ts';
import type { Catalog } from '../../domain/catalog/index.ts';
import type { CardmarketPrices, GradedValues } from '../../domain/cards/index.ts';
import { priceEstimate, type GradedPriceSource, type PriceSource } from '../../infra/prices/index.ts';

// What a catalogue card is worth, as every price event records it (the daily refresh, a confirmed identification):
// both price ports asked at once. The value is the market's US dollar price (TCGplayer, by the Pokémon TCG API), else
// the per-grade source's ungraded price (PriceCharting's loose price), each labelled with its source and day; the
// values by grade go beside it when the per-grade source has them. The histories are kept in dollars, so a euro-only
// price is no value here, and values by grade with no dollar value beside them are not recorded either (a price event
// is a value first). When there is none, the reason is in plain words, for the collector to read.

export interface CatalogPricing {
  prices: PriceSource;
  gradedPrices: GradedPriceSource;
  catalog: Catalog;
}

export interface CatalogCardPrice {
  /** US dollars, and the same in cents. */
  priceValue: number;
  cents: number;
  /** Who says so, as shown beside the price: "TCGplayer market, Near Mint, 2026-11-20", "PriceCharting ungraded, 2026-11-28". */
  source: string;
  cardmarket?: CardmarketPrices;
  graded?: GradedValues;
}

export type CatalogCardPriceLookup = { ok: true; price: CatalogCardPrice } | { ok: false; reason: string };

/** Either price source being configured: without one there is nothing to refresh or to price a confirmation with. */
export const anyPriceSource = (pricing: Pick<CatalogPricing, 'prices' | 'gradedPrices'>) => pricing.prices.name !== 'none' || pricing.gradedPrices.name !== 'none';

export async function priceCatalogCard(pricing: CatalogPricing, catalogId: string): Promise<CatalogCardPriceLookup> {
  const card = pricing.catalog.byId(catalogId);
  if (!card) return { ok: false, reason: `the catalogue has no card ${catalogId}` };
  if (!anyPriceSource(pricing)) return { ok: false, reason: 'no price source is configured' };
  const [market, byGrade] = await Promise.all([
    pricing.prices.name === 'none' ? null : pricing.prices.priceOf({ catalogId, rarity: card.rarity }),
    pricing.gradedPrices.name === 'none' ? null : pricing.gradedPrices.gradedPricesOf({ catalogId, name: card.name, set: card.set.name, number: card.number }),
  ]);
  const listed = byGrade?.ok ? byGrade.prices : null;
  const graded: GradedValues | undefined =
    listed && listed.grades.length > 0
      ? { source: listed.source, currency: listed.currency, asOf: listed.asOf, product: listed.product, grades: listed.grades.map(({ label, grade, cents }) => ({ label, grade, cents })) }
      : undefined;
  const beside = graded ? { graded } : {};

  if (market?.ok && market.price.currency === 'USD') {
    const { amount, cardmarket } = market.price;
    return { ok: true, price: { priceValue: amount / 100, cents: amount, source: priceEstimate(market.price).label, ...(cardmarket ? { cardmarket } : {}), ...beside } };
  }
  if (listed?.raw) {
    const { cents } = listed.raw;
    return { ok: true, price: { priceValue: cents / 100, cents, source: `${listed.source} ungraded, ${listed.asOf}`, ...beside } };
  }
  const reasons = [
    market === null ? null : market.ok ? `only a price in ${market.price.currency === 'EUR' ? 'euros' : market.price.currency} is listed (${market.price.kind}), and values are kept in US dollars` : market.reason,
    byGrade === null ? null : byGrade.ok ? `${byGrade.prices.source} lists no ungraded price for it` : byGrade.reason,
  ];
  return { ok: false, reason: plainReason(reasons.filter((reason) => reason !== null).join('; ')) };
}

/** A price as the card's RecordCardPrice takes it (the grade and days beside it are the caller's). */
export function cardPrice({ priceValue, source, cardmarket, graded }: CatalogCardPrice) {
  return { priceValue, source, ...(cardmarket ? { cardmarket } : {}), ...(graded ? { graded } : {}) };
}

/** The same as a portfolio card's RefreshPortfolioCardPrice takes it, in cents. */
export function portfolioPrice({ cents, source, cardmarket, graded }: CatalogCardPrice) {
  return { cents, source, ...(cardmarket ? { cardmarket } : {}), ...(graded ? { graded } : {}) };
}
