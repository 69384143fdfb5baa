import type { RecordedEvent } from '../../infra/event-store/types.ts';
import { cardDeletedSchema, cardGradedSchema, cardIdentificationConfirmedSchema, cardOwnerChangedSchema, cardPriceRecordedSchema, cardRegradedSchema, cardRenamedSchema, cardSavedSchema, describeCardmarketPrices, describeGradedValues, professionalGradeReportedSchema } from '../../domain/cards/index.ts';

// A card's history as an auditor reads it (`npm run replay -- card <id>`): every grade with all it was based on,
// every recorded price, owner changes and deletion, straight from the card's stream.

export interface CardHistoryEntry {
  streamPosition: number;
  type: string;
  at: string;
  actor: string;
  /** One line a person reads; `data` below has everything. */
  summary: string;
  data: unknown;
}

function summarise(event: RecordedEvent): string {
  switch (event.type) {
    case 'CardGraded': {
      const { result, owner, images, engine } = cardGradedSchema.parse(event.data);
      const { centering, corners, edges, surface } = result.grades;
      const sides = images.back ? 'front and back' : 'front';
      const { catalogId, catalogConfidence } = result.identification;
      const catalogue = catalogId ? ` (catalogue ${catalogId}, confidence ${catalogConfidence})` : '';
      const graded = `graded ${result.overallGrade} (centering ${centering ?? 'n/a'}, corners ${corners}, edges ${edges}, surface ${surface}; ${sides}) as "${result.cardName}"${catalogue} for ${owner} by engine ${engine.vision} (calibration ${engine.calibration})`;
      return cardGradedSchema.shape.savedSeparately.parse((event.data as { savedSeparately?: unknown }).savedSeparately) ? graded : `${graded}, saved to the collection`;
    }
    case 'CardSaved': {
      const { owner, sample } = cardSavedSchema.parse(event.data);
      return `saved to the collection of ${owner}${sample ? ' as a sample card' : ''}`;
    }
    case 'CardPriceRecorded': {
      const { priceDate, priceValue, source, grade, cardmarket, graded } = cardPriceRecordedSchema.parse(event.data);
      const euros = cardmarket ? `; ${describeCardmarketPrices(cardmarket)}` : '';
      const byGrade = graded ? `; ${describeGradedValues(graded)}` : '';
      return `price $${priceValue.toFixed(2)} on ${priceDate} at grade ${grade}, from ${source}${euros}${byGrade}`;
    }
    case 'CardOwnerChanged': {
      const { from, to } = cardOwnerChangedSchema.parse(event.data);
      return `moved from ${from} to ${to}`;
    }
    case 'ProfessionalGradeReported': {
      const { company, grade, cert, verified, estimate, reportedBy } = professionalGradeReportedSchema.parse(event.data);
      const by = estimate.comparedFrom === 'psaEstimate' ? 'PSA estimate' : 'overall grade';
      return `${company} ${grade} (cert ${cert}${verified ? ', verified by its slab label' : ''}) reported by ${reportedBy}; the engine's ${by} was ${estimate.compared} (vision ${estimate.engine.vision})`;
    }
    case 'CardRegraded': {
      const { grade, engine, previous } = cardRegradedSchema.parse(event.data);
      return `regraded ${grade.overallGrade} by engine ${engine.vision} (calibration ${engine.calibration}); it was ${previous.overallGrade} by engine ${previous.engine.vision} (calibration ${previous.engine.calibration})`;
    }
    case 'CardRenamed': {
      const { name, renamedBy } = cardRenamedSchema.parse(event.data);
      return `renamed "${name}" by ${renamedBy}`;
    }
    case 'CardIdentificationConfirmed': {
      const { card, confirmedBy, valueUnavailable } = cardIdentificationConfirmedSchema.parse(event.data);
      const unpriced = valueUnavailable ? `; no value yet: ${valueUnavailable}` : '';
      return `identified as ${card.cardName} ${card.cardNumber}, ${card.cardSet} (catalogue ${card.catalogId}), confirmed by ${confirmedBy}${unpriced}`;
    }
    case 'CardDeleted':
      return `deleted by ${cardDeletedSchema.parse(event.data).owner}`;
    default:
      return event.type;
  }
}

export function cardHistory(events: readonly RecordedEvent[]): CardHistoryEntry[] {
  return events.map((event) => ({
    streamPosition: event.streamPosition,
    type: event.type,
    at: event.metadata.timestamp,
    actor: `${event.metadata.actor.kind}:${event.metadata.actor.id}`,
    summary: summarise(event),
    data: event.data,
  }));
}
