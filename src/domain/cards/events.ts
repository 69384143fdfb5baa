import { z } from 'zod';
import { cardGradeSchema, gradedCardSchema, raritySchema, slabLabelSchema } from '../../contracts/grading.ts';
import { gradingCompanySchema } from '../../contracts/portfolio.ts';
import { engineEstimateSchema, engineVersionSchema } from '../../contracts/professional-grades.ts';
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
  /** A JPEG of the photo, shown in its place where browsers cannot draw the photo itself (HEIC); absent otherwise. */
  displayHash: imageHashSchema.optional(),
  /**
   * The flattened card the engine measured (JPEG, upright, perspective corrected, 63 × 88), which the pages show in
   * place of the photo, and its thumbnail for tiles and rows (issue 35). Absent on a card graded before they were
   * kept: the pages show the photo.
   */
  cardHash: imageHashSchema.optional(),
  cardThumbHash: imageHashSchema.optional(),
});
export type CardImage = z.infer<typeof cardImageSchema>;

/** The image the pages show for a photo: its display copy where it has one, else the photo itself. */
export const shownImageHash = (image: CardImage) => image.displayHash ?? image.hash;

/** The picture of the card the pages show first: the flattened card where it was kept, else the photo shown. */
export const cardPictureHash = (image: CardImage) => image.cardHash ?? shownImageHash(image);

/** The same for a tile or a row: the flattened card's thumbnail, else the photo shown. */
export const cardThumbHash = (image: CardImage) => image.cardThumbHash ?? cardPictureHash(image);

export const cardGradedSchema = z.object({
  cardId: z.string(),
  owner: ownerSchema,
  /** SPEC.md §3: required, 'pokemon' by default. */
  cardType: z.string().min(1).max(50),
  images: z.object({ front: cardImageSchema, back: cardImageSchema.nullable() }),
  /**
   * PNGs the engine drew over each side (outline, border lines, boxes on defects), and the tilt shot's reflected light
   * with what it showed boxed (issue 31; absent without one).
   */
  annotatedImages: z.object({ front: imageHashSchema.nullable(), back: imageHashSchema.nullable(), reflectedLight: imageHashSchema.optional() }),
  /** Everything the engine said: the grade, who the card is, and every measurement behind the grade. */
  result: gradedCardSchema,
  /** The engine that made the grade (schema version 2); grades from before it was recorded read as 'unknown'. */
  engine: engineVersionSchema,
  gradedAt: z.string(),
  /** The marketplace's item id the user gave with the card (a bulk import's ItemID), shown as its badge. */
  comcId: z.string().max(100).nullable().optional(),
  /**
   * Grading is not saving (issue 18): a grade recorded with this flag joins its owner's collection only with a
   * CardSaved. A CardGraded recorded before CardSaved existed has no flag: the card joined the collection as it
   * was graded, and every reader takes it so (the card is saved, at its grading time, and not a sample).
   */
  savedSeparately: z.literal(true).optional(),
});
export type CardGraded = DomainEvent<'CardGraded', z.infer<typeof cardGradedSchema>>;

/**
 * What of a CardGraded only the card's own page shows, reading it from the event itself: the engine's measurements
 * (about half of the payload's bytes), the graders' centering ceilings and the word for each grade. Projections read
 * none of it and say so (Projection.unreadParts), so a rebuild's read of the log leaves it out.
 */
export const GRADING_EVIDENCE = ['result.measurements', 'result.centeringCeilings', 'result.labels'];

/**
 * The owner put the graded card in their collection. A sample card (Restore Sample Cards) is saved marked as one:
 * shown in the collection, counted for no leaderboard place and no achievement.
 */
export const cardSavedSchema = z.object({
  cardId: z.string(),
  owner: ownerSchema,
  sample: z.boolean(),
  savedAt: z.string(),
});
export type CardSaved = DomainEvent<'CardSaved', z.infer<typeof cardSavedSchema>>;

/** Saved at grading: a CardGraded from before CardSaved existed (no `savedSeparately`). */
export const savedOnGrading = (graded: { savedSeparately?: true | undefined }) => graded.savedSeparately !== true;

/**
 * Cardmarket's figures for a card (the European market, as the Pokémon TCG API reports them): its trend price and
 * 30-day average in euro cents (null when it gives none), and the day Cardmarket updated them.
 */
export const cardmarketPricesSchema = z.object({
  trendCents: z.number().int().nonnegative().nullable(),
  avg30Cents: z.number().int().nonnegative().nullable(),
  updatedOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
export type CardmarketPrices = z.infer<typeof cardmarketPricesSchema>;

/** The same Cardmarket figures (both absent the same). */
export const sameCardmarketPrices = (a: CardmarketPrices | null | undefined, b: CardmarketPrices | null | undefined) =>
  (a ?? null) === (b ?? null) || (!!a && !!b && a.trendCents === b.trendCents && a.avg30Cents === b.avg30Cents);

/**
 * What the card sells for at each grade (issue 32 item 5), as a per-grade source listed it on a day: PriceCharting's
 * Grade 7 to PSA 10 and other graders' tens, in cents of the currency named. Kept beside a recorded price, so the price
 * history includes graded values.
 */
export const gradedValuesSchema = z.object({
  /** "PriceCharting". */
  source: z.string().min(1).max(100),
  currency: z.literal('USD'),
  /** YYYY-MM-DD: the day the figures were read (the source gives current prices, not a dated list). */
  asOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** What the source priced: "Pikachu #58 · Pokemon Base Set". */
  product: z.string(),
  grades: z
    .array(
      z.object({
        /** The source's own name for it: "Grade 9", "PSA 10", "BGS 10". */
        label: z.string().min(1).max(50),
        /** The PSA grade it prices; null for another grader's ten. */
        grade: z.number().min(1).max(10).nullable(),
        cents: z.number().int().positive(),
      }),
    )
    .min(1),
});
export type GradedValues = z.infer<typeof gradedValuesSchema>;

/**
 * The same graded figures (both absent the same): the same source and the same amount at each grade. The day they were
 * read is not compared: the source gives today's prices every day, and only a moved figure is a change.
 */
export function sameGradedValues(a: GradedValues | null | undefined, b: GradedValues | null | undefined): boolean {
  if (!a || !b) return (a ?? null) === (b ?? null);
  return (
    a.source === b.source &&
    a.currency === b.currency &&
    a.grades.length === b.grades.length &&
    a.grades.every((figure, i) => figure.label === b.grades[i]!.label && figure.cents === b.grades[i]!.cents)
  );
}

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
  /** Cardmarket's euro figures beside the dollar price, when the source gave them (the daily refresh); absent else. */
  cardmarket: cardmarketPricesSchema.optional(),
  /** The values at each grade beside it, when a per-grade source gave them; absent else (and in events before them). */
  graded: gradedValuesSchema.optional(),
});
export type CardPriceRecorded = DomainEvent<'CardPriceRecorded', z.infer<typeof cardPriceRecordedSchema>>;

export const cardDeletedSchema = z.object({ cardId: z.string(), owner: ownerSchema, deletedAt: z.string() });
export type CardDeleted = DomainEvent<'CardDeleted', z.infer<typeof cardDeletedSchema>>;

/** A guest's card moved to the account that guest signed in to (DESIGN.md §6). */
export const cardOwnerChangedSchema = z.object({ cardId: z.string(), from: ownerSchema, to: ownerSchema, changedAt: z.string() });
export type CardOwnerChanged = DomainEvent<'CardOwnerChanged', z.infer<typeof cardOwnerChangedSchema>>;

/**
 * The grade the card got from a grading company, as its owner reported it (or its grading order brought back), with
 * the engine's estimate at that time copied in. A later report supersedes it (the latest counts); the log keeps both.
 */
export const professionalGradeReportedSchema = z.object({
  cardId: z.string(),
  reportId: z.string(),
  reportedBy: ownerSchema,
  company: gradingCompanySchema,
  grade: z.number().min(1).max(10),
  cert: z.string(),
  /** The slab photo sent with the report, in the image store; null without one. */
  slabPhoto: cardImageSchema.nullable(),
  /** What the photo's label read; null without a photo or when no label was read. */
  slabLabel: slabLabelSchema.nullable(),
  /** The label reads the same company and grade. */
  verified: z.boolean(),
  source: z.enum(['owner', 'order']),
  estimate: engineEstimateSchema,
  reportedAt: z.string(),
});
export type ProfessionalGradeReported = DomainEvent<'ProfessionalGradeReported', z.infer<typeof professionalGradeReportedSchema>>;

/**
 * The card's stored photos measured again by a newer engine (`npm run regrade`): the new grade beside the old, which
 * stays in its CardGraded (and any earlier CardRegraded) untouched. Only the engine's grade: who the card is was read
 * when it was graded and is not read again. `previous` is the grade and engine it replaces as the card's latest, for
 * the record.
 */
export const cardRegradedSchema = z.object({
  cardId: z.string(),
  grade: cardGradeSchema,
  engine: engineVersionSchema,
  previous: z.object({ overallGrade: z.number(), engine: engineVersionSchema }),
  regradedAt: z.string(),
});
export type CardRegraded = DomainEvent<'CardRegraded', z.infer<typeof cardRegradedSchema>>;

/** The card's name, as one line: trimmed, 1 to 100 characters (the rename route's rule, kept by the event too). */
export const cardNameSchema = z.string().trim().min(1).max(100);

/**
 * The owner named the card (issue 35): every page, the CSV and orders show this name from now on, in place of the one
 * identification gave it (or "Unknown card"). The grading's result is left as it was, for the record.
 */
export const cardRenamedSchema = z.object({
  cardId: z.string(),
  name: cardNameSchema,
  renamedBy: ownerSchema,
  renamedAt: z.string(),
});
export type CardRenamed = DomainEvent<'CardRenamed', z.infer<typeof cardRenamedSchema>>;

/** The catalogue's card as the owner confirmed it: what the catalogue said of it then, kept with the event. */
export const confirmedCatalogCardSchema = z.object({
  catalogId: z.string().min(1).max(64),
  cardName: z.string(),
  cardSet: z.string(),
  cardNumber: z.string(),
  cardYear: z.string(),
  rarity: raritySchema.nullable(),
  cardFacts: z.string(),
  setDescription: z.string(),
});
export type ConfirmedCatalogCard = z.infer<typeof confirmedCatalogCardSchema>;

/**
 * The owner confirmed which catalogue card it is (issue 32), usually one of the candidates identification offered
 * when it was not sure: from now on the card's name, set, number and year are the catalogue's card's, and its value
 * is that card's, priced as it was confirmed (a CardPriceRecorded right after this event) or, when the price sources
 * could not say, missing for the reason given here until a refresh prices it. The grading's result is left as it
 * was, for the record.
 */
export const cardIdentificationConfirmedSchema = z.object({
  cardId: z.string(),
  card: confirmedCatalogCardSchema,
  confirmedBy: ownerSchema,
  confirmedAt: z.string(),
  /**
   * Why the confirmed card has no value yet, in plain words ("PriceCharting could not be reached"), when pricing it as
   * it was confirmed failed; absent when it was priced, and in confirmations recorded before they were priced.
   */
  valueUnavailable: z.string().min(1).max(500).optional(),
});
export type CardIdentificationConfirmed = DomainEvent<'CardIdentificationConfirmed', z.infer<typeof cardIdentificationConfirmedSchema>>;

export type CardEvent =
  | CardGraded
  | CardSaved
  | CardPriceRecorded
  | CardDeleted
  | CardOwnerChanged
  | ProfessionalGradeReported
  | CardRegraded
  | CardRenamed
  | CardIdentificationConfirmed;

export const cardEventSchemas = {
  CardGraded: cardGradedSchema,
  CardSaved: cardSavedSchema,
  CardPriceRecorded: cardPriceRecordedSchema,
  CardDeleted: cardDeletedSchema,
  CardOwnerChanged: cardOwnerChangedSchema,
  ProfessionalGradeReported: professionalGradeReportedSchema,
  CardRegraded: cardRegradedSchema,
  CardRenamed: cardRenamedSchema,
  CardIdentificationConfirmed: cardIdentificationConfirmedSchema,
} as const;
