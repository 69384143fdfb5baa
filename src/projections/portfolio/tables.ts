import type { ColumnType } from 'kysely';
import type { GradedValues } from '../../domain/cards/index.ts';

// The portfolio read models (SPEC.md §3 Portfolio card, Portfolio price history), written only by the portfolio
// projection. numeric(10,2) columns go in as decimal strings and are read back as text (queries.ts), never as floats.

type Decimal = ColumnType<string, string | null, string | null>;
type Day = ColumnType<Date | string, string | null, string | null>;

export interface PortfolioCardsTable {
  id: number;
  /** `user:<id>` */
  owner: string;
  user_id: string;
  card_name: string;
  card_set: string | null;
  card_number: string | null;
  card_year: string | null;
  is_graded: boolean;
  grading_company: string | null;
  official_grade: number | null;
  estimated_grade: number | null;
  current_price: Decimal | null;
  price_source: string | null;
  image_url: string | null;
  back_image_url: string | null;
  /** The flattened card (issue 35) and its thumbnail, shown in place of the photo; null: show the photo. */
  card_image_url: string | null;
  card_thumb_url: string | null;
  back_card_image_url: string | null;
  /** The owner's graded card it was added from (card_grades.id), linking the two; null for any other card. */
  graded_card_id: string | null;
  condition: string | null;
  rarity: string | null;
  category: string;
  notes: string | null;
  acquisition_price: Decimal | null;
  acquisition_date: Day | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

export interface PortfolioPriceHistoryTable {
  /** The PortfolioCardPriced event's id. */
  id: string;
  portfolio_card_id: number;
  price_date: Day;
  price: Decimal;
  source: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  /** The values by grade recorded with the price (issue 32), with their source, currency and day; null without. */
  graded_values: ColumnType<GradedValues | null, string | null, string | null>;
}

/**
 * Every card a portfolio has held, removed ones too, for the value chart: a card counts from the New York day it
 * was added until the day it was removed, at its acquisition price while held. Its prices stay in
 * portfolio_price_history after it is removed, for the same reason.
 */
export interface PortfolioHoldingsTable {
  card_id: number;
  /** `user:<id>` */
  owner: string;
  added_at: ColumnType<Date, Date | string, Date | string>;
  removed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  acquisition_price: Decimal | null;
}

/** Which version of each portfolio is current: the global position of the last event that changed it. */
export interface PortfolioVersionsTable {
  owner: string;
  version: ColumnType<string | number, number, number>;
}

export interface PortfolioTables {
  portfolio_cards: PortfolioCardsTable;
  portfolio_price_history: PortfolioPriceHistoryTable;
  portfolio_versions: PortfolioVersionsTable;
  portfolio_holdings: PortfolioHoldingsTable;
}
