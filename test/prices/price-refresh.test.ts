import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCommand } from '../../src/commands/handle-command.ts';
import { addPortfolioCard } from '../../src/commands/portfolio/add-portfolio-card.ts';
import { cardStream } from '../../src/commands/cards/streams.ts';
import { refreshPrices } from '../../src/commands/prices/refresh-prices.ts';
import { cardDecider, type CardGraded, type CardPriceRecorded } from '../../src/domain/cards/index.ts';
import { portfolioCardDecider, type PortfolioCardAdded, type PortfolioCardPriced } from '../../src/domain/portfolio/index.ts';
import { shippedCatalog } from '../../src/infra/catalog/index.ts';
import { createEventStore, type EventStore } from '../../src/infra/event-store/index.ts';
import { createPokemonTcgApiPriceSource } from '../../src/infra/prices/index.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { cardsProjection } from '../../src/projections/cards/cards-projection.ts';
import { portfolioProjection } from '../../src/projections/portfolio/portfolio-projection.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { runReplayCommand } from '../../scripts/replay.ts';
import { specify } from '../accounts/decider-spec.ts';
import { cardGradedData, gradedCard, hash } from '../cards/graded-card-fixture.ts';
import { tableRows } from '../projections/fixtures.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';
import { startPokemonTcgApiFake, type PokemonTcgApiFake } from '../support/pokemon-tcg-api-server.ts';

const AT = '2026-11-25T06:00:00.000Z';
const USER = '11111111-1111-4111-8111-111111111111';
const OWNER = `user:${USER}` as const;

describe('a refreshed price is recorded only when it changed', () => {
  const graded: CardGraded = { type: 'CardGraded', data: cardGradedData() };
  const record = (priceValue: number) => ({
    type: 'RecordCardPrice' as const,
    data: { cardId: graded.data.cardId, priceValue, source: 'TCGplayer market, Near Mint, 2026-11-24', priceDate: '2026-11-25', grade: 9, recordedAt: AT },
  });
  const recorded = (priceValue: number): CardPriceRecorded => ({ type: 'CardPriceRecorded', data: { ...record(priceValue).data } });

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
    const refresh = (cents: number) => ({ type: 'RefreshPortfolioCardPrice' as const, data: { cardId: 7, cents, source: 'TCGplayer market, Near Mint, 2026-11-24', at: AT } });
    const priced = (price: number | null, source: string | null): PortfolioCardPriced => ({ type: 'PortfolioCardPriced', data: { cardId: 7, price, source, priceDate: '2026-11-25', pricedAt: AT } });
    given([added]).when(refresh(1234)).then([priced(1234, 'TCGplayer market, Near Mint, 2026-11-24')]);
    given([added, priced(1234, 'TCGplayer market, Near Mint, 2026-11-20')]).when(refresh(1234)).then([]);
    given([added, priced(1234, 'TCGplayer market, Near Mint, 2026-11-20')]).when(refresh(1300)).then([priced(1300, 'TCGplayer market, Near Mint, 2026-11-24')]);
    given([added, priced(5000, 'Manual entry')]).when(refresh(1300)).then([]);
    given([added, { type: 'PortfolioCardRemoved', data: { cardId: 7, owner: 'user:u1', removedAt: AT } }]).when(refresh(1300)).then([]);
  });
});

describe.each(await databaseKinds())('the daily price refresh on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  let fake: PokemonTcgApiFake;
  let clockNow = Date.parse(AT);
  const clock = { now: () => new Date(clockNow) };
  let n = 0;
  const ids = { uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` };
  const meta = () => ({ actor: { kind: 'user' as const, id: USER }, commandId: ids.uuid(), timestamp: clock.now().toISOString() });
  const market = (value: number) => ({ tcgplayer: { updatedAt: '2026/11/24', prices: { normal: { market: value } } } });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = createEventStore(database, { inline: inlineProjections, clock, ids });
    fake = await startPokemonTcgApiFake({ 'base1-58': market(12.34), 'basep-31': market(4.5), 'base2-60': market(3) });
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
  });
  afterAll(async () => {
    await fake?.close();
    await database?.destroy();
  });

  const run = () => refreshPrices({ database, eventStore: store, prices: createPokemonTcgApiPriceSource({ baseUrl: fake.url, now: () => clockNow }), catalog: shippedCatalog(), clock, ids });
  const history = async () => ({
    cards: await database.db.selectFrom('price_history').select(['card_grade_id', 'price_value', 'source', 'price_date']).orderBy('created_at').orderBy('card_grade_id').execute(),
    portfolio: await database.db.selectFrom('portfolio_price_history').select(['portfolio_card_id', 'price', 'source']).orderBy('created_at').orderBy('portfolio_card_id').execute(),
  });

  it('records each identified card’s price, then nothing while prices stand, then each change once', async () => {
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
    const shown = await database.db.selectFrom('card_grades').select(['id', 'estimated_value', 'result']).where('id', '=', 'aaaaaaaaaaaaaaaaaaaaaa').executeTakeFirstOrThrow();
    expect(shown.estimated_value).toBe('$12.34 (TCGplayer market, Near Mint, 2026-11-24)');
    const result = typeof shown.result === 'string' ? JSON.parse(shown.result) : shown.result;
    expect(result.estimatedValue).toBe('$12.34 (TCGplayer market, Near Mint, 2026-11-24)');

    clockNow += 24 * 3_600_000 + 1; // a day later: the cache has expired, the market has not moved
    expect(await run()).toMatchObject({ cardPricesRecorded: 0, portfolioPricesRecorded: 0 });
    expect(await history()).toEqual(first);

    fake.cards.set('base1-58', market(15));
    clockNow += 24 * 3_600_000 + 1;
    expect(await run()).toMatchObject({ cardPricesRecorded: 1, portfolioPricesRecorded: 1 });
    const moved = await history();
    expect(moved.cards).toHaveLength(3);
    expect(moved.portfolio.map((r) => r.price)).toEqual(['12.34', '50.00', '15.00']);
    const lines: string[] = [];
    await runReplayCommand(['card', 'aaaaaaaaaaaaaaaaaaaaaa'], store, (line) => lines.push(line));
    expect(lines.map((line) => (JSON.parse(line) as { summary: string }).summary)).toEqual([
      expect.stringMatching(/^graded .* as "Pikachu" \(catalogue base1-58, confidence 0.97\) for user:/),
      'price $12.34 on 2026-11-25 at grade 10, from TCGplayer market, Near Mint, 2026-11-24',
      'price $15.00 on 2026-11-27 at grade 10, from TCGplayer market, Near Mint, 2026-11-24',
    ]);
    const mine = await database.db.selectFrom('portfolio_cards').select(['card_name', 'current_price', 'price_source']).orderBy('id').execute();
    expect(mine.map((c) => c.current_price)).toEqual(['15.00', '50.00', null]);
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

  it('a rebuild gives the price histories back row for row', async () => {
    const live = { cards: await tableRows(database.db, 'price_history'), grades: await tableRows(database.db, 'card_grades'), portfolio: await tableRows(database.db, 'portfolio_price_history'), held: await tableRows(database.db, 'portfolio_cards') };
    await rebuildProjection(database, store, cardsProjection, 'inline');
    await rebuildProjection(database, store, portfolioProjection, 'inline');
    expect({ cards: await tableRows(database.db, 'price_history'), grades: await tableRows(database.db, 'card_grades'), portfolio: await tableRows(database.db, 'portfolio_price_history'), held: await tableRows(database.db, 'portfolio_cards') }).toEqual(live);
    expect((live.cards as unknown[]).length).toBe(3);
  });
});
