import type { CollectionCard } from '@contracts/cards';
import { z } from 'zod';

// What the collection screen shows of the list (SPEC.md §9 Collection): search, one price or grade band, a sort,
// and pages of 100. Pure functions of the cards and the URL's search params.

export const PAGE_SIZE = 100;
const MAX_PAGE_BUTTONS = 5;

export const sortOptions = [
  { value: 'createdAt_desc', label: 'Newest first' },
  { value: 'createdAt_asc', label: 'Oldest first' },
  { value: 'overallGrade_desc', label: 'Grade: high to low' },
  { value: 'overallGrade_asc', label: 'Grade: low to high' },
  { value: 'estimatedValue_desc', label: 'Value: high to low' },
  { value: 'estimatedValue_asc', label: 'Value: low to high' },
  { value: 'cardName_asc', label: 'Name: A to Z' },
  { value: 'cardName_desc', label: 'Name: Z to A' },
] as const;
export type CollectionSort = (typeof sortOptions)[number]['value'];
export const DEFAULT_SORT: CollectionSort = 'createdAt_desc';

export const bandSchema = z.enum(['low', 'medium', 'high', 'premium']);
export type Band = z.infer<typeof bandSchema>;

/** Price bands in dollars: from `min` up to, not including, `max`. */
export const priceBands: Record<Band, { label: string; min: number; max: number }> = {
  low: { label: '$0 – $50', min: 0, max: 50 },
  medium: { label: '$50 – $150', min: 50, max: 150 },
  high: { label: '$150 – $500', min: 150, max: 500 },
  premium: { label: '$500 and up', min: 500, max: Infinity },
};

/** Grade bands, both ends inclusive (SPEC.md §9). */
export const gradeBands: Record<Band, { label: string; min: number; max: number }> = {
  low: { label: '0 – 7', min: 0, max: 7 },
  medium: { label: '7 – 8.5', min: 7, max: 8.5 },
  high: { label: '8.5 – 9.5', min: 8.5, max: 9.5 },
  premium: { label: '9.5 – 10', min: 9.5, max: 10 },
};

/** /collection's search params. A price and a grade band never come together: the price band wins. */
export const collectionSearchSchema = z
  .object({
    q: z.string().optional().catch(undefined),
    sort: z.enum(sortOptions.map((o) => o.value) as [CollectionSort, ...CollectionSort[]]).optional().catch(undefined),
    price: bandSchema.optional().catch(undefined),
    grade: bandSchema.optional().catch(undefined),
    view: z.enum(['grid', 'list']).optional().catch(undefined),
    page: z.coerce.number().int().min(1).optional().catch(undefined),
  })
  .transform((search) => (search.price && search.grade ? { ...search, grade: undefined } : search));
export type CollectionSearch = z.infer<typeof collectionSearchSchema>;

/** The price of an estimate: the number in its first space-separated token ("$1,250.00 (estimate)" → 1250). */
export function priceOf(estimatedValue: string | null): number | null {
  const token = estimatedValue?.trim().split(/\s+/)[0];
  if (!token) return null;
  const price = Number.parseFloat(token.replace(/[^0-9.]/g, ''));
  return Number.isFinite(price) ? price : null;
}

export function hasActiveFilter(search: CollectionSearch): boolean {
  return Boolean(search.q?.trim() || search.price || search.grade);
}

export function filterCards(cards: readonly CollectionCard[], search: CollectionSearch): CollectionCard[] {
  const needle = search.q?.trim().toLowerCase() ?? '';
  const priceBand = search.price ? priceBands[search.price] : undefined;
  const gradeBand = search.grade ? gradeBands[search.grade] : undefined;
  return cards.filter((card) => {
    if (needle && !card.cardName.toLowerCase().includes(needle) && !(card.cardSet ?? '').toLowerCase().includes(needle)) return false;
    if (priceBand) {
      const price = priceOf(card.estimatedValue);
      if (price === null || price < priceBand.min || price >= priceBand.max) return false;
    }
    if (gradeBand && (card.overallGrade < gradeBand.min || card.overallGrade > gradeBand.max)) return false;
    return true;
  });
}

/** Sorted copy. Cards without a price come last whichever way prices are sorted; ties keep the newest first. */
export function sortCards(cards: readonly CollectionCard[], sort: CollectionSort): CollectionCard[] {
  const [field, direction] = sort.split('_') as [string, 'asc' | 'desc'];
  const sign = direction === 'asc' ? 1 : -1;
  const newestFirst = (a: CollectionCard, b: CollectionCard) => b.createdAt.localeCompare(a.createdAt);
  const compare = (a: CollectionCard, b: CollectionCard): number => {
    switch (field) {
      case 'createdAt':
        return sign * a.createdAt.localeCompare(b.createdAt);
      case 'overallGrade':
        return sign * (a.overallGrade - b.overallGrade);
      case 'cardName':
        return sign * a.cardName.localeCompare(b.cardName, undefined, { sensitivity: 'base' });
      default: {
        const pa = priceOf(a.estimatedValue);
        const pb = priceOf(b.estimatedValue);
        if (pa === null || pb === null) return pa === pb ? 0 : pa === null ? 1 : -1;
        return sign * (pa - pb);
      }
    }
  };
  return [...cards].sort((a, b) => compare(a, b) || newestFirst(a, b));
}

export type PageItem = { kind: 'page'; page: number } | { kind: 'ellipsis'; key: string };

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

/** Up to five page buttons around the current page, with an ellipsis where pages are skipped. */
export function pageItems(current: number, count: number): PageItem[] {
  const half = Math.floor(MAX_PAGE_BUTTONS / 2);
  const first = Math.max(1, Math.min(current - half, count - MAX_PAGE_BUTTONS + 1));
  const last = Math.min(count, first + MAX_PAGE_BUTTONS - 1);
  const items: PageItem[] = [];
  if (first > 1) items.push({ kind: 'ellipsis', key: 'before' });
  for (let page = first; page <= last; page++) items.push({ kind: 'page', page });
  if (last < count) items.push({ kind: 'ellipsis', key: 'after' });
  return items;
}
