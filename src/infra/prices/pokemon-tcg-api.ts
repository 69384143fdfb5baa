import { z } from 'zod';
import type { CardmarketPrices } from '../../domain/cards/index.ts';
import type { MarketPrice, PriceLookup, PriceSource, PricedCard } from './price-source.ts';

// The public Pokémon TCG API, v2: GET /v2/cards/{id} by catalogue id answers
// { data: { id, tcgplayer: { updatedAt, prices: { holofoil: { market, mid, … }, … } }, cardmarket: { updatedAt, prices: { trendPrice, avg30, … } } } }.
// The TCGplayer market price of the card's printing, in USD, else Cardmarket's trend (or 30-day average), in EUR;
// either way with Cardmarket's trend and 30-day average in EUR beside it, when it lists them.
// A 2-second timeout, no retries; every answer (a price, or why there is none) is kept a day per card, failures that
// may pass (rate limiting, a server error, a timeout) a minute, and one request per card is in flight at a time.

export const POKEMON_TCG_API_URL = 'https://api.pokemontcg.io';
export const DEFAULT_PRICE_TIMEOUT_MS = 2_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const RETRY_AFTER_MS = 60 * 1000;

const amount = z.number().nonnegative().nullish();
const tcgplayerPrice = z.object({ low: amount, mid: amount, high: amount, market: amount, directLow: amount }).partial();
const answerSchema = z.object({
  data: z.object({
    id: z.string(),
    tcgplayer: z
      .object({ updatedAt: z.string().optional(), prices: z.record(z.string(), tcgplayerPrice).optional() })
      .nullish(),
    cardmarket: z
      .object({
        updatedAt: z.string().optional(),
        prices: z.object({ trendPrice: amount, avg30: amount, averageSellPrice: amount }).partial().optional(),
      })
      .nullish(),
  }),
});
type Answer = z.infer<typeof answerSchema>['data'];

/** The printings to look for, most likely first: a holo card's holofoil before its reverse holo, and the other way. */
export function printingsFor(rarity: string | null): string[] {
  const holo = /holo|rare (ultra|secret|rainbow)|\bv(max|star)?\b|ex|gx|illustration|hyper|shiny|double rare|ultra rare/i.test(rarity ?? '');
  return holo
    ? ['holofoil', 'unlimitedHolofoil', '1stEditionHolofoil', 'normal', 'unlimited', 'reverseHolofoil']
    : ['normal', 'unlimited', '1stEditionNormal', 'holofoil', 'unlimitedHolofoil', 'reverseHolofoil'];
}

/** "2026/11/20" → "2026-11-20". */
const day = (text: string | undefined) => (text ?? '').trim().replaceAll('/', '-').slice(0, 10);
const cents = (value: number) => Math.round(value * 100);

/** Cardmarket's trend and 30-day average (euro cents) and their day, when it lists either with a day. */
function cardmarketFrom(answer: Answer): CardmarketPrices | null {
  const prices = answer.cardmarket?.prices;
  const updatedOn = day(answer.cardmarket?.updatedAt);
  if (!prices || !/^\d{4}-\d{2}-\d{2}$/.test(updatedOn)) return null;
  const trendCents = typeof prices.trendPrice === 'number' ? cents(prices.trendPrice) : null;
  const avg30Cents = typeof prices.avg30 === 'number' ? cents(prices.avg30) : null;
  return trendCents === null && avg30Cents === null ? null : { trendCents, avg30Cents, updatedOn };
}

export function priceFromAnswer(answer: Answer, card: PricedCard): MarketPrice | null {
  const cardmarket = cardmarketFrom(answer);
  const prices = answer.tcgplayer?.prices ?? {};
  const updated = day(answer.tcgplayer?.updatedAt);
  const available = Object.keys(prices);
  const order = [...printingsFor(card.rarity), ...available];
  for (const printing of order) {
    const entry = prices[printing];
    const value = entry?.market ?? entry?.mid;
    if (typeof value === 'number' && /^\d{4}-\d{2}-\d{2}$/.test(updated)) {
      const kind = entry?.market != null ? 'TCGplayer market' : 'TCGplayer mid';
      return { amount: cents(value), currency: 'USD', kind: `${kind}, Near Mint`, updatedOn: updated, printing, cardmarket };
    }
  }
  if (!cardmarket) return null;
  const { trendCents, avg30Cents, updatedOn } = cardmarket;
  if (trendCents !== null) return { amount: trendCents, currency: 'EUR', kind: 'Cardmarket trend', updatedOn, printing: null, cardmarket };
  return { amount: avg30Cents!, currency: 'EUR', kind: 'Cardmarket 30-day average', updatedOn, printing: null, cardmarket };
}

export interface PokemonTcgApiOptions {
  baseUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Milliseconds since the epoch; for the cache. */
  now?: () => number;
  /** Told of each request's outcome (logging, metrics). */
  onLookup?: (catalogId: string, lookup: PriceLookup, cached: boolean) => void;
}

export function createPokemonTcgApiPriceSource(options: PokemonTcgApiOptions = {}): PriceSource {
  const baseUrl = (options.baseUrl ?? POKEMON_TCG_API_URL).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_PRICE_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { until: number; lookup: PriceLookup }>();
  const inFlight = new Map<string, Promise<PriceLookup>>();

  async function ask(card: PricedCard): Promise<{ lookup: PriceLookup; keepMs: number }> {
    const url = `${baseUrl}/v2/cards/${encodeURIComponent(card.catalogId)}`;
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json', ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}) },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      const reason = timedOut
        ? `the Pokémon TCG API did not answer within ${timeoutMs / 1000} s`
        : `the Pokémon TCG API could not be reached (${causeOf(error)})`;
      return { lookup: { ok: false, reason }, keepMs: RETRY_AFTER_MS };
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return { lookup: { ok: false, reason: `the Pokémon TCG API does not know card ${card.catalogId}` }, keepMs: DAY_MS };
    }
    if (response.status === 429) {
      await response.body?.cancel();
      return { lookup: { ok: false, reason: 'the Pokémon TCG API is rate limiting requests (429)' }, keepMs: RETRY_AFTER_MS };
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { lookup: { ok: false, reason: `the Pokémon TCG API answered HTTP ${response.status}` }, keepMs: RETRY_AFTER_MS };
    }
    let answer: Answer;
    try {
      answer = answerSchema.parse(await response.json()).data;
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      const reason = timedOut ? `the Pokémon TCG API did not answer within ${timeoutMs / 1000} s` : 'the Pokémon TCG API sent an answer that could not be read';
      return { lookup: { ok: false, reason }, keepMs: RETRY_AFTER_MS };
    }
    const price = priceFromAnswer(answer, card);
    return price
      ? { lookup: { ok: true, price }, keepMs: DAY_MS }
      : { lookup: { ok: false, reason: 'neither TCGplayer nor Cardmarket lists a price for this card' }, keepMs: DAY_MS };
  }

  return {
    name: 'pokemontcg',
    async priceOf(card) {
      const key = `${card.catalogId}\u0000${card.rarity ?? ''}`;
      const kept = cache.get(key);
      if (kept && kept.until > now()) {
        options.onLookup?.(card.catalogId, kept.lookup, true);
        return kept.lookup;
      }
      const pending = inFlight.get(key);
      if (pending) return pending;
      const request = ask(card)
        .then(({ lookup, keepMs }) => {
          cache.set(key, { until: now() + keepMs, lookup });
          options.onLookup?.(card.catalogId, lookup, false);
          return lookup;
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, request);
      return request;
    },
  };
}

function causeOf(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
