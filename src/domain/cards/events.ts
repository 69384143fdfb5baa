import { z } from 'zod';
import { gradedCardSchema } from '../../contracts/grading.ts';
import type { Owner } from '../accounts/identity.ts';
import type { DomainEvent } from '../decider.ts';

// The events of a graded card, stream `card-<cardId>`. Payloads are zod schemas (DESIGN.md §3), version 1 of each.
// Times are ISO strings from the injected clock, decided when the command was handled.

export const ownerSchema = z.custom<Owner>((value) => typeof value === 'string' && /^(user|guest):\S+$/.test(value), {
  message: 'An owner is user:<id> or guest:<id>',
});

const imageHashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'An image hash is a SHA-256 in lower-case hex');

/** A picture in the image store, and where it came from when it was fetched from a URL. */
export const cardImageSchema = z.object({
  hash: imageHashSchema,
  contentType: z.string(),
  /** The URL the user gave, for the record; null for an uploaded file. */
  sourceUrl: z.string().nullable(),
});
export type CardImage = z.infer<typeof cardImageSchema>;

export const cardGradedSchema = z.object({
  cardId: z.string(),
  owner: ownerSchema,
  /** SPEC.md §3: required, 'pokemon' by default. */
  cardType: z.string().min(1).max(50),
  images: z.object({ front: cardImageSchema, back: cardImageSchema.nullable() }),
  /** PNGs the engine drew over each side (outline, border lines, boxes on defects). */
  annotatedImages: z.object({ front: imageHashSchema.nullable(), back: imageHashSchema.nullable() }),
  /** Everything the engine said: the grade, who the card is, and every measurement behind the grade. */
  result: gradedCardSchema,
  gradedAt: z.string(),
  /** The marketplace's item id the user gave with the card (a bulk import's ItemID), shown as its badge. */
  comcId: z.string().max(100).nullable().optional(),
});
export type CardGraded = DomainEvent<'CardGraded', z.infer<typeof cardGradedSchema>>;

/** A known value of the card on a day (price_history). Only ever from a labelled source: no invented prices. */
export const cardPriceRecordedSchema = z.object({
  cardId: z.string(),
  /** YYYY-MM-DD */
  priceDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** US dollars. */
  priceValue: z.number().nonnegative(),
  /** Who says so, as shown beside the price. */
  source: z.string(),
  /** The card's overall grade when the price was recorded. */
  grade: z.number(),
  recordedAt: z.string(),
});
export type CardPriceRecorded = DomainEvent<'CardPriceRecorded', z.infer<typeof cardPriceRecordedSchema>>;

export const cardDeletedSchema = z.object({ cardId: z.string(), owner: ownerSchema, deletedAt: z.string() });
export type CardDeleted = DomainEvent<'CardDeleted', z.infer<typeof cardDeletedSchema>>;

/** A guest's card moved to the account that guest signed in to (DESIGN.md §6). */
export const cardOwnerChangedSchema = z.object({ cardId: z.string(), from: ownerSchema, to: ownerSchema, changedAt: z.string() });
export type CardOwnerChanged = DomainEvent<'CardOwnerChanged', z.infer<typeof cardOwnerChangedSchema>>;

export type CardEvent = CardGraded | CardPriceRecorded | CardDeleted | CardOwnerChanged;

export const cardEventSchemas = {
  CardGraded: cardGradedSchema,
  CardPriceRecorded: cardPriceRecordedSchema,
  CardDeleted: cardDeletedSchema,
  CardOwnerChanged: cardOwnerChangedSchema,
} as const;
