import { sql } from 'kysely';
import type { Logger } from 'pino';
import { newYorkDate } from '../../contracts/money.ts';
import { findRecordedCard } from '../../domain/catalog/index.ts';
import { cardDecider } from '../../domain/cards/index.ts';
import { isMarketSource, portfolioCardDecider } from '../../domain/portfolio/index.ts';
import type { Clock, IdGenerator } from '../../infra/clock/clock.ts';
import type { Database } from '../../infra/database/index.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import { cardStream } from '../cards/streams.ts';
import { handleCommand } from '../handle-command.ts';
import { portfolioCardStream } from '../portfolio/streams.ts';
import { cardPrice, portfolioPrice, priceCatalogCard, type CatalogCardPrice, type CatalogPricing } from './price-catalog-card.ts';

// The daily price refresh: every graded card the catalogue matched (or its owner confirmed), and every portfolio card
// whose name, set and number name a catalogue card (or whose graded card does), is priced again by the price sources
// (./price-catalog-card.ts). A price that changed is recorded as an event (CardPriceRecorded, PortfolioCardPriced), so
// price_history and portfolio_price_history move with the market and a rebuild gives them back row for row; an
// unchanged price, a price the collector typed in, and sources that cannot say record nothing. Only US dollar prices
// are recorded (the histories are in dollars), each with Cardmarket's euro trend and 30-day average and the values by
// grade beside it when the sources list them (a change there is a change too). One run at a time: across processes
// on PostgreSQL (an advisory lock), in the process on PGlite (one process owns its data).

export interface RefreshPricesDeps extends CatalogPricing {
  database: Database;
  eventStore: EventStore;
  clock: Clock;
  ids: IdGenerator;
  logger?: Logger;
}

export interface RefreshSummary {
  /** False when another run held the lock: this one did nothing. */
  ran: boolean;
  cards: number;
  cardPricesRecorded: number;
  portfolioCards: number;
  portfolioPricesRecorded: number;
  /** Cards the source had no dollar price for (with why, in the log). */
  unavailable: number;
}

/** pg_try_advisory_lock's key: "refresh-prices" as a number, fixed. */
const LOCK_KEY = 7_013_001;
/** PGlite databases a run is going on: one process owns a PGlite database, so this is all of its runs. */
const runningOn = new WeakSet<Database>();

export async function refreshPrices(deps: RefreshPricesDeps, signal?: AbortSignal): Promise<RefreshSummary> {
  const idle: RefreshSummary = { ran: false, cards: 0, cardPricesRecorded: 0, portfolioCards: 0, portfolioPricesRecorded: 0, unavailable: 0 };
  const { database } = deps;
  const skipped = () => {
    deps.logger?.info('price refresh skipped: another run is going on');
    return idle;
  };
  if (database.kind === 'pglite') {
    if (runningOn.has(database)) return skipped();
    runningOn.add(database);
    try {
      return await run(deps, signal);
    } finally {
      runningOn.delete(database);
    }
  }
  // PostgreSQL: a session lock on one connection of the pool, which every process (and every other connection of
  // this one) fails to take while this run holds it.
  return await database.db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${LOCK_KEY}) as locked`.execute(connection);
    if (!rows[0]?.locked) return skipped();
    try {
      return await run(deps, signal);
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_KEY})`.execute(connection);
    }
  });
}

async function run(deps: RefreshPricesDeps, signal?: AbortSignal): Promise<RefreshSummary> {
  const { db } = deps.database;
  const summary: RefreshSummary = { ran: true, cards: 0, cardPricesRecorded: 0, portfolioCards: 0, portfolioPricesRecorded: 0, unavailable: 0 };
  const metadata = (): EventMetadata => ({ actor: { kind: 'system', id: 'price-refresh' }, commandId: deps.ids.uuid(), timestamp: deps.clock.now().toISOString() });

  async function dollarPrice(catalogId: string): Promise<CatalogCardPrice | null> {
    const lookup = await priceCatalogCard(deps, catalogId);
    if (lookup.ok) return lookup.price;
    summary.unavailable++;
    deps.logger?.info({ catalogId, reason: lookup.reason }, 'price refresh: no dollar price');
    return null;
  }

  const cards = await db.selectFrom('card_grades').select(['id', 'catalog_id', 'overall_grade']).where('catalog_id', 'is not', null).orderBy('id').execute();
  for (const card of cards) {
    if (signal?.aborted) return summary;
    summary.cards++;
    const price = await dollarPrice(card.catalog_id!);
    if (!price) continue;
    const at = metadata();
    const { events } = await handleCommand(
      { store: deps.eventStore, metadata: at },
      {
        ...cardStream(card.id),
        decider: cardDecider,
        command: {
          type: 'RecordCardPrice',
          data: { ...cardPrice(price), cardId: card.id, priceDate: at.timestamp.slice(0, 10), grade: card.overall_grade, recordedAt: at.timestamp },
        },
      },
    );
    summary.cardPricesRecorded += events.length;
  }

  const held = await db
    .selectFrom('portfolio_cards as p')
    // The graded card an entry was added from, while its owner still has it: the catalogue card it was matched or
    // confirmed as, for an entry whose own name, set and number name none ("Unknown card" added before a confirmation).
    .leftJoin('card_grades as g', (join) => join.onRef('g.id', '=', 'p.graded_card_id').onRef('g.owner', '=', 'p.owner'))
    .select(['p.id', 'p.card_name', 'p.card_set', 'p.card_number', 'p.current_price', 'p.price_source', 'g.catalog_id'])
    .orderBy('p.id')
    .execute();
  for (const card of held) {
    if (signal?.aborted) return summary;
    if (card.current_price !== null && !isMarketSource(card.price_source)) continue; // the collector's own figure
    const catalogId = findRecordedCard(deps.catalog, { cardName: card.card_name, cardSet: card.card_set, cardNumber: card.card_number })?.id ?? card.catalog_id;
    if (!catalogId) continue;
    summary.portfolioCards++;
    const price = await dollarPrice(catalogId);
    if (!price) continue;
    const at = metadata();
    const { events } = await handleCommand(
      { store: deps.eventStore, metadata: at },
      {
        ...portfolioCardStream(card.id),
        decider: portfolioCardDecider,
        command: {
          type: 'RefreshPortfolioCardPrice',
          data: { ...portfolioPrice(price), cardId: card.id, at: at.timestamp },
        },
      },
    );
    summary.portfolioPricesRecorded += events.length;
  }
  deps.logger?.info({ ...summary, day: newYorkDate(deps.clock.now()) }, 'price refresh done');
  return summary;
}
