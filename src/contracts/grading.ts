import { z } from 'zod';
import { cardFormatSummarySchema, sideMeasurementSchema } from './measurement.ts';
import { gradingCompanySchema } from './portfolio.ts';

// What a graded card looks like to the API and the web app (SPEC.md §3 "Grading result", §9 "Grading rules",
// GRADING.md §2). Grades are numbers rounded to 0.1. The engine in src/domain/grading fills everything but the
// storage fields (id, image URLs), which the caller adds once the images are stored.

/**
 * The four subgrades. `centering` is null when no side's centering could be measured (a borderless card):
 * we never make up a ratio, so we never make up its grade either; the overall is then weighed over the other three
 * (see src/domain/grading/README.md).
 */
export const subgradesSchema = z.object({
  centering: z.number().nullable(),
  corners: z.number(),
  edges: z.number(),
  surface: z.number(),
});
export type Subgrades = z.infer<typeof subgradesSchema>;

export const gradeLabelSchema = z.enum(['Excellent', 'Very Good', 'Good', 'Average', 'Poor']);
export type GradeLabel = z.infer<typeof gradeLabelSchema>;

/** SPEC.md §9's two verdicts, and a third for a card whose centering cannot be measured (borderless). */
export const centeringVerdictSchema = z.enum(['Good Centering', 'Poor Centering', 'Centering Not Measurable']);
export type CenteringVerdict = z.infer<typeof centeringVerdictSchema>;

export const conditionSchema = z.enum(['Near Mint', 'Lightly Played', 'Moderately Played', 'Heavily Played']);
export type Condition = z.infer<typeof conditionSchema>;

export const raritySchema = z.enum([
  'Common',
  'Uncommon',
  'Rare',
  'Ultra Rare',
  'Secret Rare',
  'Holo',
  'Holographic',
  'Full Art',
  'Super-Rare',
  'Rainbow Rare',
  'Character Super Rare (CSR)',
  'Shiny',
  'Legendary',
]);
export type Rarity = z.infer<typeof raritySchema>;

export const graderSchema = z.enum(['PSA', 'BGS', 'CGC']);
export type Grader = z.infer<typeof graderSchema>;

/** The best grade a grader's centering rules allow for the measured ratios (GRADING.md §2). */
export const centeringCeilingSchema = z.object({
  grader: graderSchema,
  /** Highest grade of the table whose front and back limits both hold; null when none does or not measurable. */
  maxGrade: z.number().nullable(),
  /** As a collector says it: "PSA 9", "BGS 10 Pristine", "below CGC 9", "not measurable". */
  text: z.string(),
});
export type CenteringCeiling = z.infer<typeof centeringCeilingSchema>;

export const centeringCeilingsSchema = z.object({
  /** 'front' when no back was graded: the back's limits are then unchecked, so these are upper bounds. */
  basis: z.enum(['front', 'front and back', 'not measurable']),
  psa: centeringCeilingSchema,
  bgs: centeringCeilingSchema,
  cgc: centeringCeilingSchema,
});
export type CenteringCeilings = z.infer<typeof centeringCeilingsSchema>;

export const gradeLabelsSchema = z.object({
  overall: gradeLabelSchema,
  centering: gradeLabelSchema.nullable(),
  corners: gradeLabelSchema,
  edges: gradeLabelSchema,
  surface: gradeLabelSchema,
});
export type GradeLabels = z.infer<typeof gradeLabelsSchema>;

/**
 * The grade a PSA grader would most likely give the card in the photo (GRADING.md §2b), fitted on professionally graded
 * photos from the engine's measurements alone, never from a slab's label; see src/domain/grading/psa-estimate.ts.
 */
export const psaEstimateSchema = z.object({
  /** Whole or half grade, 1..10: the most likely PSA grade. Shown only when `canTell`. */
  grade: z.number().min(1).max(10),
  /** The range that held PSA's grade about 80% of the time on photos the model was not fitted on. */
  low: z.number().min(1).max(10),
  high: z.number().min(1).max(10),
  /** 0..1, roughly the chance PSA's grade is within one of `grade`. */
  confidence: z.number().min(0).max(1),
  /** False below the confidence the estimate needs to be acted on: the screen then says it cannot tell. */
  canTell: z.boolean(),
  /** Why it cannot tell, in words; null when it can. */
  reason: z.string().nullable(),
});
export type PsaEstimate = z.infer<typeof psaEstimateSchema>;

/** What the measurements grade to: the pure output of src/domain/grading. */
export const cardGradeSchema = z.object({
  /** The card's subgrades: the 60/40 front/back blend when a back was graded, else the front's. */
  grades: subgradesSchema,
  /** Each side's own subgrades and overall: present when both sides were graded (SPEC.md §3). */
  frontGrades: subgradesSchema.optional(),
  backGrades: subgradesSchema.optional(),
  overallGrade: z.number(),
  frontOverall: z.number().optional(),
  backOverall: z.number().optional(),
  centeringVerdict: centeringVerdictSchema,
  condition: conditionSchema,
  labels: gradeLabelsSchema,
  centeringCeilings: centeringCeilingsSchema,
  /** Beckett's way of combining the four subgrades (the lowest weighs most), in half points. */
  bgsOverall: z.number(),
  /** Plain-language summary of why the grade is what it is. */
  conditionAnalysis: z.string(),
  /** 0..1: how far to trust the grade (photo quality, textured surfaces); the lower of the two sides. */
  confidence: z.number().min(0).max(1),
  /** Hints to retake a photo, each prefixed with its side ("Front: ..."). */
  photoHints: z.array(z.string()),
  /** The engine's estimate of PSA's grade (GRADING.md §2b). Absent on cards graded before the calibration. */
  psaEstimate: psaEstimateSchema.optional(),
});
export type CardGrade = z.infer<typeof cardGradeSchema>;

export const identificationSourceSchema = z.enum(['ocr', 'vision-model', 'none']);
export type IdentificationSource = z.infer<typeof identificationSourceSchema>;

/** A price never comes from nowhere: it says who estimated it (DESIGN.md §8: no invented prices). */
export const valueEstimateSchema = z.object({
  /** A price with its currency, as shown: "$12.50". */
  text: z.string(),
  /** Who says so, shown beside the price: "Estimate by the vision model (gpt-4o-mini), not market data". */
  label: z.string(),
});
export type ValueEstimate = z.infer<typeof valueEstimateSchema>;

/** A catalogue card offered when identification is not sure: enough to tell printings apart at a glance. */
export const catalogCandidateSchema = z.object({
  catalogId: z.string(),
  cardName: z.string(),
  cardSet: z.string(),
  cardNumber: z.string(),
  cardYear: z.string(),
});
export type CatalogCandidate = z.infer<typeof catalogCandidateSchema>;

/** What a sports card prints, as OCR read it; each null when not read. */
export const printedSportsCardSchema = z.object({
  player: z.string().max(100).nullable(),
  team: z.string().max(100).nullable(),
  position: z.string().max(50).nullable(),
  year: z.string().max(4).nullable(),
  brand: z.string().max(50).nullable(),
});
export type PrintedSportsCard = z.infer<typeof printedSportsCardSchema>;

/** Who the card is. Fields are null when the source could not tell. */
export const identificationSchema = z.object({
  source: identificationSourceSchema,
  cardName: z.string().nullable(),
  cardSet: z.string().nullable(),
  cardNumber: z.string().nullable(),
  rarity: raritySchema.nullable(),
  cardFacts: z.string().nullable(),
  setDescription: z.string().nullable(),
  estimatedValue: valueEstimateSchema.nullable(),
  psa10Value: valueEstimateSchema.nullable(),
  /** The model that answered, for 'vision-model'. */
  model: z.string().nullable(),
  /**
   * The card in the catalogue the project ships ("base1-58"), when what was read matched one; null for a card
   * that was not read or not matched (it then keeps what was read). Absent from cards graded before the catalogue.
   */
  catalogId: z.string().nullable().default(null),
  /** 0..1: how far what was read supports the catalogue's card; null when unmatched. */
  catalogConfidence: z.number().min(0).max(1).nullable().default(null),
  /** The year the card's set came out, from the catalogue. */
  cardYear: z.string().nullable().default(null),
  /**
   * Catalogue names close to what was read, when no card was matched (issue 35): the card is "Unknown card" and its
   * owner is asked "Is this …?". Absent when there are none, and from cards graded before they were offered.
   */
  nameCandidates: z.array(z.string()).max(5).optional(),
  /**
   * OCR's name matched to no card, but checked against the catalogue: a name some card bears, in the catalogue's
   * spelling ("Pikachu", when which Pikachu is not known). Absent otherwise: what OCR read unmatched is then no name.
   */
  nameConfirmed: z.literal(true).optional(),
  /**
   * The facts read on the card that the catalogue's card shares ("name Kakuna", "attack Stiffen", "number 33/102"),
   * or contradicts ("not HP 70"), issue 32. Absent when nothing was matched by them, and from older cards.
   */
  evidence: z.array(z.string()).max(24).optional(),
  /**
   * When the catalogue's card is not sure, or no card was matched but some fit what was read: the best candidates,
   * the matched card first, for the owner to confirm one. Absent when sure, and from older cards.
   */
  catalogCandidates: z.array(catalogCandidateSchema).max(5).optional(),
  /**
   * A sports card's print as read (issue 32): player, team, position, and year and brand where printed. Shown as
   * read and unconfirmed: there is no sports catalogue, and the card is not identified by it. Absent otherwise.
   */
  printedSportsCard: printedSportsCardSchema.optional(),
  /** Set when the card's owner confirmed the catalogue card (POST /api/card/{id}/identification). */
  confirmedByOwner: z.literal(true).optional(),
});
export type Identification = z.infer<typeof identificationSchema>;

export const sideMeasurementsSchema = z.object({
  front: sideMeasurementSchema,
  back: sideMeasurementSchema.optional(),
});

/**
 * What a grader's slab label says, read off the photo of a slabbed card: the card's official grade (steps of 0.5),
 * the words printed with it (PSA's "GEM MT", "NM-MT"; BGS's "GEM MINT") and the certification number. Descriptor
 * and cert are null when the label did not show them (and on cards graded before they were read).
 */
export const slabLabelSchema = z.object({
  company: gradingCompanySchema,
  /** Null for PSA's AUTHENTIC: the card is genuine, and was not graded. */
  grade: z.number().min(1).max(10).nullable(),
  descriptor: z.string().nullable().default(null),
  cert: z.string().nullable().default(null),
});
export type SlabLabel = z.infer<typeof slabLabelSchema>;
export type GradingCompany = SlabLabel['company'];

/** Shown when a field is unknown (SPEC.md: "N/A"). */
export const NOT_AVAILABLE = 'N/A';
export const UNKNOWN_CARD_NAME = 'Unknown card';

/**
 * The name identification stands behind (issue 35): the catalogue's card, a name OCR read that the catalogue knows
 * (nameConfirmed), or the vision model's answer (a model that named the card). Other text OCR read is not a name ("Baby Pokemon counts ae", "JOU" are stray
 * print), so such a card is "Unknown card". Applied to cards graded before the rule too: every read model goes by it.
 */
export function identifiedCardName(identification: Pick<Identification, 'source' | 'catalogId' | 'cardName' | 'nameConfirmed'>): string {
  if (identification.cardName === null) return UNKNOWN_CARD_NAME;
  const unchecked = identification.source === 'ocr' && identification.catalogId === null && identification.nameConfirmed !== true;
  return unchecked ? UNKNOWN_CARD_NAME : identification.cardName;
}

/**
 * A graded card before storage: SPEC.md §3's Grading result fields the engine can fill, plus the evidence
 * (measurements, ceilings, labels) the screen draws. Same image bytes, same JSON, byte for byte.
 */
export const gradedCardSchema = cardGradeSchema.extend({
  cardName: z.string(),
  cardSet: z.string().nullable(),
  cardNumber: z.string().nullable(),
  cardFacts: z.string().nullable(),
  setDescription: z.string().nullable(),
  rarity: raritySchema.nullable(),
  /** The labelled estimate's price, or "N/A". */
  estimatedValue: z.string(),
  psa10Value: z.string(),
  identification: identificationSchema,
  measurements: sideMeasurementsSchema,
  /**
   * The card's format as found from the front photo's outline ("1951 Bowman", 52.39 × 79.38 mm): every millimetre
   * measured is of this size. Absent from cards graded before formats were told apart (they were taken as 63 × 88 mm).
   */
  cardFormat: cardFormatSummarySchema.optional(),
  /**
   * Professionally graded: the card was photographed in a grader's slab and its label was read. The label's grade is
   * the official one; overallGrade and the subgrades stay the engine's own, measured from the card as for a raw one.
   * Absent from cards graded before labels were read: false.
   */
  isGraded: z.boolean().default(false),
  /** A card photographed in a grader's slab: what its label says. Absent for a raw card. */
  slabLabel: slabLabelSchema.optional(),
});
export type GradedCard = z.infer<typeof gradedCardSchema>;

/** The Grading result of SPEC.md §3 as the API returns it: a graded card with its storage fields. */
export const gradingResultSchema = gradedCardSchema.extend({
  id: z.string(),
  imageUrl: z.string().nullable(),
  backImageUrl: z.string().nullable(),
  /** The annotated pictures (outline, border lines in mm, boxes on defects), PNG. */
  annotatedImageUrl: z.string().nullable(),
  annotatedBackImageUrl: z.string().nullable(),
  /** The tilt shot's picture of the reflected light with what it showed boxed (PNG); null without a tilt shot. */
  reflectedLightImageUrl: z.string().nullable().default(null),
  /** Optional marketplace id shown as a badge. */
  comcId: z.string().nullable().optional(),
});
export type GradingResult = z.infer<typeof gradingResultSchema>;
