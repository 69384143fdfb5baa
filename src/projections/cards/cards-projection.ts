import type { z } from 'zod';
import { gradedCardSchema, identificationSchema, identifiedCardName, NOT_AVAILABLE, type GradedCard, type ValueEstimate } from '../../contracts/grading.ts';
import {
  cardDeletedSchema,
  cardGradedSchema,
  cardOwnerChangedSchema,
  cardPriceRecordedSchema,
  cardRegradedSchema,
  cardIdentificationConfirmedSchema,
  cardRenamedSchema,
  cardSavedSchema,
  GRADING_EVIDENCE,
  savedOnGrading,
  shownImageHash,
  unavailableEstimate,
  type CardPriceRecorded,
} from '../../domain/cards/index.ts';
import { formatUsd } from '../../contracts/money.ts';
import { labelledPrice } from '../../domain/grading/index.ts';
import { rowProjection } from '../runner/row-projection.ts';
import { rowTable, type RowStore } from '../runner/row-store.ts';
import { imageUrl } from './image-urls.ts';
import { userIdOf } from './owner.ts';

// Inline: a graded card's row is there the moment it is graded (its /card/{id} page), the collection shows it the
// moment it is saved, and loses it the moment it is deleted. card_grades holds SPEC.md §3's columns and the place in
// the log of the CardGraded they came from: the card's page reads the engine's whole result from that event
// (queries.ts), so the row never carries it. card_collections holds the version of each collection, for
// GET /api/my-cards's cache.

/** What a row is made of: SPEC.md §3's columns of the result, and nothing of the engine's evidence behind them. */
const cardGradedRowSchema = cardGradedSchema.extend({
  result: gradedCardSchema
    .pick({
      cardName: true,
      cardSet: true,
      cardNumber: true,
      setDescription: true,
      cardFacts: true,
      grades: true,
      overallGrade: true,
      conditionAnalysis: true,
      estimatedValue: true,
      psa10Value: true,
      rarity: true,
    })
    .extend({ identification: identificationSchema.pick({ catalogId: true, source: true, cardName: true, nameConfirmed: true }) }),
});

function cardRow(data: z.infer<typeof cardGradedRowSchema>, gradedEventPosition: number) {
  const { result } = data;
  return {
    id: data.cardId,
    owner: data.owner,
    user_id: userIdOf(data.owner),
    // Only what identification stands behind (issue 35): stray print read off a card graded before the rule is not its name.
    card_name: identifiedCardName(result.identification),
    card_set: result.cardSet,
    card_number: result.cardNumber,
    card_description: null,
    set_description: result.setDescription,
    card_facts: result.cardFacts,
    card_type: data.cardType,
    image_url: imageUrl(shownImageHash(data.images.front)),
    back_image_url: data.images.back ? imageUrl(shownImageHash(data.images.back)) : null,
    card_image_url: data.images.front.cardHash ? imageUrl(data.images.front.cardHash) : null,
    card_thumb_url: data.images.front.cardThumbHash ? imageUrl(data.images.front.cardThumbHash) : null,
    back_card_image_url: data.images.back?.cardHash ? imageUrl(data.images.back.cardHash) : null,
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
    reflected_light_hash: data.annotatedImages.reflectedLight ?? null,
    graded_event_position: gradedEventPosition,
    recorded_estimate: null,
    confirmed_identification: null,
    // A grade from before CardSaved existed was saved as it was graded.
    saved_at: savedOnGrading(data) ? data.gradedAt : null,
    sample: false,
    catalog_id: result.identification.catalogId ?? null,
    engine_vision: data.engine.vision,
    engine_calibration: data.engine.calibration,
    latest_overall_grade: result.overallGrade,
  };
}

const cardGrades = rowTable('card_grades', ['id']);
const priceHistory = rowTable('price_history', ['id'], [['card_grade_id']]);
const cardCollections = rowTable('card_collections', ['owner']);

/** The collection changed with this event: its version is the event's place in the log. */
function touchCollection(rows: RowStore, owner: string, version: number): void {
  rows.put(cardCollections, { owner, version });
}

/**
 * A price recorded after grading (the daily refresh) becomes the card's shown value, in the collection and on the
 * card's page: "$12.34 (TCGplayer market, Near Mint, 2026-11-20)", as the grading had written it. The row keeps it
 * as recorded_estimate, for the page's result (withRecordedEstimate).
 */
async function showLatestPrice(rows: RowStore, data: CardPriceRecorded['data']): Promise<{ changedFor: string } | null> {
  const row = await rows.get(cardGrades, { id: data.cardId });
  if (!row) return null;
  const estimate: ValueEstimate = { text: formatUsd(Math.round(data.priceValue * 100)), label: data.source };
  const text = labelledPrice(estimate);
  if (row.estimated_value === text) return null;
  await rows.update(cardGrades, { id: data.cardId }, { estimated_value: text, recorded_estimate: JSON.stringify(estimate) });
  return { changedFor: row.owner };
}

/** The graded result as the card's page shows it: the last recorded price, if any, in place of the grading's estimate. */
export function withRecordedEstimate(result: GradedCard, recordedEstimate: ValueEstimate | null): GradedCard {
  if (!recordedEstimate) return result;
  return { ...result, estimatedValue: labelledPrice(recordedEstimate), identification: { ...result.identification, estimatedValue: recordedEstimate } };
}

export const cardsProjection = rowProjection({
  name: 'cards',
  handles: ['CardGraded', 'CardSaved', 'CardPriceRecorded', 'CardDeleted', 'CardOwnerChanged', 'CardRegraded', 'CardRenamed', 'CardIdentificationConfirmed'],
  unreadParts: { CardGraded: GRADING_EVIDENCE },
  tables: [cardGrades, priceHistory, cardCollections],
  async handle(rows, event) {
    const { type, data: payload, eventId, globalPosition } = event;
    switch (type) {
      case 'CardGraded': {
        // A card graded again after its owner deleted it comes back as a new row.
        const row = cardRow(cardGradedRowSchema.parse(payload), globalPosition);
        rows.put(cardGrades, row);
        if (row.saved_at !== null) touchCollection(rows, row.owner, globalPosition);
        return;
      }
      case 'CardSaved': {
        const { cardId, owner, sample, savedAt } = cardSavedSchema.parse(payload);
        await rows.update(cardGrades, { id: cardId }, { saved_at: savedAt, sample });
        touchCollection(rows, owner, globalPosition);
        return;
      }
      case 'CardPriceRecorded': {
        const data = cardPriceRecordedSchema.parse(payload);
        await rows.insertIfAbsent(priceHistory, {
          id: eventId,
          card_grade_id: data.cardId,
          price_date: data.priceDate,
          price_value: data.priceValue,
          source: data.source,
          grade: data.grade,
          created_at: data.recordedAt,
          graded_values: data.graded ? JSON.stringify(data.graded) : null,
        });
        const shown = await showLatestPrice(rows, data);
        if (shown) touchCollection(rows, shown.changedFor, globalPosition);
        return;
      }
      case 'CardDeleted': {
        const { cardId, owner } = cardDeletedSchema.parse(payload);
        await rows.deleteWhere(priceHistory, { card_grade_id: cardId });
        await rows.delete(cardGrades, { id: cardId });
        touchCollection(rows, owner, globalPosition);
        return;
      }
      case 'CardOwnerChanged': {
        const { cardId, from, to } = cardOwnerChangedSchema.parse(payload);
        await rows.update(cardGrades, { id: cardId }, { owner: to, user_id: userIdOf(to) });
        touchCollection(rows, from, globalPosition);
        touchCollection(rows, to, globalPosition);
        return;
      }
      case 'CardRegraded': {
        // The card keeps the grade it was graded with (the collection, the leaderboard and prices go by it); the row
        // says which engine graded it last and how, and the card's page shows every grade (its grade history).
        const { cardId, grade, engine } = cardRegradedSchema.parse(payload);
        await rows.update(cardGrades, { id: cardId }, { engine_vision: engine.vision, engine_calibration: engine.calibration, latest_overall_grade: grade.overallGrade });
        return;
      }
      case 'CardRenamed': {
        // The owner's name, everywhere the row is read: the collection, the card's page (queries.ts), the CSV, orders.
        const { cardId, name } = cardRenamedSchema.parse(payload);
        const row = await rows.get(cardGrades, { id: cardId });
        if (!row) return;
        await rows.update(cardGrades, { id: cardId }, { card_name: name });
        if (row.saved_at !== null) touchCollection(rows, row.owner, globalPosition);
        return;
      }
      case 'CardIdentificationConfirmed': {
        // The catalogue's card everywhere the row is read, its name included; the price refresh prices it by its id.
        // Another card's value no longer stands: the confirmed card's price follows (its CardPriceRecorded), or N/A
        // with the reason it has none, until a refresh prices it. The same card keeps its value.
        const { cardId, card, valueUnavailable } = cardIdentificationConfirmedSchema.parse(payload);
        const row = await rows.get(cardGrades, { id: cardId });
        if (!row) return;
        const sameCard = row.catalog_id === card.catalogId;
        const missing = valueUnavailable ? unavailableEstimate(valueUnavailable) : null;
        await rows.update(cardGrades, { id: cardId }, {
          card_name: card.cardName,
          card_set: card.cardSet,
          card_number: card.cardNumber,
          set_description: card.setDescription,
          card_facts: card.cardFacts,
          rarity: card.rarity,
          catalog_id: card.catalogId,
          confirmed_identification: JSON.stringify(card),
          ...(sameCard ? {} : { estimated_value: labelledPrice(missing), psa10_value: NOT_AVAILABLE, recorded_estimate: missing && JSON.stringify(missing) }),
        });
        if (row.saved_at !== null) touchCollection(rows, row.owner, globalPosition);
        return;
      }
    }
  },
});
