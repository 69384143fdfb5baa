import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCommand } from '../../src/commands/handle-command.ts';
import { addPortfolioCard } from '../../src/commands/portfolio/add-portfolio-card.ts';
import { cardStream } from '../../src/commands/cards/streams.ts';
import { portfolioCardStream } from '../../src/commands/portfolio/streams.ts';
import { refreshPrices } from '../../src/commands/prices/refresh-prices.ts';
import { cardDecider, type CardGraded, type CardPriceRecorded, type GradedValues } from '../../src/domain/cards/index.ts';
import { portfolioCardDecider, type PortfolioCardAdded, type PortfolioCardPriced } from '../../src/domain/portfolio/index.ts';
import { shippedCatalog } from '../../src/infra/catalog/index.ts';
import { loadConfig } from '../../src/config.ts';
import { openPostgres, type Database } from '../../src/infra/database/index.ts';
import { createEventStore, type EventStore } from '../../src/infra/event-store/index.ts';
import type { EventMetadata } from '../../src/infra/event-store/types.ts';
import { createBullmqQueue, type JobQueue } from '../../src/infra/queue/index.ts';
import { createLogger, createRuntime, type Runtime } from '../../src/runtime.ts';
import { REFRESH_PRICES_JOB } from '../../src/workers/handlers.ts';
import { createPokemonTcgApiPriceSource, createPriceChartingSource, noGradedPriceSource, searchTextFor, type GradedPriceSource } from '../../src/infra/prices/index.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { cardsProjection } from '../../src/projections/cards/cards-projection.ts';
import { findCard } from '../../src/projections/cards/queries.ts';
import { portfolioProjection } from '../../src/projections/portfolio/portfolio-projection.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { runReplayCommand } from '../../scripts/replay.ts';
import { specify } from '../accounts/decider-spec.ts';
import { cardGradedData, gradedCard, hash } from '../cards/graded-card-fixture.ts';
import { tableRows } from '../projections/fixtures.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';
import { postgresAvailable, redisAvailable, TEST_DATABASE_URL, TEST_REDIS_URL } from '../support/services.ts';
import { startPokemonTcgApiFake, type PokemonTcgApiFake } from '../support/pokemon-tcg-api-server.ts';
import { startPriceChartingFake, type PriceChartingFake } from '../support/pricecharting-server.ts';

const AT = '2026-11-25T06:00:00.000Z';
const USER = '11111111-1111-4111-8111-111111111111';
const OWNER = `user:${USER}` as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a refreshed price is recorded only when it changed', () => {
  const graded: CardGraded = { type: 'CardGraded', data: cardGradedData() };
  const record = (priceValue: number) => ({
    type: 'RecordCardPrice' as const,
    data: { cardId: graded.data.cardId, priceValue, source: 'TCGplayer market, Near Mint, 2026-11-24', priceDate: '2026-11-25', grade: 9, recordedAt: AT },
  });
  const recorded = (priceValue: number): CardPriceRecorded => ({ type: 'CardPriceRecorded', data: { ...record(priceValue).data } });
  const added: PortfolioCardAdded = {
    type: 'PortfolioCardAdded',
    data: {
      cardId: 7,
      owner: 'user:u1',
      addedAt: AT,
      details: {
        cardName: 'Pikachu', cardSet: 'Base', cardNumber: '58/102', cardYear: null, isGraded: false, gradingCompany: null, officialGrade: null,
        estimatedGrade: null, imageUrl: null, backImageUrl: null, condition: null, rarity: null, category: 'Pokemon Card', notes: null,
        acquisitionPrice: null, acquisitionDate: null,
      },
    },
  };

  it('on a graded card: the first price, a new price, not the same price again, nothing once deleted', () => {
    const given = specify(cardDecider);
    given([graded]).when(record(12.34)).then([recorded(12.34)]);
    given([graded, recorded(12.34)]).when(record(12.34)).then([]);
    given([graded, recorded(12.34)]).when(record(13)).then([recorded(13)]);
    given([graded, { type: 'CardDeleted', data: { cardId: graded.data.cardId, owner: 'user:u1', deletedAt: AT } }]).when(record(13)).then([]);
    given([]).when(record(13)).then([]);
  });

  it('on a portfolio card: a market price replaces a market price or none, never the collector’s own figure', () => {
    const given = specify(portfolioCardDecider);
    const refresh = (cents: number) => ({ type: 'RefreshPortfolioCardPrice' as const, data: { cardId: 7, cents, source: 'TCGplayer market, Near Mint, 2026-11-24', at: AT } });
    const priced = (price: number | null, source: string | null): PortfolioCardPriced => ({ type: 'PortfolioCardPriced', data: { cardId: 7, price, source, priceDate: '2026-11-25', pricedAt: AT } });
    given([added]).when(refresh(1234)).then([priced(1234, 'TCGplayer market, Near Mint, 2026-11-24')]);
    given([added, priced(1234, 'TCGplayer market, Near Mint, 2026-11-20')]).when(refresh(1234)).then([]);
    given([added, priced(1234, 'TCGplayer market, Near Mint, 2026-11-20')]).when(refresh(1300)).then([priced(1300, 'TCGplayer market, Near Mint, 2026-11-24')]);
    given([added, priced(5000, 'Manual entry')]).when(refresh(1300)).then([]);
    given([added, { type: 'PortfolioCardRemoved', data: { cardId: 7, owner: 'user:u1', removedAt: AT } }]).when(refresh(1300)).then([]);
  });

  // Issue 32 item 5: the price history includes graded values. A value by grade that moved is a change of price; the
  // day PriceCharting's figures were read is not (it gives today's prices every day).
  const byGrade = (psa10Cents: number, asOf = '2026-11-25'): GradedValues => ({
    source: 'PriceCharting',
    currency: 'USD',
    asOf,
    product: 'Pikachu #58 · Pokemon Base Set',
    grades: [
      { label: 'Grade 9', grade: 9, cents: 9_000 },
      { label: 'PSA 10', grade: 10, cents: psa10Cents },
    ],
  });

  it('on a graded card: values by grade recorded beside the price, again only when one of them moved', () => {
    const given = specify(cardDecider);
    const withGrades = (priceValue: number, graded: GradedValues) => ({ type: 'RecordCardPrice' as const, data: { ...record(priceValue).data, graded } });
    const recordedWith = (priceValue: number, graded: GradedValues): CardPriceRecorded => ({ type: 'CardPriceRecorded', data: { ...record(priceValue).data, graded } });
    given([graded, recorded(12.34)]).when(withGrades(12.34, byGrade(52_000))).then([recordedWith(12.34, byGrade(52_000))]);
    given([graded, recordedWith(12.34, byGrade(52_000))]).when(withGrades(12.34, byGrade(52_000, '2026-11-26'))).then([]);
    given([graded, recordedWith(12.34, byGrade(52_000))]).when(withGrades(12.34, byGrade(55_000))).then([recordedWith(12.34, byGrade(55_000))]);
    given([graded, recordedWith(12.34, byGrade(52_000))]).when(record(12.34)).then([recorded(12.34)]); // the source no longer lists them
    given([graded, recordedWith(12.34, byGrade(52_000))]).when({ ...withGrades(12.34, byGrade(52_000)), data: { ...withGrades(12.34, byGrade(52_000)).data, graded: { ...byGrade(52_000), source: 'Another source' } } }).then([
      recordedWith(12.34, { ...byGrade(52_000), source: 'Another source' }),
    ]);
  });

  it('on a portfolio card: values by grade beside a market price, PriceCharting’s ungraded price a market price too', () => {
    const given = specify(portfolioCardDecider);
    const ungraded = 'PriceCharting ungraded, 2026-11-25';
    const refresh = (cents: number, graded: GradedValues, source = ungraded) => ({ type: 'RefreshPortfolioCardPrice' as const, data: { cardId: 7, cents, source, at: AT, graded } });
    const priced = (price: number, graded: GradedValues, source = ungraded): PortfolioCardPriced => ({ type: 'PortfolioCardPriced', data: { cardId: 7, price, source, priceDate: '2026-11-25', pricedAt: AT, graded } });
    given([added]).when(refresh(1500, byGrade(52_000))).then([priced(1500, byGrade(52_000))]);
    given([added, priced(1500, byGrade(52_000))]).when(refresh(1500, byGrade(52_000, '2026-11-26'))).then([]);
    given([added, priced(1500, byGrade(52_000))]).when(refresh(1500, byGrade(60_000))).then([priced(1500, byGrade(60_000))]);
    given([added, priced(1500, byGrade(52_000))]).when(refresh(1234, byGrade(52_000), 'TCGplayer market, Near Mint, 2026-11-24')).then([priced(1234, byGrade(52_000), 'TCGplayer market, Near Mint, 2026-11-24')]);
    const typedIn: PortfolioCardPriced = { type: 'PortfolioCardPriced', data: { cardId: 7, price: 5000, source: 'Manual entry', priceDate: '2026-11-25', pricedAt: AT } };
    given([added, typedIn]).when(refresh(1500, byGrade(52_000))).then([]);
  });
});

/**
 * Two graded cards the catalogue matched (base1-58, basep-31) and one it did not; three portfolio cards: a Base Set
 * Pikachu 58/102, one with the collector's own price, and one the catalogue does not know.
 */
async function seedCollections(database: TestDatabase, store: EventStore, meta: () => EventMetadata): Promise<void> {
  const grade = async (cardId: string, catalogId: string | null, n: number) => {
    const data = cardGradedData({
      cardId,
      owner: OWNER,
      images: { front: { hash: hash(n), contentType: 'image/jpeg', sourceUrl: null }, back: null },
      result: gradedCard({ identification: { source: 'ocr', cardName: 'Pikachu', catalogId, catalogConfidence: catalogId ? 0.97 : null } }),
    });
    await handleCommand({ store, metadata: meta() }, { ...cardStream(cardId), decider: cardDecider, command: { type: 'GradeCard', data } });
  };
  await grade('aaaaaaaaaaaaaaaaaaaaaa', 'base1-58', 11);
  await grade('bbbbbbbbbbbbbbbbbbbbbb', 'basep-31', 12);
  await grade('cccccccccccccccccccccc', null, 13); // unmatched: never priced
  const add = (body: Record<string, unknown>) => addPortfolioCard({ store, db: database.db, metadata: meta() }, { owner: OWNER, body: body as never });
  await add({ cardName: 'Pikachu', cardSet: 'Base Set', cardNumber: '58/102' });
  await add({ cardName: 'Pikachu', cardSet: 'Jungle', cardNumber: '60/64', currentPrice: 5000 }); // the collector's figure
  await add({ cardName: 'My own card', cardNumber: '1' });
}

const PRICECHARTING_TOKEN = 'refresh-pricecharting-token';
/** PriceCharting's product for the Base Set Pikachu, in pennies: ungraded, Grades 7 to 9, PSA 10 as given, BGS 10; no other figures. */
const pikachuProduct = (psa10: number) => ({
  id: '6910', 'product-name': 'Pikachu #58', 'console-name': 'Pokemon Base Set',
  'loose-price': 1500, 'cib-price': 3000, 'new-price': 4500, 'graded-price': 9000, 'box-only-price': 0, 'manual-only-price': psa10, 'bgs-10-price': 90000,
});

const market = (value: number, trend?: number) => ({
  tcgplayer: { updatedAt: '2026/11/24', prices: { normal: { market: value } } },
  ...(trend === undefined ? {} : { cardmarket: { updatedAt: '2026/11/23', prices: { trendPrice: trend, avg30: 10 } } }),
});

describe.each(await databaseKinds())('the daily price refresh on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  let fake: PokemonTcgApiFake;
  let priceCharting: PriceChartingFake;
  let clockNow = Date.parse(AT);
  const clock = { now: () => new Date(clockNow) };
  let n = 0;
  const ids = { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
  const meta = () => ({ actor: { kind: 'user' as const, id: USER }, commandId: ids.uuid(), timestamp: clock.now().toISOString() });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = createEventStore(database, { inline: inlineProjections, clock, ids });
    fake = await startPokemonTcgApiFake({ 'base1-58': market(12.34, 10.5), 'basep-31': market(4.5), 'base2-60': market(3) });
    priceCharting = await startPriceChartingFake(PRICECHARTING_TOKEN);
    await seedCollections(database, store, meta);
  });
  afterAll(async () => {
    await fake?.close();
    await priceCharting?.close();
    await database?.destroy();
  });

  const run = (gradedPrices: GradedPriceSource = noGradedPriceSource) =>
    refreshPrices({ database, eventStore: store, prices: createPokemonTcgApiPriceSource({ baseUrl: fake.url, now: () => clockNow }), gradedPrices, catalog: shippedCatalog(), clock, ids });
  const withPriceCharting = () => run(createPriceChartingSource({ token: PRICECHARTING_TOKEN, baseUrl: priceCharting.url, now: () => clockNow }));
  const history = async () => ({
    cards: await database.db.selectFrom('price_history').select(['card_grade_id', 'price_value', 'source', 'price_date']).orderBy('created_at').orderBy('card_grade_id').execute(),
    portfolio: await database.db.selectFrom('portfolio_price_history').select(['portfolio_card_id', 'price', 'source']).orderBy('created_at').orderBy('portfolio_card_id').execute(),
  });

  it('records each identified card’s price (and Cardmarket’s euro figures beside it), then nothing while prices stand, then each change once', async () => {
    expect(await run()).toMatchObject({ ran: true, cards: 2, cardPricesRecorded: 2, portfolioCards: 1, portfolioPricesRecorded: 1 });
    const first = await history();
    expect(first.cards.map((r) => [r.card_grade_id, r.price_value, r.source])).toEqual([
      ['aaaaaaaaaaaaaaaaaaaaaa', 12.34, 'TCGplayer market, Near Mint, 2026-11-24'],
      ['bbbbbbbbbbbbbbbbbbbbbb', 4.5, 'TCGplayer market, Near Mint, 2026-11-24'],
    ]);
    expect(first.portfolio.map((r) => [r.price, r.source])).toEqual([
      ['12.34', 'TCGplayer market, Near Mint, 2026-11-24'],
      ['50.00', 'Manual entry'], // typed in when the card was added (same time, next card)
    ]);
    const shown = (await findCard(database.db, 'aaaaaaaaaaaaaaaaaaaaaa'))!;
    expect(shown.estimated_value).toBe('$12.34 (TCGplayer market, Near Mint, 2026-11-24)');
    expect(shown.result.estimatedValue).toBe('$12.34 (TCGplayer market, Near Mint, 2026-11-24)');

    clockNow += 24 * 3_600_000 + 1; // a day later: the cache has expired, the market has not moved
    expect(await run()).toMatchObject({ cardPricesRecorded: 0, portfolioPricesRecorded: 0 });
    expect(await history()).toEqual(first);

    fake.cards.set('base1-58', market(15, 10.5));
    clockNow += 24 * 3_600_000 + 1;
    expect(await run()).toMatchObject({ cardPricesRecorded: 1, portfolioPricesRecorded: 1 });
    const moved = await history();
    expect(moved.cards).toHaveLength(3);
    expect(moved.portfolio.map((r) => r.price)).toEqual(['12.34', '50.00', '15.00']);

    fake.cards.set('base1-58', market(15, 11.2)); // only Cardmarket moved: a change too, the dollar figure as it was
    clockNow += 24 * 3_600_000 + 1;
    expect(await run()).toMatchObject({ cardPricesRecorded: 1, portfolioPricesRecorded: 1 });
    expect((await history()).cards.map((r) => r.price_value)).toEqual([12.34, 4.5, 15, 15]);

    const lines: string[] = [];
    await runReplayCommand(['card', 'aaaaaaaaaaaaaaaaaaaaaa'], store, (line) => lines.push(line));
    const replayed = lines.map((line) => JSON.parse(line) as { summary: string; data: unknown });
    expect(replayed.map((entry) => entry.summary)).toEqual([
      expect.stringMatching(/^graded .* as "Pikachu" \(catalogue base1-58, confidence 0.97\) for user:/),
      'price $12.34 on 2026-11-25 at grade 10, from TCGplayer market, Near Mint, 2026-11-24; Cardmarket trend €10.50, 30-day average €10.00, 2026-11-23',
      'price $15.00 on 2026-11-27 at grade 10, from TCGplayer market, Near Mint, 2026-11-24; Cardmarket trend €10.50, 30-day average €10.00, 2026-11-23',
      'price $15.00 on 2026-11-28 at grade 10, from TCGplayer market, Near Mint, 2026-11-24; Cardmarket trend €11.20, 30-day average €10.00, 2026-11-23',
    ]);
    expect(replayed[3]!.data).toMatchObject({ priceValue: 15, cardmarket: { trendCents: 1120, avg30Cents: 1000, updatedOn: '2026-11-23' } });
    const mine = await database.db.selectFrom('portfolio_cards').select(['id', 'card_name', 'current_price', 'price_source']).orderBy('id').execute();
    expect(mine.map((c) => c.current_price)).toEqual(['15.00', '50.00', null]);
    const { events: held } = await store.readStream(portfolioCardStream(mine[0]!.id).streamId);
    expect(held.filter((e) => e.type === 'PortfolioCardPriced').map((e) => e.data)).toEqual([
      expect.objectContaining({ price: 1234, cardmarket: { trendCents: 1050, avg30Cents: 1000, updatedOn: '2026-11-23' } }),
      expect.objectContaining({ price: 1500, cardmarket: { trendCents: 1050, avg30Cents: 1000, updatedOn: '2026-11-23' } }),
      expect.objectContaining({ price: 1500, cardmarket: { trendCents: 1120, avg30Cents: 1000, updatedOn: '2026-11-23' } }),
    ]);
  });

  it('records nothing when the source cannot be reached, and runs one at a time', async () => {
    const before = await history();
    fake.behaviour.set('base1-58', 500);
    fake.behaviour.set('basep-31', 429);
    clockNow += 24 * 3_600_000 + 1;
    const [a, b] = await Promise.all([run(), run()]);
    expect([a.ran, b.ran].sort()).toEqual([false, true]);
    expect(a.cardPricesRecorded + b.cardPricesRecorded).toBe(0);
    expect(await history()).toEqual(before);
    fake.behaviour.clear();
  });

  it('records the values by grade beside each price, and PriceCharting’s ungraded price where the market has none, each change once', async () => {
    const searchOf = (catalogId: string) => {
      const card = shippedCatalog().byId(catalogId)!;
      return searchTextFor({ catalogId, name: card.name, set: card.set.name, number: card.number });
    };
    priceCharting.products.set(searchOf('base1-58'), pikachuProduct(52_000));
    priceCharting.products.set(searchOf('basep-31'), { ...pikachuProduct(30_000), 'product-name': 'Cleffa #31', 'console-name': 'Pokemon Promo', 'loose-price': 700 });
    fake.behaviour.set('basep-31', 404); // the market has no price for the Cleffa any more: PriceCharting's ungraded one stands
    clockNow += 24 * 3_600_000 + 1;
    const day = clock.now().toISOString().slice(0, 10);
    expect(await withPriceCharting()).toMatchObject({ cards: 2, cardPricesRecorded: 2, portfolioCards: 1, portfolioPricesRecorded: 1, unavailable: 0 });
    const rows = () => database.db.selectFrom('price_history').select(['card_grade_id', 'price_value', 'source', 'graded_values']).orderBy('created_at').orderBy('card_grade_id').execute();
    const expectedGrades = (psa10: number) => ({
      source: 'PriceCharting',
      currency: 'USD',
      asOf: day,
      product: 'Pikachu #58 · Pokemon Base Set',
      grades: [
        { label: 'Grade 7', grade: 7, cents: 3_000 },
        { label: 'Grade 8', grade: 8, cents: 4_500 },
        { label: 'Grade 9', grade: 9, cents: 9_000 },
        { label: 'PSA 10', grade: 10, cents: psa10 },
        { label: 'BGS 10', grade: null, cents: 90_000 },
      ],
    });
    expect((await rows()).slice(4)).toEqual([
      { card_grade_id: 'aaaaaaaaaaaaaaaaaaaaaa', price_value: 15, source: 'TCGplayer market, Near Mint, 2026-11-24', graded_values: expectedGrades(52_000) },
      { card_grade_id: 'bbbbbbbbbbbbbbbbbbbbbb', price_value: 7, source: `PriceCharting ungraded, ${day}`, graded_values: { ...expectedGrades(30_000), product: 'Cleffa #31 · Pokemon Promo' } },
    ]);
    const portfolioRows = await database.db.selectFrom('portfolio_price_history').select(['price', 'source', 'graded_values']).orderBy('created_at').execute();
    expect(portfolioRows.at(-1)).toEqual({ price: '15.00', source: 'TCGplayer market, Near Mint, 2026-11-24', graded_values: expectedGrades(52_000) });
    const shown = (await findCard(database.db, 'bbbbbbbbbbbbbbbbbbbbbb'))!;
    expect(shown.estimated_value).toBe(`$7.00 (PriceCharting ungraded, ${day})`);

    // A day later the same figures, read on another day: nothing. Then PSA 10 moves: one price each, the dollars as they were.
    clockNow += 24 * 3_600_000 + 1;
    expect(await withPriceCharting()).toMatchObject({ cardPricesRecorded: 0, portfolioPricesRecorded: 0 });
    priceCharting.products.set(searchOf('base1-58'), pikachuProduct(55_000));
    clockNow += 24 * 3_600_000 + 1;
    expect(await withPriceCharting()).toMatchObject({ cardPricesRecorded: 1, portfolioPricesRecorded: 1 });
    const moved = (await rows()).at(-1)!;
    expect(moved).toMatchObject({ card_grade_id: 'aaaaaaaaaaaaaaaaaaaaaa', price_value: 15, graded_values: { asOf: clock.now().toISOString().slice(0, 10), grades: expect.arrayContaining([{ label: 'PSA 10', grade: 10, cents: 55_000 }]) } });

    const lines: string[] = [];
    await runReplayCommand(['card', 'aaaaaaaaaaaaaaaaaaaaaa'], store, (line) => lines.push(line));
    expect((JSON.parse(lines.at(-1)!) as { summary: string }).summary).toMatch(/; by grade from PriceCharting, USD, \d{4}-\d{2}-\d{2}: Grade 7 \$30\.00, Grade 8 \$45\.00, Grade 9 \$90\.00, PSA 10 \$550\.00, BGS 10 \$900\.00$/);

    // Neither source can say: nothing is recorded.
    fake.behaviour.set('base1-58', 500);
    priceCharting.products.clear();
    clockNow += 24 * 3_600_000 + 1;
    expect(await withPriceCharting()).toMatchObject({ cardPricesRecorded: 0, portfolioPricesRecorded: 0, unavailable: 3 });
    fake.behaviour.clear();
  });

  it('a rebuild gives the price histories back row for row', async () => {
    const live = { cards: await tableRows(database.db, 'price_history'), grades: await tableRows(database.db, 'card_grades'), portfolio: await tableRows(database.db, 'portfolio_price_history'), held: await tableRows(database.db, 'portfolio_cards') };
    await rebuildProjection(database, store, cardsProjection, 'inline');
    await rebuildProjection(database, store, portfolioProjection, 'inline');
    expect({ cards: await tableRows(database.db, 'price_history'), grades: await tableRows(database.db, 'card_grades'), portfolio: await tableRows(database.db, 'portfolio_price_history'), held: await tableRows(database.db, 'portfolio_cards') }).toEqual(live);
    expect((live.cards as unknown[]).length).toBe(7);
  });
});

describe.runIf((await postgresAvailable()) && (await redisAvailable()))('the daily price refresh in the service mode: two workers on Redis and PostgreSQL', () => {
  const prefix = `refresh-${randomBytes(4).toString('hex')}`;
  let database: TestDatabase;
  let store: EventStore;
  let fake: PokemonTcgApiFake;
  let producer: JobQueue;
  let dataDir: string;
  const workers: { runtime: Runtime; database: Database; log: string[] }[] = [];
  let clockNow = Date.parse(AT);
  const clock = { now: () => new Date(clockNow) };
  let n = 0;
  const ids = { uuid: () => `00000000-0000-4000-9000-${String(++n).padStart(12, '0')}` };
  const meta = () => ({ actor: { kind: 'user' as const, id: USER }, commandId: ids.uuid(), timestamp: clock.now().toISOString() });

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    store = createEventStore(database, { inline: inlineProjections, clock, ids });
    await seedCollections(database, store, meta);
    fake = await startPokemonTcgApiFake({ 'base1-58': market(12.34), 'basep-31': market(4.5) });
    dataDir = await mkdtemp(path.join(tmpdir(), 'refresh-'));
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', DATA_DIR: dataDir, CPU_POOL_SIZE: '1', REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, PRICE_SOURCE: 'pokemontcg', POKEMONTCG_API_URL: fake.url });
    for (let i = 0; i < 2; i++) {
      // Each with a connection pool of its own, as a process of its own has.
      const own = openPostgres({ url: TEST_DATABASE_URL, schema: database.schema! });
      const log: string[] = [];
      const runtime = await createRuntime(config, { role: 'worker', database: own, clock, logger: createLogger(config, { write: (line: string) => void log.push(line) }) });
      workers.push({ runtime, database: own, log });
    }
    producer = createBullmqQueue({ url: TEST_REDIS_URL, prefix, logger: pino({ level: 'silent' }) });
    // Both workers listening before any job is there.
    const probe = new Queue(REFRESH_PRICES_JOB, { connection: { url: TEST_REDIS_URL }, prefix });
    for (let tries = 0; (await probe.getWorkersCount()) < 2 && tries < 100; tries++) await sleep(50);
    await probe.close();
  }, 30_000);
  afterAll(async () => {
    for (const worker of workers) await worker.runtime.close(2_000);
    for (const worker of workers) await worker.database.close();
    await producer?.close(1_000);
    await fake?.close();
    await database?.destroy();
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** Enqueues the refresh as the job scheduler does, under these ids, and waits until no refresh job is left. */
  async function refresh(...jobIds: string[]): Promise<void> {
    await Promise.all(jobIds.map((jobId) => producer.enqueue(REFRESH_PRICES_JOB, {}, { jobId, attempts: 1 })));
    for (let tries = 0; tries < 400; tries++) {
      const counts = (await producer.counts()).find((c) => c.name === REFRESH_PRICES_JOB);
      if (counts && counts.waiting === 0 && counts.active === 0) return;
      await sleep(25);
    }
    throw new Error('the refresh jobs did not finish');
  }
  const said = (message: string) => workers.map((w) => w.log.filter((line) => (JSON.parse(line) as { msg: string }).msg === message).length);
  const recorded = async () => ({
    cards: (await database.db.selectFrom('price_history').select('price_value').orderBy('created_at').execute()).map((r) => r.price_value),
    portfolio: (await database.db.selectFrom('portfolio_price_history').select('price').where('source', 'like', 'TCGplayer%').orderBy('created_at').execute()).map((r) => r.price),
  });

  it('runs on one worker at a time: a second job while the first runs does nothing', async () => {
    fake.delayMs = 250; // each card takes a while: the two jobs overlap
    await refresh('day-1', 'day-1-again');
    fake.delayMs = 0;
    const [done, skipped] = [said('price refresh done'), said('price refresh skipped: another run is going on')];
    expect(done[0]! + done[1]!).toBe(1);
    expect(skipped[0]! + skipped[1]!).toBe(1);
    expect(done.map((d, i) => d + skipped[i]!)).toEqual([1, 1]); // a job on each worker
    expect(fake.maxInFlight).toBe(1);
    expect(fake.requests.toSorted()).toEqual(['/v2/cards/base1-58', '/v2/cards/basep-31']); // each card asked once (the portfolio's Pikachu is base1-58 too)
    expect(await recorded()).toEqual({ cards: [12.34, 4.5], portfolio: ['12.34'] });
  });

  it('appends price events only when a price changed', async () => {
    clockNow += 24 * 3_600_000 + 1; // the day's answers kept by each worker have expired
    await refresh('day-2');
    expect(fake.requests).toHaveLength(4);
    expect(await recorded()).toEqual({ cards: [12.34, 4.5], portfolio: ['12.34'] });

    fake.cards.set('base1-58', market(13));
    clockNow += 24 * 3_600_000 + 1;
    await refresh('day-3');
    expect(await recorded()).toEqual({ cards: [12.34, 4.5, 13], portfolio: ['12.34', '13.00'] });
    const priced = await database.db.selectFrom('es_events').select('event_type').where('event_type', 'in', ['CardPriceRecorded', 'PortfolioCardPriced']).execute();
    expect(priced.map((e) => e.event_type).toSorted()).toEqual(['CardPriceRecorded', 'CardPriceRecorded', 'CardPriceRecorded', 'PortfolioCardPriced', 'PortfolioCardPriced', 'PortfolioCardPriced']); // and the collector's own
    expect(said('price refresh done').reduce((a, b) => a + b)).toBe(3);
  });
});
