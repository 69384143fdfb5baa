import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortfolioCardEvent } from '../../src/domain/portfolio/index.ts';
import { createEventStore, type EventStore } from '../../src/infra/event-store/index.ts';
import * as holdingsMigration from '../../src/infra/database/migrations/0011-portfolio-holdings.ts';
import { inlineProjections } from '../../src/projections/index.ts';
import { portfolioValueHistory } from '../../src/projections/portfolio/queries.ts';
import { rebuildProjection } from '../../src/projections/runner/index.ts';
import { details } from '../portfolio/portfolio-fixture.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/database.ts';

// The portfolio value chart from events appended straight to the log, on both engines: each New York day counts the
// cards held that day (from the day one was added until the day it was removed) at its latest price that day, and
// their cost; removing a card changes the days from then on only. A rebuild gives the same rows.

// Noon in New York, the given March 2026 day.
const noon = (day: number) => `2026-03-${String(day).padStart(2, '0')}T17:00:00.000Z`;

describe.each(await databaseKinds())('portfolio value history on %s', (kind) => {
  let database: TestDatabase;
  let store: EventStore;
  let cardNumber = 0;
  const owner = `user:${randomUUID()}` as const;
  const other = `user:${randomUUID()}` as const;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = createEventStore(database, { inline: inlineProjections });
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const append = (cardId: number, at: string, events: PortfolioCardEvent[]) =>
    store.append(`portfolio-card-${cardId}`, 'portfolio-card', events.map((e) => ({ ...e, metadata: { actor: { kind: 'system', id: 'test' }, commandId: randomUUID(), timestamp: at } })), { expected: 'any' });

  async function addCard(who: typeof owner, at: string, acquisitionCents: number | null, priceCents: number): Promise<number> {
    const cardId = ++cardNumber;
    await append(cardId, at, [{ type: 'PortfolioCardAdded', data: { cardId, owner: who, details: details({ acquisitionPrice: acquisitionCents }), addedAt: at } }]);
    await price(cardId, at, priceCents);
    return cardId;
  }
  const price = (cardId: number, at: string, cents: number) =>
    append(cardId, at, [{ type: 'PortfolioCardPriced', data: { cardId, price: cents, source: 'TCGplayer', priceDate: at.slice(0, 10), pricedAt: at } }]);

  const readModels = async () => ({
    cards: (await sql<Record<string, unknown>>`select * from portfolio_cards order by id`.execute(database.db)).rows,
    prices: (await sql<Record<string, unknown>>`select * from portfolio_price_history order by id`.execute(database.db)).rows,
    versions: (await sql<Record<string, unknown>>`select * from portfolio_versions order by owner`.execute(database.db)).rows,
    holdings: (await sql<Record<string, unknown>>`select * from portfolio_holdings order by card_id`.execute(database.db)).rows,
  });

  it('counts a card on the days it was held, at its latest price, and its cost only while held', async () => {
    const first = await addCard(owner, noon(1), 1_000, 500);
    const second = await addCard(owner, noon(3), 2_000, 700);
    // Someone else's card never counts.
    await addCard(other, noon(2), 99_900, 99_900);
    // A corrected acquisition price is what the card cost all along.
    await append(first, noon(4), [{ type: 'PortfolioCardEdited', data: { cardId: first, changes: { acquisitionPrice: 1_200 }, editedAt: noon(4) } }]);
    await price(first, noon(5), 600);
    // Removed at 22:30 in New York on the 6th (03:30 UTC on the 7th): the 6th's end no longer has it.
    await append(first, '2026-03-07T03:30:00.000Z', [{ type: 'PortfolioCardRemoved', data: { cardId: first, owner, removedAt: '2026-03-07T03:30:00.000Z' } }]);
    await price(second, noon(9), 800);

    const expected = [
      { date: '2026-03-01', value: '5.00', cost: '12.00' },
      { date: '2026-03-03', value: '12.00', cost: '32.00' },
      { date: '2026-03-05', value: '13.00', cost: '32.00' },
      { date: '2026-03-06', value: '7.00', cost: '20.00' },
      { date: '2026-03-09', value: '8.00', cost: '20.00' },
      { date: '2026-03-10', value: '8.00', cost: '20.00' },
    ];
    expect(await portfolioValueHistory(database.db, owner, new Date(noon(10)))).toEqual(expected);
    // The days before the removal read as they did before it.
    expect(await portfolioValueHistory(database.db, owner, new Date(noon(5)))).toEqual(expected.slice(0, 3));

    // The removed card is out of the portfolio, its prices and its days held kept for the chart.
    const models = await readModels();
    expect(models.cards.map((c) => c.id)).not.toContain(first);
    expect(models.prices.filter((p) => p.portfolio_card_id === first)).toHaveLength(2);
    expect(models.holdings.filter((h) => h.card_id === first)).toMatchObject([{ owner, acquisition_price: '12.00', removed_at: new Date('2026-03-07T03:30:00.000Z') }]);
    expect(models.holdings.filter((h) => h.card_id === second)).toMatchObject([{ owner, removed_at: null, acquisition_price: '20.00' }]);
  });

  it('counts nothing for a card added and removed the same day, and nothing for an empty portfolio', async () => {
    const lone = `user:${randomUUID()}` as const;
    expect(await portfolioValueHistory(database.db, lone, new Date(noon(10)))).toEqual([]);
    const card = await addCard(lone, noon(2), 300, 400);
    await append(card, noon(2), [{ type: 'PortfolioCardRemoved', data: { cardId: card, owner: lone, removedAt: noon(2) } }]);
    expect(await portfolioValueHistory(database.db, lone, new Date(noon(3)))).toEqual([
      { date: '2026-03-02', value: '0.00', cost: '0.00' },
      { date: '2026-03-03', value: '0.00', cost: '0.00' },
    ]);
  });

  it('rebuilds the portfolio read models, removed cards included, equal row for row to the live ones', async () => {
    const live = await readModels();
    expect(live.holdings.some((h) => h.removed_at !== null)).toBe(true);
    const chart = await portfolioValueHistory(database.db, owner, new Date(noon(10)));
    // Damage the live rows: the rebuild must come from the log.
    await sql`update portfolio_holdings set removed_at = null`.execute(database.db);
    await sql`delete from portfolio_price_history`.execute(database.db);
    const projection = inlineProjections.find((p) => p.name === 'portfolio')!;
    await rebuildProjection(database, store, projection, 'inline', { batchSize: 3 });
    expect(await readModels()).toEqual(live);
    expect(await portfolioValueHistory(database.db, owner, new Date(noon(10)))).toEqual(chart);
  });

  it('migrates a database from before the holdings with the cards held then (a rebuild brings back the removed ones)', async () => {
    const live = await readModels();
    const db = database.db as unknown as Kysely<unknown>;
    await holdingsMigration.down(db);
    await holdingsMigration.up(db);
    const held = live.holdings.filter((h) => h.removed_at === null);
    expect(held.length).toBeGreaterThan(0);
    expect((await readModels()).holdings).toEqual(held);
    await rebuildProjection(database, store, inlineProjections.find((p) => p.name === 'portfolio')!, 'inline');
    expect(await readModels()).toEqual(live);
  });
});
