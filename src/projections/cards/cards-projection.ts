import type { Insertable, Transaction } from 'kysely';
import {
  cardDeletedSchema,
  cardGradedSchema,
  cardOwnerChangedSchema,
  cardPriceRecordedSchema,
  cardSavedSchema,
  savedOnGrading,
  type CardGraded,
  type CardPriceRecorded,
} from '../../domain/cards/index.ts';
import type { GradedCard } from '../../contracts/grading.ts';
import { formatUsd } from '../../contracts/money.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { InlineProjection, RecordedEvent } from '../../infra/event-store/types.ts';
import { imageUrl } from './image-urls.ts';
import { userIdOf } from './owner.ts';

// Inline: a graded card's row is there the moment it is graded (its /card/{id} page), the collection shows it the
// moment it is saved, and loses it the moment it is deleted. card_grades holds SPEC.md §3's columns plus the engine's
// whole result, so the shared card answers from one row; card_collections the version of each collection, for
// GET /api/my-cards's cache.

function cardRow(data: CardGraded['data']) {
  const { result } = data;
  return {
    id: data.cardId,
    owner: data.owner,
    user_id: userIdOf(data.owner),
    card_name: result.cardName,
    card_set: result.cardSet,
    card_number: result.cardNumber,
    card_description: null,
    set_description: result.setDescription,
    card_facts: result.cardFacts,
    card_type: data.cardType,
    image_url: imageUrl(data.images.front.hash),
    back_image_url: data.images.back ? imageUrl(data.images.back.hash) : null,
    grades: JSON.stringify(result.grades),
    overall_grade: result.overallGrade,
    condition_analysis: result.conditionAnalysis,
    estimated_value: result.estimatedValue,
    psa10_value: result.psa10Value,
    rarity: result.rarity,
    comc_id: data.comcId ?? null,
    created_at: data.gradedAt,
    front_image_hash: data.images.front.hash,
    back_image_hash: data.images.back?.hash ?? null,
    annotated_front_hash: data.annotatedImages.front,
    annotated_back_hash: data.annotatedImages.back,
    result: JSON.stringify(result),
    // A grade from before CardSaved existed was saved as it was graded.
    saved_at: savedOnGrading(data) ? data.gradedAt : null,
    sample: false,
    catalog_id: result.identification.catalogId ?? null,
  };
}

/** The collection changed with this event: its version is the event's place in the log. */
async function touchCollection(trx: Transaction<Tables>, owner: string, version: number): Promise<void> {
  await trx
    .insertInto('card_collections')
    .values({ owner, version })
    .onConflict((c) => c.column('owner').doUpdateSet({ version }))
    .execute();
}

/**
 * A price recorded after grading (the daily refresh) becomes the card's shown value, in the collection and on the
 * card's page: "$12.34 (TCGplayer market, Near Mint, 2026-11-20)", as the grading had written it.
 */
async function showLatestPrice(trx: Transaction<Tables>, data: CardPriceRecorded['data']): Promise<{ changedFor: string } | null> {
  const row = await trx.selectFrom('card_grades').select(['owner', 'result', 'estimated_value']).where('id', '=', data.cardId).executeTakeFirst();
  if (!row) return null;
  const estimate = { text: formatUsd(Math.round(data.priceValue * 100)), label: data.source };
  const text = `${estimate.text} (${estimate.label})`;
  if (row.estimated_value === text) return null;
  const result = typeof row.result === 'string' ? (JSON.parse(row.result) as GradedCard) : row.result;
  const updated = { ...result, estimatedValue: text, identification: { ...result.identification, estimatedValue: estimate } };
  await trx.updateTable('card_grades').set({ estimated_value: text, result: JSON.stringify(updated) }).where('id', '=', data.cardId).execute();
  return { changedFor: row.owner };
}

async function applyOne(trx: Transaction<Tables>, event: RecordedEvent): Promise<void> {
  const { type, data: payload, eventId, globalPosition } = event;
  switch (type) {
    case 'CardGraded': {
      // A card graded again after its owner deleted it comes back as a new row.
      const row = cardRow(cardGradedSchema.parse(payload));
      const { id: _id, ...update } = row;
      await trx
        .insertInto('card_grades')
        .values(row)
        .onConflict((c) => c.column('id').doUpdateSet(update))
        .execute();
      if (row.saved_at !== null) await touchCollection(trx, row.owner, globalPosition);
      return;
    }
    case 'CardSaved': {
      const { cardId, owner, sample, savedAt } = cardSavedSchema.parse(payload);
      await trx.updateTable('card_grades').set({ saved_at: savedAt, sample }).where('id', '=', cardId).execute();
      await touchCollection(trx, owner, globalPosition);
      return;
    }
    case 'CardPriceRecorded': {
      const data = cardPriceRecordedSchema.parse(payload);
      await trx
        .insertInto('price_history')
        .values({
          id: eventId,
          card_grade_id: data.cardId,
          price_date: data.priceDate,
          price_value: data.priceValue,
          source: data.source,
          grade: data.grade,
          created_at: data.recordedAt,
        })
        .onConflict((c) => c.column('id').doNothing())
        .execute();
      const shown = await showLatestPrice(trx, data);
      if (shown) await touchCollection(trx, shown.changedFor, globalPosition);
      return;
    }
    case 'CardDeleted': {
      const { cardId, owner } = cardDeletedSchema.parse(payload);
      await trx.deleteFrom('price_history').where('card_grade_id', '=', cardId).execute();
      await trx.deleteFrom('card_grades').where('id', '=', cardId).execute();
      await touchCollection(trx, owner, globalPosition);
      return;
    }
    case 'CardOwnerChanged': {
      const { cardId, from, to } = cardOwnerChangedSchema.parse(payload);
      await trx.updateTable('card_grades').set({ owner: to, user_id: userIdOf(to) }).where('id', '=', cardId).execute();
      await touchCollection(trx, from, globalPosition);
      await touchCollection(trx, to, globalPosition);
      return;
    }
  }
}

type CardRow = ReturnType<typeof cardRow>;
type PriceRow = Insertable<Tables['price_history']>;

/** Rows per statement: well under PostgreSQL's 65,535 parameters for card_grades' 27 columns. */
const ROWS_PER_STATEMENT = 500;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) out.push(rows.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

/**
 * A batch of events in few statements (a rebuild replays 1,000 at a time): runs of CardGraded become one multi-row
 * upsert (the last event for a card wins, as one by one), a CardPriceRecorded its row and the card's shown value, one by one, and each
 * collection's version is written once, at the batch's end, with the last event that changed it. Deletes and owner
 * changes are rare and go one by one, after what came before them is written, so the order of the log holds.
 */
async function applyBatch(trx: Transaction<Tables>, events: readonly RecordedEvent[]): Promise<void> {
  let graded = new Map<string, CardRow>();
  const versions = new Map<string, number>();

  async function flush(): Promise<void> {
    if (graded.size > 0) {
      for (const rows of chunks([...graded.values()])) {
        await trx
          .insertInto('card_grades')
          .values(rows)
          .onConflict((c) =>
            c.column('id').doUpdateSet((eb) => Object.fromEntries(Object.keys(rows[0]!).filter((k) => k !== 'id').map((k) => [k, eb.ref(`excluded.${k}` as 'excluded.owner')])) as never),
          )
          .execute();
      }
      graded = new Map();
    }
  }

  for (const event of events) {
    const { type, data: payload, eventId, globalPosition } = event;
    switch (type) {
      case 'CardGraded': {
        const row = cardRow(cardGradedSchema.parse(payload));
        // A card graded again after its owner deleted it comes back as a new row.
        graded.set(row.id, row);
        if (row.saved_at !== null) versions.set(row.owner, globalPosition);
        break;
      }
      case 'CardSaved': {
        await flush();
        const { cardId, owner, sample, savedAt } = cardSavedSchema.parse(payload);
        await trx.updateTable('card_grades').set({ saved_at: savedAt, sample }).where('id', '=', cardId).execute();
        versions.set(owner, globalPosition);
        break;
      }
      case 'CardPriceRecorded': {
        // The card's shown value follows its latest price, read from the row as written so far.
        await flush();
        const data = cardPriceRecordedSchema.parse(payload);
        const price: PriceRow = { id: eventId, card_grade_id: data.cardId, price_date: data.priceDate, price_value: data.priceValue, source: data.source, grade: data.grade, created_at: data.recordedAt };
        await trx.insertInto('price_history').values(price).onConflict((c) => c.column('id').doNothing()).execute();
        const shown = await showLatestPrice(trx, data);
        if (shown) versions.set(shown.changedFor, globalPosition);
        break;
      }
      case 'CardDeleted': {
        await flush();
        const { cardId, owner } = cardDeletedSchema.parse(payload);
        await trx.deleteFrom('price_history').where('card_grade_id', '=', cardId).execute();
        await trx.deleteFrom('card_grades').where('id', '=', cardId).execute();
        versions.set(owner, globalPosition);
        break;
      }
      case 'CardOwnerChanged': {
        await flush();
        const { cardId, from, to } = cardOwnerChangedSchema.parse(payload);
        await trx.updateTable('card_grades').set({ owner: to, user_id: userIdOf(to) }).where('id', '=', cardId).execute();
        versions.set(from, globalPosition);
        versions.set(to, globalPosition);
        break;
      }
    }
  }
  await flush();
  // The collection changed with these events: its version is the place in the log of the last that changed it.
  for (const rows of chunks([...versions].map(([owner, version]) => ({ owner, version })))) {
    await trx
      .insertInto('card_collections')
      .values(rows)
      .onConflict((c) => c.column('owner').doUpdateSet((eb) => ({ version: eb.ref('excluded.version') })))
      .execute();
  }
}

export const cardsProjection: InlineProjection = {
  name: 'cards',
  handles: ['CardGraded', 'CardSaved', 'CardPriceRecorded', 'CardDeleted', 'CardOwnerChanged'],
  tables: ['card_grades', 'price_history', 'card_collections'],
  apply: applyBatch,
};

/** The same read model one event at a time, one statement or two each: what the batches are measured against (bench:store). */
export async function applyCardEventsOneByOne(trx: Transaction<Tables>, events: readonly RecordedEvent[]): Promise<void> {
  for (const event of events) await applyOne(trx, event);
}
