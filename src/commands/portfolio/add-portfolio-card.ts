import type { Kysely } from 'kysely';
import { DEFAULT_CATEGORY, type AddPortfolioCardBody } from '../../contracts/portfolio.ts';
import type { Owner } from '../../domain/accounts/identity.ts';
import type { GradedValues } from '../../domain/cards/index.ts';
import { portfolioCardDecider, type PortfolioCardDetails } from '../../domain/portfolio/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import { handleCommand } from '../handle-command.ts';
import { nextPortfolioCardId } from './portfolio-card-ids.ts';
import { portfolioCardStream } from './streams.ts';

/** The details of a new card from what the client sent: what it left out is empty, the category 'Trading Card'. */
export function newCardDetails(body: AddPortfolioCardBody, defaults: { category?: string } = {}): PortfolioCardDetails {
  return {
    cardName: body.cardName,
    cardSet: body.cardSet ?? null,
    cardNumber: body.cardNumber ?? null,
    cardYear: body.cardYear ?? null,
    isGraded: body.isGraded ?? false,
    gradingCompany: body.gradingCompany ?? null,
    officialGrade: body.officialGrade ?? null,
    estimatedGrade: body.estimatedGrade ?? null,
    imageUrl: body.imageUrl ?? null,
    backImageUrl: body.backImageUrl ?? null,
    cardImageUrl: body.cardImageUrl ?? null,
    cardThumbUrl: body.cardThumbUrl ?? null,
    backCardImageUrl: body.backCardImageUrl ?? null,
    condition: body.condition ?? null,
    rarity: body.rarity ?? null,
    category: body.category ?? defaults.category ?? DEFAULT_CATEGORY,
    notes: body.notes ?? null,
    acquisitionPrice: body.acquisitionPrice ?? null,
    acquisitionDate: body.acquisitionDate ?? null,
  };
}

/**
 * Adds a card to the owner's portfolio; returns its new id. `cardId`: an id drawn earlier (a bulk import draws its
 * rows' ids when it starts, so a row worked on twice finds its card there and adds none). `gradedCardId`: the owner's
 * own graded card it comes from, checked by the caller, which links the two; `graded`: the values by grade recorded
 * there with the price it brings.
 */
export async function addPortfolioCard(
  context: { store: EventStore; db: Kysely<Tables>; metadata: EventMetadata },
  input: { owner: Owner; body: AddPortfolioCardBody; cardId?: number; gradedCardId?: string; graded?: GradedValues },
): Promise<number> {
  const { owner, body, graded } = input;
  const cardId = input.cardId ?? (await nextPortfolioCardId(context.db));
  const price = body.currentPrice === null || body.currentPrice === undefined ? null : { cents: body.currentPrice, source: body.priceSource ?? null, ...(graded ? { graded } : {}) };
  await handleCommand(context, {
    ...portfolioCardStream(cardId),
    decider: portfolioCardDecider,
    command: {
      type: 'AddPortfolioCard',
      data: { cardId, owner, details: newCardDetails(body), price, at: context.metadata.timestamp, ...(input.gradedCardId ? { gradedCardId: input.gradedCardId } : {}) },
    },
    retries: 0,
  });
  return cardId;
}
