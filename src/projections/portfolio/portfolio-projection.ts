import type { Insertable, Updateable } from 'kysely';
import { centsToDecimal } from '../../contracts/money.ts';
import {
  portfolioCardAddedSchema,
  portfolioCardEditedSchema,
  portfolioCardPricedSchema,
  portfolioCardRemovedSchema,
  type PortfolioCardDetails,
} from '../../domain/portfolio/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import { userIdOf } from '../cards/owner.ts';
import { rowProjection } from '../runner/row-projection.ts';
import { rowTable, type RowStore } from '../runner/row-store.ts';

// Inline: the portfolio shows a card the moment it is added, edited, priced or removed. Every recorded price is a
// row of portfolio_price_history, keyed by its event's id, so a rebuild gives the same rows; portfolio_versions the
// version of each portfolio, for GET /api/portfolio's cache. The value chart counts each day's cards as they were
// that day, so a removed card leaves portfolio_cards but keeps its prices and its portfolio_holdings row (the days
// it was held, what it cost).

type CardRow = Insertable<Tables['portfolio_cards']>;
type DetailColumns = Omit<CardRow, 'id' | 'owner' | 'user_id' | 'current_price' | 'price_source' | 'created_at' | 'updated_at'>;

const money = (cents: number | null) => (cents === null ? null : centsToDecimal(cents));

const columnOf: { [K in keyof PortfolioCardDetails]: (value: PortfolioCardDetails[K]) => Partial<Record<keyof DetailColumns, unknown>> } = {
  cardName: (v) => ({ card_name: v }),
  cardSet: (v) => ({ card_set: v }),
  cardNumber: (v) => ({ card_number: v }),
  cardYear: (v) => ({ card_year: v }),
  isGraded: (v) => ({ is_graded: v }),
  gradingCompany: (v) => ({ grading_company: v }),
  officialGrade: (v) => ({ official_grade: v }),
  estimatedGrade: (v) => ({ estimated_grade: v }),
  imageUrl: (v) => ({ image_url: v }),
  backImageUrl: (v) => ({ back_image_url: v }),
  cardImageUrl: (v) => ({ card_image_url: v ?? null }),
  cardThumbUrl: (v) => ({ card_thumb_url: v ?? null }),
  backCardImageUrl: (v) => ({ back_card_image_url: v ?? null }),
  condition: (v) => ({ condition: v }),
  rarity: (v) => ({ rarity: v }),
  category: (v) => ({ category: v }),
  notes: (v) => ({ notes: v }),
  acquisitionPrice: (v) => ({ acquisition_price: money(v) }),
  acquisitionDate: (v) => ({ acquisition_date: v }),
};

function detailColumns(details: Partial<PortfolioCardDetails>): Updateable<Tables['portfolio_cards']> {
  const columns: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    Object.assign(columns, (columnOf[key as keyof PortfolioCardDetails] as (v: unknown) => object)(value));
  }
  return columns as Updateable<Tables['portfolio_cards']>;
}

const portfolioCards = rowTable('portfolio_cards', ['id']);
const priceHistory = rowTable('portfolio_price_history', ['id']);
const portfolioVersions = rowTable('portfolio_versions', ['owner']);
const holdings = rowTable('portfolio_holdings', ['card_id']);

/** The portfolio changed with this event: its version is the event's place in the log. */
function touchPortfolio(rows: RowStore, owner: string, version: number): void {
  rows.put(portfolioVersions, { owner, version });
}

/** Edits and prices do not name the owner: the card's row does. */
async function touchPortfolioOf(rows: RowStore, cardId: number, version: number): Promise<void> {
  const row = await rows.get(portfolioCards, { id: cardId });
  if (row) touchPortfolio(rows, row.owner, version);
}

export const portfolioProjection = rowProjection({
  name: 'portfolio',
  handles: ['PortfolioCardAdded', 'PortfolioCardEdited', 'PortfolioCardPriced', 'PortfolioCardRemoved'],
  tables: [portfolioCards, priceHistory, portfolioVersions, holdings],
  async handle(rows, event) {
    const version = event.globalPosition;
    switch (event.type) {
      case 'PortfolioCardAdded': {
        const { cardId, owner, details, addedAt, gradedCardId } = portfolioCardAddedSchema.parse(event.data);
        await rows.insertIfAbsent(portfolioCards, {
          ...(detailColumns(details) as DetailColumns),
          graded_card_id: gradedCardId ?? null,
          id: cardId,
          owner,
          user_id: userIdOf(owner)!,
          current_price: null,
          price_source: null,
          created_at: addedAt,
          updated_at: addedAt,
        });
        await rows.insertIfAbsent(holdings, { card_id: cardId, owner, added_at: addedAt, removed_at: null, acquisition_price: money(details.acquisitionPrice) });
        touchPortfolio(rows, owner, version);
        return;
      }
      case 'PortfolioCardEdited': {
        const { cardId, changes, editedAt } = portfolioCardEditedSchema.parse(event.data);
        await rows.update(portfolioCards, { id: cardId }, { ...detailColumns(changes), updated_at: editedAt });
        if (changes.acquisitionPrice !== undefined) await rows.update(holdings, { card_id: cardId }, { acquisition_price: money(changes.acquisitionPrice) });
        await touchPortfolioOf(rows, cardId, version);
        return;
      }
      case 'PortfolioCardPriced': {
        const { cardId, price, source, priceDate, pricedAt, graded } = portfolioCardPricedSchema.parse(event.data);
        await rows.update(portfolioCards, { id: cardId }, { current_price: money(price), price_source: source, updated_at: pricedAt });
        await touchPortfolioOf(rows, cardId, version);
        // A price taken away is no price: the history holds prices only.
        if (price !== null) {
          await rows.insertIfAbsent(priceHistory, {
            id: event.eventId,
            portfolio_card_id: cardId,
            price_date: priceDate,
            price: money(price)!,
            source: source ?? '',
            created_at: pricedAt,
            graded_values: graded ? JSON.stringify(graded) : null,
          });
        }
        return;
      }
      case 'PortfolioCardRemoved': {
        const { cardId, owner, removedAt } = portfolioCardRemovedSchema.parse(event.data);
        await rows.delete(portfolioCards, { id: cardId });
        await rows.update(holdings, { card_id: cardId }, { removed_at: removedAt });
        touchPortfolio(rows, owner, version);
        return;
      }
    }
  },
});
