import { z } from 'zod';
import type { GradePrice, GradedPrices } from '../../contracts/worth-grading.ts';
import { dollarsOf } from '../../domain/orders/money.ts';
import type { GradedPriceLookup, GradedPriceSource, GradedPricedCard } from './graded-price-source.ts';

// PriceCharting's API: GET /api/product?t={token}&q={search} answers the best-matching product,
// { "status": "success", "id", "product-name", "console-name", "loose-price", "cib-price", … }, prices in pennies (USD),
// or { "status": "error", "error-message" }. For trading cards its fields stand for grades: loose = ungraded,
// cib = Grade 7, new = Grade 8, graded = Grade 9, box-only = Grade 9.5, manual-only = PSA 10, bgs-10 = BGS 10,
// condition-17 = CGC 10, condition-18 = SGC 10. The figures are current, not dated, so the day they were read is
// their day. A 2-second timeout, no retries; an answer is kept a day per card, a failure that may pass a minute.

export const PRICECHARTING_API_URL = 'https://www.pricecharting.com';
const DAY_MS = 24 * 60 * 60 * 1000;
const RETRY_AFTER_MS = 60 * 1000;
const SOURCE = 'PriceCharting';

/** The product fields, in the order shown, with the grade each prices (null: ungraded or another grader's 10). */
export const PRICECHARTING_GRADE_FIELDS = [
  { field: 'cib-price', label: 'Grade 7', grade: 7 },
  { field: 'new-price', label: 'Grade 8', grade: 8 },
  { field: 'graded-price', label: 'Grade 9', grade: 9 },
  { field: 'box-only-price', label: 'Grade 9.5', grade: 9.5 },
  { field: 'manual-only-price', label: 'PSA 10', grade: 10 },
  { field: 'bgs-10-price', label: 'BGS 10', grade: null },
  { field: 'condition-17-price', label: 'CGC 10', grade: null },
  { field: 'condition-18-price', label: 'SGC 10', grade: null },
] as const;

const pennies = z.number().int().nonnegative().nullish();
const answerSchema = z.union([
  z.object({
    status: z.literal('success'),
    id: z.union([z.string(), z.number()]),
    'product-name': z.string(),
    'console-name': z.string().optional(),
    'loose-price': pennies,
    ...Object.fromEntries(PRICECHARTING_GRADE_FIELDS.map(({ field }) => [field, pennies])),
  }),
  z.object({ status: z.literal('error'), 'error-message': z.string().optional() }),
]);

/** "Pikachu Base Set 58": the name, the set and the collector number before its slash. */
export function searchTextFor(card: GradedPricedCard): string {
  const number = (card.number ?? '').split('/')[0]!.replace(/^#/, '').trim();
  return [card.name, card.set ?? '', number].filter((part) => part.length > 0).join(' ');
}

const figure = (label: string, grade: number | null, cents: number): GradePrice => ({ label, grade, cents, amount: dollarsOf(cents) });

/** The answer's figures; a missing or zero price is no figure (PriceCharting gives 0 where it has no sales). */
export function gradedPricesFromAnswer(answer: Record<string, unknown>, asOf: string): GradedPrices {
  const pennyOf = (field: string) => {
    const value = answer[field];
    return typeof value === 'number' && value > 0 ? value : null;
  };
  const loose = pennyOf('loose-price');
  const grades = PRICECHARTING_GRADE_FIELDS.flatMap(({ field, label, grade }) => {
    const cents = pennyOf(field);
    return cents === null ? [] : [figure(label, grade, cents)];
  });
  const set = typeof answer['console-name'] === 'string' ? ` · ${answer['console-name']}` : '';
  return { source: SOURCE, currency: 'USD', asOf, product: `${String(answer['product-name'])}${set}`, raw: loose === null ? null : figure('Ungraded', null, loose), grades };
}

export interface PriceChartingOptions {
  token: string;
  baseUrl?: string;
  timeoutMs?: number;
  /** Milliseconds since the epoch: the cache, and the day the figures were read. */
  now?: () => number;
}

export function createPriceChartingSource(options: PriceChartingOptions): GradedPriceSource {
  const baseUrl = (options.baseUrl ?? PRICECHARTING_API_URL).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 2_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { until: number; lookup: GradedPriceLookup }>();

  async function ask(card: GradedPricedCard): Promise<{ lookup: GradedPriceLookup; keepMs: number }> {
    const url = `${baseUrl}/api/product?t=${encodeURIComponent(options.token)}&q=${encodeURIComponent(searchTextFor(card))}`;
    const failed = (reason: string, keepMs = RETRY_AFTER_MS) => ({ lookup: { ok: false as const, reason }, keepMs });
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      return failed(timedOut ? `PriceCharting did not answer within ${timeoutMs / 1000} s` : 'PriceCharting could not be reached');
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return failed(`PriceCharting answered HTTP ${response.status} with a body that could not be read`);
    }
    const parsed = answerSchema.safeParse(body);
    if (!parsed.success) return failed(`PriceCharting answered HTTP ${response.status} with an answer that could not be read`);
    if (parsed.data.status === 'error') {
      const message = parsed.data['error-message'] ?? `HTTP ${response.status}`;
      // "No such product" does not pass in a minute; a bad token or an outage may.
      return failed(`PriceCharting: ${message}`, /no such|not found/i.test(message) ? DAY_MS : RETRY_AFTER_MS);
    }
    const asOf = new Date(now()).toISOString().slice(0, 10);
    return { lookup: { ok: true, prices: gradedPricesFromAnswer(parsed.data as Record<string, unknown>, asOf) }, keepMs: DAY_MS };
  }

  return {
    name: 'pricecharting',
    async gradedPricesOf(card) {
      const kept = cache.get(card.catalogId);
      if (kept && kept.until > now()) return kept.lookup;
      const { lookup, keepMs } = await ask(card);
      cache.set(card.catalogId, { until: now() + keepMs, lookup });
      return lookup;
    },
  };
}
