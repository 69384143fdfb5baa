import { DEFAULT_CATEGORY, type PatchPortfolioCardBody, type PutPortfolioCardBody } from '../../contracts/portfolio.ts';
import type { Owner } from '../../domain/accounts/identity.ts';
import { portfolioCardDecider, type EditPortfolioCard, type PortfolioCardDetails } from '../../domain/portfolio/index.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import { handleCommand } from '../handle-command.ts';
import { portfolioCardStream } from './streams.ts';

type Changes = EditPortfolioCard['data']['changes'];
type PriceChange = EditPortfolioCard['data']['price'];

const DETAIL_KEYS = [
  'cardName', 'cardSet', 'cardNumber', 'cardYear', 'isGraded', 'gradingCompany', 'officialGrade', 'estimatedGrade',
  'imageUrl', 'backImageUrl', 'cardImageUrl', 'cardThumbUrl', 'backCardImageUrl', 'condition', 'rarity', 'category', 'notes', 'acquisitionPrice', 'acquisitionDate',
] as const satisfies readonly (keyof PortfolioCardDetails)[];

/** PATCH: only the fields the client sent (undefined is not sent); a cleared category is the default one. */
export function patchChanges(body: PatchPortfolioCardBody): { changes: Changes; price: PriceChange } {
  const changes: Record<string, unknown> = {};
  for (const key of DETAIL_KEYS) {
    const value = body[key];
    if (value !== undefined) changes[key] = value;
  }
  if ('category' in changes && changes.category === null) changes.category = DEFAULT_CATEGORY;
  // The flattened card was made from the photo: another photo without its own card picture shows as it is.
  if ('imageUrl' in changes && !('cardImageUrl' in changes)) Object.assign(changes, { cardImageUrl: null, cardThumbUrl: null });
  if ('backImageUrl' in changes && !('backCardImageUrl' in changes)) changes.backCardImageUrl = null;
  const price: NonNullable<PriceChange> = {};
  if (body.currentPrice !== undefined) price.cents = body.currentPrice;
  if (body.priceSource !== undefined) price.source = body.priceSource;
  return { changes: changes as Changes, price: Object.keys(price).length > 0 ? price : undefined };
}

/** PUT: the detail page's fields, all of them; one left out is cleared. */
export function putChanges(body: PutPortfolioCardBody): { changes: Changes; price: PriceChange } {
  return {
    changes: {
      cardName: body.cardName,
      cardSet: body.cardSet ?? null,
      cardNumber: body.cardNumber ?? null,
      notes: body.notes ?? null,
      acquisitionPrice: body.acquisitionPrice ?? null,
      condition: body.condition ?? null,
      rarity: body.rarity ?? null,
      cardYear: body.cardYear ?? null,
    },
    price: { cents: body.currentPrice ?? null },
  };
}

/** Owner only: anyone else gets the 404 of an unknown card (the decider decides). */
export async function editPortfolioCard(
  context: { store: EventStore; metadata: EventMetadata },
  input: { cardId: number; requestedBy: Owner; changes: Changes; price: PriceChange },
): Promise<void> {
  await handleCommand(context, {
    ...portfolioCardStream(input.cardId),
    decider: portfolioCardDecider,
    command: {
      type: 'EditPortfolioCard',
      data: { cardId: input.cardId, requestedBy: input.requestedBy, changes: input.changes, ...(input.price ? { price: input.price } : {}), at: context.metadata.timestamp },
    },
  });
}
