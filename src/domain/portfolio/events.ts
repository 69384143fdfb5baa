import { z } from 'zod';
import { MAX_CENTS } from '../../contracts/money.ts';
import { cardmarketPricesSchema, gradedValuesSchema, ownerSchema } from '../cards/events.ts';
import type { DomainEvent } from '../decider.ts';

// The events of a portfolio card, stream `portfolio-card-<id>` (ids are integers: SPEC.md §3, the detail page
// parses them). Money is integer cents. Times are ISO strings from the injected clock; price dates are New York
// days (SPEC.md §9). Version 1 of each payload.

const cents = z.number().int().min(0).max(MAX_CENTS);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** What a collector records about a card, apart from its current price (which PortfolioCardPriced carries). */
export const portfolioCardDetailsSchema = z.object({
  cardName: z.string().min(1).max(255),
  cardSet: z.string().max(255).nullable(),
  cardNumber: z.string().max(50).nullable(),
  cardYear: z.string().max(10).nullable(),
  isGraded: z.boolean(),
  gradingCompany: z.string().max(50).nullable(),
  officialGrade: z.number().nullable(),
  estimatedGrade: z.number().nullable(),
  imageUrl: z.string().nullable(),
  backImageUrl: z.string().nullable(),
  /**
   * The flattened card (and its thumbnail) shown in place of the photo, when the card came from the engine (issue 35);
   * absent from cards added before, and null for one typed in.
   */
  cardImageUrl: z.string().nullable().optional(),
  cardThumbUrl: z.string().nullable().optional(),
  backCardImageUrl: z.string().nullable().optional(),
  condition: z.string().max(100).nullable(),
  rarity: z.string().max(100).nullable(),
  category: z.string().min(1).max(50),
  notes: z.string().nullable(),
  acquisitionPrice: cents.nullable(),
  acquisitionDate: day.nullable(),
});
export type PortfolioCardDetails = z.infer<typeof portfolioCardDetailsSchema>;

export const portfolioCardAddedSchema = z.object({
  cardId: z.number().int().positive(),
  owner: ownerSchema,
  details: portfolioCardDetailsSchema,
  addedAt: z.string(),
  /** The owner's graded card (collection) it was added from, so each links to the other; absent for any other card. */
  gradedCardId: z.string().optional(),
});
export type PortfolioCardAdded = DomainEvent<'PortfolioCardAdded', z.infer<typeof portfolioCardAddedSchema>>;

/** Only the fields that changed, with their new values. */
export const portfolioCardEditedSchema = z.object({
  cardId: z.number().int().positive(),
  changes: portfolioCardDetailsSchema.partial(),
  editedAt: z.string(),
});
export type PortfolioCardEdited = DomainEvent<'PortfolioCardEdited', z.infer<typeof portfolioCardEditedSchema>>;

/** The card's current price from now on, with who says so and the day; a null price takes the price away. */
export const portfolioCardPricedSchema = z.object({
  cardId: z.number().int().positive(),
  price: cents.nullable(),
  source: z.string().max(100).nullable(),
  priceDate: day,
  pricedAt: z.string(),
  /** Cardmarket's euro figures beside a market price, when the source gave them (the daily refresh); absent else. */
  cardmarket: cardmarketPricesSchema.optional(),
  /** The values at each grade beside a market price, when a per-grade source gave them (issue 32); absent else. */
  graded: gradedValuesSchema.optional(),
});
export type PortfolioCardPriced = DomainEvent<'PortfolioCardPriced', z.infer<typeof portfolioCardPricedSchema>>;

export const portfolioCardRemovedSchema = z.object({ cardId: z.number().int().positive(), owner: ownerSchema, removedAt: z.string() });
export type PortfolioCardRemoved = DomainEvent<'PortfolioCardRemoved', z.infer<typeof portfolioCardRemovedSchema>>;

export type PortfolioCardEvent = PortfolioCardAdded | PortfolioCardEdited | PortfolioCardPriced | PortfolioCardRemoved;

export const portfolioCardEventSchemas = {
  PortfolioCardAdded: portfolioCardAddedSchema,
  PortfolioCardEdited: portfolioCardEditedSchema,
  PortfolioCardPriced: portfolioCardPricedSchema,
  PortfolioCardRemoved: portfolioCardRemovedSchema,
} as const;
