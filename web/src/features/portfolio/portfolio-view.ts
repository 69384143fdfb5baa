// Relative, not '@contracts': the unit tests import this module without the web app's aliases.
import { decimalToCents, gainLoss } from '../../../../src/contracts/money.ts';
import type { PortfolioCard } from '../../../../src/contracts/portfolio.ts';
import { z } from 'zod';

// What the portfolio screen shows of the list (SPEC.md §9 Portfolio): search over name, set, number and year, graded
// only, a sort, pages of 100, and the four summary figures in exact cents. Pure functions of the cards and the URL.

export const PAGE_SIZE = 100;

export const sortOptions = [
  { value: 'createdAt_desc', label: 'Date Added (Newest)' },
  { value: 'createdAt_asc', label: 'Date Added (Oldest)' },
  { value: 'currentPrice_desc', label: 'Price (High to Low)' },
  { value: 'currentPrice_asc', label: 'Price (Low to High)' },
  { value: 'cardName_asc', label: 'Name (A-Z)' },
  { value: 'cardName_desc', label: 'Name (Z-A)' },
] as const;
export type PortfolioSort = (typeof sortOptions)[number]['value'];
export const DEFAULT_SORT: PortfolioSort = 'createdAt_desc';

/** /portfolio's search params. */
export const portfolioSearchSchema = z.object({
  q: z.string().optional().catch(undefined),
  graded: z.literal(true).optional().catch(undefined),
  sort: z.enum(sortOptions.map((o) => o.value) as [PortfolioSort, ...PortfolioSort[]]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).optional().catch(undefined),
});
export type PortfolioSearch = z.infer<typeof portfolioSearchSchema>;

export const centsOf = (decimal: string | null) => (decimal === null ? null : decimalToCents(decimal));

export function filterPortfolio(cards: readonly PortfolioCard[], search: Pick<PortfolioSearch, 'q' | 'graded'>): PortfolioCard[] {
  const needle = search.q?.trim().toLowerCase() ?? '';
  return cards.filter((card) => {
    if (search.graded && !card.isGraded) return false;
    if (!needle) return true;
    return [card.cardName, card.cardSet, card.cardNumber, card.cardYear].some((text) => (text ?? '').toLowerCase().includes(needle));
  });
}

/** Sorted copy. Cards without a price come last whichever way prices are sorted; ties keep the newest first. */
export function sortPortfolio(cards: readonly PortfolioCard[], sort: PortfolioSort): PortfolioCard[] {
  const [field, direction] = sort.split('_') as ['createdAt' | 'currentPrice' | 'cardName', 'asc' | 'desc'];
  const sign = direction === 'asc' ? 1 : -1;
  const newestFirst = (a: PortfolioCard, b: PortfolioCard) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id;
  const compare = (a: PortfolioCard, b: PortfolioCard): number => {
    switch (field) {
      case 'createdAt':
        return sign * (a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
      case 'cardName':
        return sign * a.cardName.localeCompare(b.cardName, undefined, { sensitivity: 'base', numeric: true });
      case 'currentPrice': {
        const pa = centsOf(a.currentPrice);
        const pb = centsOf(b.currentPrice);
        if (pa === null || pb === null) return pa === pb ? 0 : pa === null ? 1 : -1;
        return sign * (pa - pb);
      }
    }
  };
  return [...cards].sort((a, b) => compare(a, b) || newestFirst(a, b));
}

export interface PortfolioSummary {
  totalCards: number;
  gradedCards: number;
  valueCents: number;
  costCents: number;
  gain: { cents: number; percent: number };
}

/** The four summary cards (SPEC.md §2): cards and graded cards, value, investment, gain/loss with percent. */
export function summarise(cards: readonly PortfolioCard[]): PortfolioSummary {
  let valueCents = 0;
  let costCents = 0;
  let gradedCards = 0;
  for (const card of cards) {
    valueCents += centsOf(card.currentPrice) ?? 0;
    costCents += centsOf(card.acquisitionPrice) ?? 0;
    if (card.isGraded) gradedCards++;
  }
  return { totalCards: cards.length, gradedCards, valueCents, costCents, gain: gainLoss(valueCents, costCents) };
}

/** A card's own gain/loss, where both its price and its cost are known. */
export function cardGain(card: PortfolioCard): { cents: number; percent: number } | null {
  const value = centsOf(card.currentPrice);
  const cost = centsOf(card.acquisitionPrice);
  return value === null || cost === null ? null : gainLoss(value, cost);
}

/** Front/back pairs from a list, in order; an odd count makes the last one single-sided (SPEC.md §5). */
export function pairImages<T>(items: readonly T[]): { front: T; back: T | null }[] {
  const pairs: { front: T; back: T | null }[] = [];
  for (let i = 0; i < items.length; i += 2) pairs.push({ front: items[i]!, back: items[i + 1] ?? null });
  return pairs;
}


/** One URL of Paste URLs, with the line it was typed on (1-based, counting blank lines, as the text box shows them). */
export interface PastedUrl {
  url: string;
  line: number;
}

export interface PastedCard {
  front: PastedUrl;
  back: PastedUrl | null;
}

export interface PastedUrls {
  cards: PastedCard[];
  /** Lines that are not one or two web addresses: nothing of them is sent until they are fixed. */
  problems: { line: number; text: string; reason: string }[];
}

const WEB_ADDRESS = /^https?:\/\/[^\s/]+/i;

/**
 * Paste URLs (issue 35): a line with one URL is a side, and such lines pair up in order, front then back; a line with
 * two URLs (a space, comma or tab between) is one card's front and back, so a person can pair them by hand. A single
 * line left over (before a line of two, or at the end) is a card without a back.
 */
export function pasteUrlPairs(text: string): PastedUrls {
  const cards: PastedCard[] = [];
  const problems: PastedUrls['problems'] = [];
  let pending: PastedUrl | null = null;
  const flush = () => {
    if (pending) cards.push({ front: pending, back: null });
    pending = null;
  };
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const parts = raw.trim().split(/[\s,]+/).filter((part) => part !== '');
    if (parts.length === 0) return;
    const notUrl = parts.find((part) => !WEB_ADDRESS.test(part));
    if (notUrl !== undefined) return problems.push({ line, text: raw.trim(), reason: 'Not a web address: it should start with http:// or https://.' });
    if (parts.length > 2) return problems.push({ line, text: raw.trim(), reason: 'More than two addresses on one line: put a card’s front and back on a line, or one address per line.' });
    if (parts.length === 2) {
      flush();
      cards.push({ front: { url: parts[0]!, line }, back: { url: parts[1]!, line } });
    } else if (pending) {
      cards.push({ front: pending, back: { url: parts[0]!, line } });
      pending = null;
    } else {
      pending = { url: parts[0]!, line };
    }
  });
  flush();
  return { cards, problems };
}

/** The text of Paste URLs without the lines of the cards that were added: what failed stays there to fix. */
export function withoutLines(text: string, lines: ReadonlySet<number>): string {
  return text
    .split(/\r?\n/)
    .filter((_, index) => !lines.has(index + 1))
    .join('\n')
    .replace(/^\s*\n/gm, '')
    .trimEnd();
}
