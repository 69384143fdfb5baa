import { z } from 'zod';
import { gradingResultSchema, subgradesSchema } from './grading.ts';
import { IMAGE_FORMATS_LABEL, sniffImageType } from './image-formats.ts';
import { cleanText } from './text.ts';

// The calls of SPEC.md §7 around graded cards: grading, the shared card, the collection,
// the leaderboard and achievements. Shared by the server and the web app.

/** POST /api/grade-card text fields (the files come as frontImage / backImage parts). */
export const gradeCardFieldsSchema = z.object({
  frontImageUrl: cleanText('url', z.string().trim().max(2048, 'That URL is too long').optional()).transform((v) => (v ? v : null)),
  backImageUrl: cleanText('url', z.string().trim().max(2048, 'That URL is too long').optional()).transform((v) => (v ? v : null)),
  cardType: cleanText('line', z.string().trim().min(1).max(50).default('pokemon')),
});
export type GradeCardFields = z.infer<typeof gradeCardFieldsSchema>;

/**
 * POST /api/grade-card's tilt shot (issue 31), sent as `tiltFrames` file parts after the front: a couple of seconds of
 * the card tilted under a light, as 8–12 stills from the camera's video, or one angled photo of the front where there
 * is no camera. A still of a phone's video is a few hundred kB; an angled photo, a photo.
 */
export const TILT_FRAMES_MAX = 12;
export const TILT_FRAME_MAX_BYTES = 10 * 1024 * 1024;
export const TILT_FRAME_MAX_LABEL = '10 MB';

/** Each issue's code says which 4xx it is: too many (400), too large (413), not an image (415). */
export const tiltFramesSchema = z
  .array(
    z
      .instanceof(Uint8Array)
      .refine((frame) => frame.length <= TILT_FRAME_MAX_BYTES, { params: { status: 413 }, message: `A tilt frame is larger than ${TILT_FRAME_MAX_LABEL}. Send stills of the video, or a smaller angled photo.` })
      .refine((frame) => sniffImageType(frame) !== null, { params: { status: 415 }, message: `A tilt frame is not an image: send ${IMAGE_FORMATS_LABEL} stills.` }),
  )
  .max(TILT_FRAMES_MAX, `Send at most ${TILT_FRAMES_MAX} tilt frames: a couple of seconds of video as stills, or one angled photo.`);

/**
 * PATCH /api/card/{id}: the owner names the card (issue 35). One line (the text rule's 'name'), trimmed, 1 to 100
 * characters.
 */
export const renameCardSchema = z.object({
  name: cleanText('name', z.string({ error: 'Card name is required' }).trim().min(1, 'Card name is required').max(100, 'Card name must be at most 100 characters')),
});
export type RenameCardBody = z.infer<typeof renameCardSchema>;

/**
 * POST /api/card/{id}/identification: the owner confirms which catalogue card it is (issue 32), one of the candidates
 * offered or any card the catalogue has ("sm1-12": set id, dash, number).
 */
export const confirmIdentificationSchema = z.object({
  catalogId: z
    .string({ error: 'catalogId is required: the catalogue card it is, such as "base1-58"' })
    .trim()
    .min(1, 'catalogId is required: the catalogue card it is, such as "base1-58"')
    .max(64, 'catalogId must be at most 64 characters')
    .regex(/^[A-Za-z0-9.]+-[A-Za-z0-9.?!_-]+$/, 'catalogId is a catalogue id: the set id, a dash and the number, such as "base1-58"'),
});
export type ConfirmIdentificationBody = z.infer<typeof confirmIdentificationSchema>;

/** POST /api/grade-card and GET /api/card/{id}: the Grading result of SPEC.md §3 with its evidence. */
export const cardResultSchema = gradingResultSchema.extend({
  cardType: z.string(),
  /** ISO time the card was graded. */
  createdAt: z.string(),
});
export type CardResult = z.infer<typeof cardResultSchema>;

/** GET /api/card/{id}: the result, and whether the caller graded it (a stranger with the link may only share it). */
export const sharedCardSchema = cardResultSchema.extend({
  yours: z.boolean(),
  /** The owner's portfolio entry added from this card; null for anyone else, or when there is none. */
  portfolioCardId: z.number().int().nullable(),
});
export type SharedCard = z.infer<typeof sharedCardSchema>;

/** GET /api/my-cards: rows of card_grades (SPEC.md §3), newest first. */
export const collectionCardSchema = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  cardName: z.string(),
  cardSet: z.string().nullable(),
  cardNumber: z.string().nullable(),
  cardDescription: z.string().nullable(),
  setDescription: z.string().nullable(),
  cardFacts: z.string().nullable(),
  cardType: z.string(),
  imageUrl: z.string().nullable(),
  backImageUrl: z.string().nullable(),
  /**
   * The flattened card the engine measured (JPEG, 63 × 88, no table round it), shown in place of the photo, and its
   * thumbnail for tiles; null on a card graded before they were kept (show the photo).
   */
  cardImageUrl: z.string().nullable(),
  cardThumbUrl: z.string().nullable(),
  backCardImageUrl: z.string().nullable(),
  /** The caller's portfolio entry added from this card, if any (issue 35: "In your portfolio →"). */
  portfolioCardId: z.number().int().nullable(),
  grades: subgradesSchema,
  overallGrade: z.number(),
  conditionAnalysis: z.string().nullable(),
  /** A price with its currency ("$12.50"), or 'N/A'. */
  estimatedValue: z.string().nullable(),
  psa10Value: z.string().nullable(),
  rarity: z.string().nullable(),
  comcId: z.string().nullable(),
  createdAt: z.string(),
  /** A sample card (Restore Sample Cards), shown marked as one; it counts for no leaderboard place or achievement. */
  sample: z.boolean(),
});
export type CollectionCard = z.infer<typeof collectionCardSchema>;

export const deleteCardResponseSchema = z.object({ message: z.string() });

export const messageResponseSchema = z.object({ message: z.string() });

/** POST /api/sync-instant-grades */
export const syncInstantGradesResponseSchema = z.object({
  message: z.string(),
  importedCards: z.array(collectionCardSchema),
  newAchievements: z.array(z.unknown()),
});

/** GET /api/leaderboard */
export const leaderboardEntrySchema = z.object({
  id: z.string(),
  username: z.string(),
  cardCount: z.number().int(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

export const achievementLevelSchema = z.enum(['bronze', 'silver', 'gold']);

/** GET /api/achievements: the caller's earned achievements (SPEC.md §3 Achievement). */
export const achievementSchema = z.object({
  achievementId: z.number().int(),
  name: z.string(),
  description: z.string(),
  level: achievementLevelSchema,
  notificationShown: z.boolean(),
  earnedAt: z.string(),
});
export type Achievement = z.infer<typeof achievementSchema>;

/** GET /api/achievements/progress: every achievement of the catalogue, earned or locked, and how far along it is. */
export const achievementProgressSchema = z.object({
  achievementId: z.number().int(),
  name: z.string(),
  description: z.string(),
  level: achievementLevelSchema,
  earned: z.boolean(),
  /** ISO time it was earned; null while locked. */
  earnedAt: z.string().nullable(),
  /** The measure so far (cards graded, gems, sets…), at most `target`. */
  current: z.number().int().min(0),
  target: z.number().int().positive(),
});
export type AchievementProgress = z.infer<typeof achievementProgressSchema>;

/** GET /api/leaderboard?limit=n: how many graders to list; the home page's Top Graders shows the default. */
export const leaderboardQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
