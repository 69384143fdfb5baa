import { sql, type Kysely } from 'kysely';
import { centsToDecimal, decimalToCents, newYorkDate } from '../../contracts/money.ts';
import type { GradedValuesView, PortfolioCard, PortfolioPrice, PortfolioValuePoint } from '../../contracts/portfolio.ts';
import type { GradedValues } from '../../domain/cards/index.ts';
import type { Tables } from '../../infra/database/schema.ts';

// Reads of the portfolio for its owner only: every query takes the owner, so another user's card is simply not
// found. Money and dates are read as text: numeric(10,2) stays an exact decimal string, a date stays its day.

const iso = (value: Date | string) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());

function cardColumns(db: Kysely<Tables>) {
  return db
    .selectFrom('portfolio_cards')
    .select([
      'id',
      'user_id',
      'card_name',
      'card_set',
      'card_number',
      'card_year',
      'is_graded',
      'grading_company',
      'official_grade',
      'estimated_grade',
      'price_source',
      'image_url',
      'back_image_url',
      'card_image_url',
      'card_thumb_url',
      'back_card_image_url',
      // The graded card it came from, while that card is still in the owner's collection.
      sql<string | null>`(select g.id from card_grades g where g.id = portfolio_cards.graded_card_id and g.owner = portfolio_cards.owner and g.saved_at is not null)`.as(
        'graded_card_id',
      ),
      'condition',
      'rarity',
      'category',
      'notes',
      'created_at',
      'updated_at',
      sql<string | null>`current_price::text`.as('current_price'),
      sql<string | null>`acquisition_price::text`.as('acquisition_price'),
      sql<string | null>`acquisition_date::text`.as('acquisition_date'),
    ]);
}

type CardRow = Awaited<ReturnType<ReturnType<typeof cardColumns>['executeTakeFirstOrThrow']>>;

function cardView(row: CardRow): PortfolioCard {
  return {
    id: row.id,
    userId: row.user_id,
    cardName: row.card_name,
    cardSet: row.card_set,
    cardNumber: row.card_number,
    cardYear: row.card_year,
    isGraded: row.is_graded,
    gradingCompany: row.grading_company,
    officialGrade: row.official_grade,
    estimatedGrade: row.estimated_grade,
    currentPrice: row.current_price,
    priceSource: row.price_source,
    imageUrl: row.image_url,
    backImageUrl: row.back_image_url,
    cardImageUrl: row.card_image_url,
    cardThumbUrl: row.card_thumb_url,
    backCardImageUrl: row.back_card_image_url,
    gradedCardId: row.graded_card_id,
    condition: row.condition,
    rarity: row.rarity,
    category: row.category,
    notes: row.notes,
    acquisitionPrice: row.acquisition_price,
    acquisitionDate: row.acquisition_date,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** GET /api/portfolio: the owner's cards, newest first. */
export async function portfolioOf(db: Kysely<Tables>, owner: string): Promise<PortfolioCard[]> {
  const rows = await cardColumns(db).where('owner', '=', owner).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(cardView);
}

/** The owner's portfolio entry added from this graded card, if there is one (the first). */
export async function portfolioEntryOf(db: Kysely<Tables>, owner: string, gradedCardId: string): Promise<number | null> {
  const row = await db
    .selectFrom('portfolio_cards')
    .select((eb) => eb.fn.min('id').as('id'))
    .where('owner', '=', owner)
    .where('graded_card_id', '=', gradedCardId)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** One card, if the owner has it. */
export async function findPortfolioCard(db: Kysely<Tables>, owner: string, id: number): Promise<PortfolioCard | null> {
  const row = await cardColumns(db).where('owner', '=', owner).where('id', '=', id).executeTakeFirst();
  return row ? cardView(row) : null;
}

/** The values by grade as the API gives them: each amount in cents and as an exact decimal string. */
function gradedValuesView(graded: GradedValues | null): GradedValuesView | null {
  if (!graded) return null;
  return { ...graded, grades: graded.grades.map((figure) => ({ ...figure, amount: centsToDecimal(figure.cents) })) };
}

/** Every price recorded for a card, oldest first, with the values by grade recorded beside it. Call only for a card the caller owns. */
export async function portfolioPriceHistory(db: Kysely<Tables>, cardId: number): Promise<PortfolioPrice[]> {
  const rows = await db
    .selectFrom('portfolio_price_history')
    .select(['source', 'created_at', 'graded_values', sql<string>`price::text`.as('price'), sql<string>`price_date::text`.as('price_date')])
    .where('portfolio_card_id', '=', cardId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ priceDate: r.price_date, price: r.price, source: r.source, createdAt: iso(r.created_at), graded: gradedValuesView(r.graded_values) }));
}

/**
 * The portfolio's value (each card held at its latest price that day) and cost basis (what was paid for the cards
 * held that day) at the end of every New York day on which either changed, and today. A card is held from the day
 * it was added until the day it was removed (not on that day: the point is the day's end), so removing a card
 * changes the days from its removal on, never the days before.
 */
export async function portfolioValueHistory(db: Kysely<Tables>, owner: string, now: Date): Promise<PortfolioValuePoint[]> {
  const cards = await db
    .selectFrom('portfolio_holdings')
    .select(['card_id as id', 'added_at', 'removed_at', sql<string | null>`acquisition_price::text`.as('acquisition_price')])
    .where('owner', '=', owner)
    .execute();
  if (cards.length === 0) return [];
  const prices = await db
    .selectFrom('portfolio_price_history as h')
    .innerJoin('portfolio_holdings as c', 'c.card_id', 'h.portfolio_card_id')
    .select(['h.portfolio_card_id as cardId', sql<string>`h.price::text`.as('price'), sql<string>`h.price_date::text`.as('priceDate')])
    .where('c.owner', '=', owner)
    .orderBy('h.created_at')
    .orderBy('h.id')
    .execute();

  // Day → what changed that day: cards arriving and leaving (their cost with them) and prices set (the last one of
  // the day counts).
  const changes = new Map<string, { cost: number; arrived: number[]; left: number[] }>();
  const changesOn = (day: string) => {
    let entry = changes.get(day);
    if (!entry) changes.set(day, (entry = { cost: 0, arrived: [], left: [] }));
    return entry;
  };
  for (const card of cards) {
    const cost = card.acquisition_price === null ? 0 : decimalToCents(card.acquisition_price);
    const arrival = changesOn(newYorkDate(card.added_at));
    arrival.cost += cost;
    arrival.arrived.push(card.id);
    if (card.removed_at !== null) {
      const removal = changesOn(newYorkDate(card.removed_at));
      removal.cost -= cost;
      removal.left.push(card.id);
    }
  }
  const pricing = new Map<string, Map<number, number>>();
  for (const p of prices) {
    const day = pricing.get(p.priceDate) ?? new Map<number, number>();
    day.set(p.cardId, decimalToCents(p.price));
    pricing.set(p.priceDate, day);
  }

  const today = newYorkDate(now);
  const days = [...new Set([...changes.keys(), ...pricing.keys(), today])].sort();
  const held = new Set<number>();
  const latest = new Map<number, number>();
  let cost = 0;
  const points: PortfolioValuePoint[] = [];
  for (const day of days) {
    const changed = changes.get(day);
    if (changed) {
      cost += changed.cost;
      for (const id of changed.arrived) held.add(id);
      for (const id of changed.left) held.delete(id);
    }
    for (const [id, cents] of pricing.get(day) ?? []) latest.set(id, cents);
    let value = 0;
    for (const id of held) value += latest.get(id) ?? 0;
    if (day <= today) points.push({ date: day, value: centsToDecimal(value), cost: centsToDecimal(cost) });
  }
  return points;
}
