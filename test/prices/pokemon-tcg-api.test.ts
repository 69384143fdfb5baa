import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { describeGradedCard, gradeCard } from '../../src/domain/grading/index.ts';
import { priceFromText } from '../../src/domain/cards/price.ts';
import { shippedCatalog } from '../../src/infra/catalog/index.ts';
import { unidentified, type CardIdentifier, type CardPicture } from '../../src/infra/identification/index.ts';
import { createPokemonTcgApiPriceSource, createPriceSource, noPriceSource, withMarketPrice } from '../../src/infra/prices/index.ts';
import { startPokemonTcgApiFake, type PokemonTcgApiFake } from '../support/pokemon-tcg-api-server.ts';

let fake: PokemonTcgApiFake;
let clock = Date.parse('2026-11-25T12:00:00Z');
const now = () => clock;

beforeAll(async () => {
  fake = await startPokemonTcgApiFake({
    'base1-4': {
      tcgplayer: {
        updatedAt: '2026/11/20',
        prices: { holofoil: { low: 300, mid: 420, high: 900, market: 412.34 }, reverseHolofoil: { market: 99.99 }, '1stEditionHolofoil': { market: 9000 } },
      },
      cardmarket: { updatedAt: '2026/11/21', prices: { trendPrice: 380.5, avg30: 370 } },
    },
    'base1-58': { tcgplayer: { updatedAt: '2026/11/20', prices: { normal: { market: 12.34 }, reverseHolofoil: { market: 30 } } } },
    'basep-31': { cardmarket: { updatedAt: '2026/11/19', prices: { trendPrice: 4.2, avg30: 4 } } },
    'sv1-65': { tcgplayer: { updatedAt: '2026/11/22', prices: {} } },
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.apiKeys.length = 0;
  fake.behaviour.clear();
});

const source = (options: { timeoutMs?: number; apiKey?: string } = {}) => createPokemonTcgApiPriceSource({ baseUrl: fake.url, now, ...options });

describe('the Pokémon TCG API price source, against a fake of the API on loopback', () => {
  it('gives the TCGplayer market price of the card’s own printing, labelled with what, where from and when, and Cardmarket’s euro figures beside it', async () => {
    const prices = source({ apiKey: 'k-123' });
    const holo = await prices.priceOf({ catalogId: 'base1-4', rarity: 'Rare Holo' });
    expect(holo).toEqual({
      ok: true,
      price: {
        amount: 41_234,
        currency: 'USD',
        kind: 'TCGplayer market, Near Mint',
        updatedOn: '2026-11-20',
        printing: 'holofoil',
        cardmarket: { trendCents: 38_050, avg30Cents: 37_000, updatedOn: '2026-11-21' },
      },
    });
    const common = await prices.priceOf({ catalogId: 'base1-58', rarity: 'Common' });
    expect(common.ok && common.price).toMatchObject({ amount: 1234, printing: 'normal', cardmarket: null });
    expect(fake.requests).toEqual(['/v2/cards/base1-4', '/v2/cards/base1-58']);
    expect(fake.apiKeys).toEqual(['k-123', 'k-123']);
  });

  it('falls back to Cardmarket’s trend in euros when TCGplayer has none', async () => {
    expect(await source().priceOf({ catalogId: 'basep-31', rarity: 'Promo' })).toEqual({
      ok: true,
      price: { amount: 420, currency: 'EUR', kind: 'Cardmarket trend', updatedOn: '2026-11-19', printing: null, cardmarket: { trendCents: 420, avg30Cents: 400, updatedOn: '2026-11-19' } },
    });
    fake.cards.set('basep-31-avg', { cardmarket: { updatedAt: '2026/11/18', prices: { trendPrice: null, avg30: 3.95 } } });
    expect(await source().priceOf({ catalogId: 'basep-31-avg', rarity: 'Promo' })).toMatchObject({
      ok: true,
      price: { amount: 395, currency: 'EUR', kind: 'Cardmarket 30-day average', updatedOn: '2026-11-18', cardmarket: { trendCents: null, avg30Cents: 395 } },
    });
    expect(await source().priceOf({ catalogId: 'sv1-65', rarity: 'Double Rare' })).toEqual({ ok: false, reason: 'neither TCGplayer nor Cardmarket lists a price for this card' });
  });

  it('says why there is no price on 404, 429, 500, a timeout and malformed JSON', async () => {
    const reasons: Record<string, string> = {};
    for (const [id, behaviour] of [['base1-4', 404], ['base1-58', 429], ['basep-31', 500], ['sv1-65', 'malformed']] as const) {
      fake.behaviour.set(id, behaviour);
      const lookup = await source().priceOf({ catalogId: id, rarity: null });
      expect(lookup.ok).toBe(false);
      reasons[String(behaviour)] = lookup.ok ? '' : lookup.reason;
    }
    fake.behaviour.set('base1-4', 'timeout');
    const started = performance.now();
    const timedOut = await source({ timeoutMs: 300 }).priceOf({ catalogId: 'base1-4', rarity: null });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(reasons).toEqual({
      404: 'the Pokémon TCG API does not know card base1-4',
      429: 'the Pokémon TCG API is rate limiting requests (429)',
      500: 'the Pokémon TCG API answered HTTP 500',
      malformed: 'the Pokémon TCG API sent an answer that could not be read',
    });
    expect(timedOut).toEqual({ ok: false, reason: 'the Pokémon TCG API did not answer within 0.3 s' });
    const gone = await startPokemonTcgApiFake();
    await gone.close();
    const closed = await createPokemonTcgApiPriceSource({ baseUrl: gone.url }).priceOf({ catalogId: 'base1-4', rarity: null });
    expect(closed).toEqual({ ok: false, reason: 'the Pokémon TCG API could not be reached (ECONNREFUSED)' });
  });

  it('keeps each card’s price a day, asks once for concurrent lookups, and retries a rate limit after a minute', async () => {
    const prices = source();
    await Promise.all([1, 2, 3].map(() => prices.priceOf({ catalogId: 'base1-58', rarity: 'Common' })));
    await prices.priceOf({ catalogId: 'base1-58', rarity: 'Common' });
    expect(fake.requests).toEqual(['/v2/cards/base1-58']);
    clock += 24 * 60 * 60 * 1000 + 1;
    await prices.priceOf({ catalogId: 'base1-58', rarity: 'Common' });
    expect(fake.requests).toHaveLength(2);

    fake.behaviour.set('base1-4', 429);
    expect((await prices.priceOf({ catalogId: 'base1-4', rarity: 'Rare Holo' })).ok).toBe(false);
    fake.behaviour.delete('base1-4');
    expect((await prices.priceOf({ catalogId: 'base1-4', rarity: 'Rare Holo' })).ok).toBe(false); // still within the minute
    clock += 61_000;
    expect((await prices.priceOf({ catalogId: 'base1-4', rarity: 'Rare Holo' })).ok).toBe(true);
    expect(fake.requests).toHaveLength(4);
  });

  it('is the default, with a 2-second timeout; PRICE_SOURCE=none (and tests) make no request at all', async () => {
    const production = loadConfig({});
    expect(production).toMatchObject({ PRICE_SOURCE: 'pokemontcg', PRICE_TIMEOUT_MS: 2_000, POKEMONTCG_API_URL: 'https://api.pokemontcg.io' });
    expect(loadConfig({ NODE_ENV: 'test' }).PRICE_SOURCE).toBe('none');
    const none = createPriceSource(loadConfig({ PRICE_SOURCE: 'none', POKEMONTCG_API_URL: fake.url }));
    expect(none).toBe(noPriceSource);
    expect(await none.priceOf({ catalogId: 'base1-58', rarity: 'Common' })).toEqual({ ok: false, reason: 'no price source is configured' });
    expect(fake.requests).toEqual([]);
  });
});

describe('the value beside the identification', () => {
  const catalog = shippedCatalog();
  const picture: CardPicture = { image: { data: new Uint8Array(3), width: 1, height: 1, channels: 3 } };
  const identifiedAs = (catalogId: string | null): CardIdentifier => ({
    identify: async () => ({ ...unidentified('ocr'), cardName: 'Pikachu', catalogId, catalogConfidence: catalogId ? 0.97 : null }),
    close: async () => {},
  });

  it('reads "$12.34 (TCGplayer market, Near Mint, 2026-11-20)", and SPEC’s price parsing finds 12.34', async () => {
    const identifier = withMarketPrice(identifiedAs('base1-58'), source(), catalog);
    const identification = await identifier.identify(picture);
    expect(identification.estimatedValue).toEqual({ text: '$12.34', label: 'TCGplayer market, Near Mint, 2026-11-20' });
    expect(identification.psa10Value).toBeNull();
    const measured = (await import('../cards/graded-card-fixture.ts')).gradedCard();
    const card = describeGradedCard(gradeCard(measured.measurements), identification, measured.measurements);
    expect(card.estimatedValue).toBe('$12.34 (TCGplayer market, Near Mint, 2026-11-20)');
    expect(card.psa10Value).toBe('N/A');
    expect(priceFromText(card.estimatedValue)).toBe(12.34);
  });

  it('shows N/A with the reason when the source cannot say, and leaves an unmatched card alone', async () => {
    fake.behaviour.set('base1-58', 500);
    const failing = await withMarketPrice(identifiedAs('base1-58'), source(), catalog).identify(picture);
    expect(failing.estimatedValue).toEqual({ text: 'N/A', label: 'no market price: the Pokémon TCG API answered HTTP 500' });
    // Nothing about the card changes with the network: only the value.
    const offline = await identifiedAs('base1-58').identify(picture);
    expect({ ...failing, estimatedValue: null }).toEqual(offline);
    expect(priceFromText(`${failing.estimatedValue!.text} (${failing.estimatedValue!.label})`)).toBeNull();
    fake.requests.length = 0;
    const unmatched = await withMarketPrice(identifiedAs(null), source(), catalog).identify(picture);
    expect(unmatched.estimatedValue).toBeNull();
    expect(fake.requests).toEqual([]);
  });
});

describe('the portfolio analysis of an identified card', () => {
  it('fills the year from the catalogue, and the market price with its source', async () => {
    const { analysisOf } = await import('../../src/domain/portfolio/index.ts');
    const { gradedCard, hash } = await import('../cards/graded-card-fixture.ts');
    const photos = { imageUrl: `/api/images/${hash(1)}`, backImageUrl: null, cardImageUrl: null, cardThumbUrl: null, backCardImageUrl: null };
    const card = gradedCard({
      identification: { source: 'ocr', cardName: 'Pikachu', cardSet: 'Base', cardNumber: '58/102', catalogId: 'base1-58', catalogConfidence: 0.97, cardYear: '1999', estimatedValue: { text: '$12.34', label: 'TCGplayer market, Near Mint, 2026-11-20' } },
    });
    expect(analysisOf(card, photos)).toMatchObject({
      cardName: 'Pikachu',
      cardSet: 'Base',
      cardNumber: '58/102',
      year: '1999',
      estimatedPrice: '$12.34',
      price: '12.34',
      priceSource: 'TCGplayer market, Near Mint, 2026-11-20',
    });
    expect(analysisOf(gradedCard(), photos).year).toBeNull();
  });
});
