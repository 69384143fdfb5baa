import { NOT_AVAILABLE, type Identification, type ValueEstimate } from '../../contracts/grading.ts';
import { formatUsd } from '../../contracts/money.ts';
import type { CardmarketPrices, GradedValues } from './events.ts';

// Prices (DESIGN.md §8): no invented prices. A card has a value only where someone who can be named
// gave one (the configured vision model's estimate, labelled as such); otherwise the card shows 'N/A'
// and no price is recorded.

const amountPattern = /^\$?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)$/;

/**
 * The price in an estimatedValue text, SPEC.md §9: the number in its first space-separated token.
 * "$1,234.50 (Estimate by …)" is 1234.5; 'N/A', a range ("$30-$50") or anything else is no price.
 */
export function priceFromText(text: string | null | undefined): number | null {
  const firstToken = (text ?? '').trim().split(/\s+/)[0] ?? '';
  const match = amountPattern.exec(firstToken);
  return match ? Number(match[1]!.replaceAll(',', '')) : null;
}

/** The value to record for a newly graded card, or null when nobody named gave one. */
export function knownPrice(identification: Identification): { priceValue: number; source: string } | null {
  const estimate = identification.estimatedValue;
  if (!estimate) return null;
  const priceValue = priceFromText(estimate.text);
  return priceValue === null ? null : { priceValue, source: estimate.label };
}

/** No figure, and why: shown as "N/A (no market price: …)". */
export function unavailableEstimate(reason: string): ValueEstimate {
  return { text: NOT_AVAILABLE, label: `no market price: ${reason}` };
}

const euros = (cents: number) => `€${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** "Cardmarket trend €4.20, 30-day average €4.00, 2026-11-19": the euro figures as shown beside a price. */
export function describeCardmarketPrices(prices: CardmarketPrices): string {
  const figures = [prices.trendCents === null ? null : `trend ${euros(prices.trendCents)}`, prices.avg30Cents === null ? null : `30-day average ${euros(prices.avg30Cents)}`];
  return `Cardmarket ${figures.filter((figure) => figure !== null).join(', ')}, ${prices.updatedOn}`;
}

/** "by grade from PriceCharting, USD, 2026-11-28: Grade 9 $90.00, PSA 10 $520.00": the values by grade as a line. */
export function describeGradedValues(graded: GradedValues): string {
  return `by grade from ${graded.source}, ${graded.currency}, ${graded.asOf}: ${graded.grades.map((figure) => `${figure.label} ${formatUsd(figure.cents)}`).join(', ')}`;
}
