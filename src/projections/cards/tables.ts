import type { ColumnType } from 'kysely';
import type { Subgrades, ValueEstimate } from '../../contracts/grading.ts';
import type { ConfirmedCatalogCard, GradedValues } from '../../domain/cards/index.ts';

// The card_grades and price_history read models (SPEC.md §3), and each collection's version. Written only by
// the cards projection.

export interface CardGradesTable {
  /** The card id: 22 characters of an HMAC (src/commands/cards/card-ids.ts). */
  id: string;
  /** `user:<id>` or `guest:<id>`. */
  owner: string;
  /** SPEC.md's userId: null while a guest owns the card. */
  user_id: string | null;
  card_name: string;
  card_set: string | null;
  card_number: string | null;
  card_description: string | null;
  set_description: string | null;
  card_facts: string | null;
  card_type: string;
  image_url: string | null;
  back_image_url: string | null;
  /** The flattened card (issue 35), shown in place of the photo; null on a card graded before it was kept. */
  card_image_url: string | null;
  /** Its thumbnail, for the collection's tiles. */
  card_thumb_url: string | null;
  back_card_image_url: string | null;
  grades: ColumnType<Subgrades, string, string>;
  overall_grade: number;
  condition_analysis: string | null;
  estimated_value: string | null;
  psa10_value: string | null;
  rarity: string | null;
  comc_id: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  front_image_hash: string;
  back_image_hash: string | null;
  annotated_front_hash: string | null;
  annotated_back_hash: string | null;
  /** The tilt shot's picture of the reflected light (issue 31); null without one. */
  reflected_light_hash: string | null;
  /**
   * The CardGraded event the row was written from, by its place in the log (global_position): everything the engine
   * said, measurements included, is read from there (queries.ts findCard).
   */
  graded_event_position: number;
  /** The last recorded price shown in place of the grading's estimate; null while the grading's own shows. */
  recorded_estimate: ColumnType<ValueEstimate | null, string | null, string | null>;
  /** When the owner saved it to the collection; null while it is only graded (not in the collection). */
  saved_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  /** A sample card (Restore Sample Cards): in the collection, marked, counted for nothing. */
  sample: ColumnType<boolean, boolean | undefined, boolean>;
  /** The catalogue card it was identified as ("base1-58"), for the price refresh; null when unmatched. */
  catalog_id: string | null;
  /** The catalogue card its owner confirmed (issue 32), laid over the grading's identification; null until then. */
  confirmed_identification: ColumnType<ConfirmedCatalogCard | null, string | null, string | null>;
  /** The engine that made the card's latest grade (its grading, or the latest `npm run regrade`), and that grade. */
  engine_vision: ColumnType<string, string | undefined, string>;
  engine_calibration: ColumnType<string, string | undefined, string>;
  latest_overall_grade: number;
}

export interface PriceHistoryTable {
  /** The CardPriceRecorded event's id. */
  id: string;
  card_grade_id: string;
  /** `date`: read back as a Date at midnight UTC on PostgreSQL and PGlite alike; see queries.ts. */
  price_date: ColumnType<Date | string, string, string>;
  price_value: number;
  source: string;
  grade: number;
  created_at: ColumnType<Date, Date | string, Date | string>;
  /** The values by grade recorded with the price (issue 32), with their source, currency and day; null without. */
  graded_values: ColumnType<GradedValues | null, string | null, string | null>;
}

/** Which version of each collection (`user:<id>` or `guest:<id>`) is current: the last event that changed it. */
export interface CardCollectionsTable {
  owner: string;
  version: number;
}

/** What each card's regrade job did, per `npm run regrade` run (written by the jobs, read by the command). */
export interface RegradeOutcomesTable {
  run_id: string;
  card_id: string;
  /** regraded | would-regrade | current | gone | refused | failed */
  outcome: string;
  old_grade: number | null;
  old_engine: string | null;
  new_grade: number | null;
  new_engine: string | null;
  message: string | null;
  finished_at: ColumnType<Date, Date | string | undefined, never>;
}

/** How far each external feed has been read (the order status feed): its cursor, opaque to us. */
export interface ProviderFeedCursorsTable {
  feed: string;
  cursor: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface CardTables {
  card_grades: CardGradesTable;
  price_history: PriceHistoryTable;
  card_collections: CardCollectionsTable;
  regrade_outcomes: RegradeOutcomesTable;
  provider_feed_cursors: ProviderFeedCursorsTable;
}
