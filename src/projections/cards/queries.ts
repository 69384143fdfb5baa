import { sql, type Kysely, type Selectable } from 'kysely';
import type { CardResult, CollectionCard } from '../../contracts/cards.ts';
import { NOT_AVAILABLE, type GradedCard } from '../../contracts/grading.ts';
import { cardGradedSchema, type ConfirmedCatalogCard, type GradedValues } from '../../domain/cards/index.ts';
import type { AnalysedPictures } from '../../domain/portfolio/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import { upcastStored } from '../../infra/event-store/index.ts';
import { withRecordedEstimate } from './cards-projection.ts';
import { imageUrl } from './image-urls.ts';
import type { CardGradesTable } from './tables.ts';

// Reads of the card_grades and price_history read models.

/** A graded card's row, with the engine's whole result as the card's page shows it. */
export type CardGradeRow = Selectable<CardGradesTable> & { result: GradedCard };

/**
 * The card's row, and its result read from the CardGraded event the row was written from (lifted by the event
 * store's upcasters and parsed as the projection parsed it when it kept the result in the row), with a recorded
 * price laid over it.
 */
export async function findCard(db: Kysely<Tables>, cardId: string): Promise<CardGradeRow | undefined> {
  const found = await db
    .selectFrom('card_grades as g')
    .innerJoin('es_events as e', 'e.global_position', 'g.graded_event_position')
    .selectAll('g')
    .select(['e.schema_version', 'e.data'])
    .where('g.id', '=', cardId)
    .executeTakeFirst();
  if (!found) return undefined;
  const { schema_version: schemaVersion, data, ...row } = found;
  const { result } = cardGradedSchema.parse(upcastStored('CardGraded', schemaVersion, data).data);
  // The row's name is the card's: its owner's (CardRenamed), else what identification stands behind (issue 35). A
  // price recorded since the owner confirmed another card is that card's: it is laid over the confirmed card.
  return { ...row, result: { ...withRecordedEstimate(withConfirmedIdentification(result, row.confirmed_identification), row.recorded_estimate), cardName: row.card_name } };
}

/**
 * The result with the catalogue card its owner confirmed (issue 32) in place of what identification said: its set,
 * number, year, facts and rarity, no candidates any more, and the grading's value gone when it was another card's.
 */
export function withConfirmedIdentification(result: GradedCard, confirmed: ConfirmedCatalogCard | null): GradedCard {
  if (!confirmed) return result;
  const { catalogId, cardName, cardSet, cardNumber, cardYear, rarity, cardFacts, setDescription } = confirmed;
  const sameCard = result.identification.catalogId === catalogId;
  const { catalogCandidates: _offered, nameCandidates: _names, ...identification } = result.identification;
  return {
    ...result,
    cardSet,
    cardNumber,
    cardFacts,
    setDescription,
    rarity,
    ...(sameCard ? {} : { estimatedValue: NOT_AVAILABLE, psa10Value: NOT_AVAILABLE }),
    identification: {
      ...identification,
      ...(sameCard ? {} : { estimatedValue: null, psa10Value: null, evidence: undefined }),
      cardName,
      cardSet,
      cardNumber,
      cardYear,
      rarity,
      cardFacts,
      setDescription,
      catalogId,
      catalogConfidence: 1,
      confirmedByOwner: true,
    },
  };
}

/** The pictures of a card's row as the portfolio keeps them: the photos the collection shows, and the flattened card. */
export function gradedCardPictures(row: Selectable<CardGradesTable>): AnalysedPictures {
  return {
    // A HEIC's JPEG copy, not the file itself.
    imageUrl: row.image_url ?? imageUrl(row.front_image_hash),
    backImageUrl: row.back_image_url,
    cardImageUrl: row.card_image_url,
    cardThumbUrl: row.card_thumb_url,
    backCardImageUrl: row.back_card_image_url,
  };
}

/** The Grading result of SPEC.md §3 with its evidence (POST /api/grade-card, GET /api/card/{id}). */
export function cardResultView(row: CardGradeRow): CardResult {
  return {
    ...row.result,
    id: row.id,
    imageUrl: row.image_url,
    backImageUrl: row.back_image_url,
    annotatedImageUrl: row.annotated_front_hash ? imageUrl(row.annotated_front_hash) : null,
    annotatedBackImageUrl: row.annotated_back_hash ? imageUrl(row.annotated_back_hash) : null,
    reflectedLightImageUrl: row.reflected_light_hash ? imageUrl(row.reflected_light_hash) : null,
    comcId: row.comc_id,
    cardType: row.card_type,
    createdAt: row.created_at.toISOString(),
  };
}

const collectionColumns = [
  'id',
  'user_id',
  'card_name',
  'card_set',
  'card_number',
  'card_description',
  'set_description',
  'card_facts',
  'card_type',
  'image_url',
  'back_image_url',
  'card_image_url',
  'card_thumb_url',
  'back_card_image_url',
  'grades',
  'overall_grade',
  'condition_analysis',
  'estimated_value',
  'psa10_value',
  'rarity',
  'comc_id',
  'created_at',
  'sample',
] as const;

/** One owner's saved cards (`user:<id>` or `guest:<id>`), newest first: GET /api/my-cards; or only those of `onlyIds`. */
export async function collectionOf(db: Kysely<Tables>, owner: string, onlyIds?: readonly string[]): Promise<CollectionCard[]> {
  if (onlyIds?.length === 0) return [];
  let query = db
    .selectFrom('card_grades as g')
    .select(collectionColumns.map((column) => `g.${column}` as const))
    // The owner's portfolio entry added from the card (the first, should there be more).
    .select((eb) =>
      eb
        .selectFrom('portfolio_cards as p')
        .select((p) => p.fn.min('p.id').as('id'))
        .whereRef('p.graded_card_id', '=', 'g.id')
        .whereRef('p.owner', '=', 'g.owner')
        .as('portfolio_card_id'),
    )
    .where('g.owner', '=', owner)
    .where('g.saved_at', 'is not', null);
  if (onlyIds) query = query.where('g.id', 'in', onlyIds);
  const rows = await query.orderBy('g.created_at', 'desc').orderBy('g.id', 'desc').execute();
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    cardName: row.card_name,
    cardSet: row.card_set,
    cardNumber: row.card_number,
    cardDescription: row.card_description,
    setDescription: row.set_description,
    cardFacts: row.card_facts,
    cardType: row.card_type,
    imageUrl: row.image_url,
    backImageUrl: row.back_image_url,
    cardImageUrl: row.card_image_url,
    cardThumbUrl: row.card_thumb_url,
    backCardImageUrl: row.back_card_image_url,
    portfolioCardId: row.portfolio_card_id ?? null,
    grades: row.grades,
    overallGrade: row.overall_grade,
    conditionAnalysis: row.condition_analysis,
    estimatedValue: row.estimated_value,
    psa10Value: row.psa10_value,
    rarity: row.rarity,
    comcId: row.comc_id,
    createdAt: row.created_at.toISOString(),
    sample: row.sample,
  }));
}

/**
 * The later of an owner's collection and portfolio versions (both the place in the log of the last event that changed
 * them): the two link to each other's entries, so a snapshot of either is stale when either changes.
 */
export async function collectionAndPortfolioVersion(db: Kysely<Tables>, owner: string): Promise<number> {
  const [collection, portfolio] = await Promise.all([
    db.selectFrom('card_collections').select('version').where('owner', '=', owner).executeTakeFirst(),
    db.selectFrom('portfolio_versions').select('version').where('owner', '=', owner).executeTakeFirst(),
  ]);
  return Math.max(Number(collection?.version ?? 0), Number(portfolio?.version ?? 0));
}

export interface PriceHistoryEntry {
  id: string;
  cardGradeId: string;
  /** YYYY-MM-DD */
  priceDate: string;
  priceValue: number;
  source: string;
  grade: number;
  createdAt: string;
  /** The values by grade recorded with the price (issue 32); null without. */
  graded: GradedValues | null;
}

export async function priceHistoryOf(db: Kysely<Tables>, cardId: string): Promise<PriceHistoryEntry[]> {
  const rows = await db
    .selectFrom('price_history')
    // A `date` would come back as a Date at local midnight; as text it stays the day it is.
    .select(['id', 'card_grade_id', sql<string>`price_date::text`.as('price_date'), 'price_value', 'source', 'grade', 'created_at', 'graded_values'])
    .where('card_grade_id', '=', cardId)
    .orderBy('price_date')
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    cardGradeId: row.card_grade_id,
    priceDate: row.price_date,
    priceValue: row.price_value,
    source: row.source,
    grade: row.grade,
    createdAt: row.created_at.toISOString(),
    graded: row.graded_values,
  }));
}

/** The card's last recorded price: its source and the values by grade recorded with it; undefined before any. */
export async function latestRecordedPrice(db: Kysely<Tables>, cardId: string): Promise<{ source: string; graded: GradedValues | null } | undefined> {
  const row = await db
    .selectFrom('price_history')
    .select(['source', 'graded_values'])
    .where('card_grade_id', '=', cardId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { source: row.source, graded: row.graded_values } : undefined;
}
