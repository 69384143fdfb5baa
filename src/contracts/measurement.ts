import { z } from 'zod';

// What the vision layer measures on one side of a card (GRADING.md §1). No grades here:
// src/domain/grading turns these into subgrades. Lengths are millimetres of the real card;
// places are on the flattened, upright card: origin at its top-left virtual corner, x right, y down,
// so the card spans 0..width × 0..height of its format (cardFormat; 63 × 88 mm for the common one).

/** The common format's size (Pokémon, Magic, modern sports); other formats: src/vision/card-formats.ts. */
export const CARD_WIDTH_MM = 63;
export const CARD_HEIGHT_MM = 88;

/**
 * GRADING.md §1.2: below this many photo pixels per millimetre the card's rim and defects are too coarse to measure.
 * Here, beside the card's size, so the grader (src/vision/find-card.ts) and the camera's guide (web/src/features/camera)
 * apply the one rule: the guide never says "keep it there" to a card the grader would call too small.
 */
export const MIN_PX_PER_MM = 4.5;

/**
 * How many photo pixels a millimetre of the card spans, from the card's width and height in pixels (each the mean of
 * its two opposite sides) and its size in mm (by default a 63 × 88 mm card's): the mean of the two directions'
 * scales, as the grader reads it from the card's corners.
 */
export function cardPxPerMmOfSize(widthPx: number, heightPx: number, size: { widthMm: number; heightMm: number } = { widthMm: CARD_WIDTH_MM, heightMm: CARD_HEIGHT_MM }): number {
  return (widthPx / size.widthMm + heightPx / size.heightMm) / 2;
}

/** Whether a card at this resolution can be graded: false is the grader's card_too_small. */
export function closeEnoughToGrade(pxPerMm: number): boolean {
  return pxPerMm >= MIN_PX_PER_MM;
}

export const pointSchema = z.object({ x: z.number(), y: z.number() });
export type Point = z.infer<typeof pointSchema>;

export const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export type Box = z.infer<typeof boxSchema>;

export const cornerNameSchema = z.enum(['topLeft', 'topRight', 'bottomRight', 'bottomLeft']);
export type CornerName = z.infer<typeof cornerNameSchema>;

export const edgeNameSchema = z.enum(['top', 'right', 'bottom', 'left']);
export type EdgeName = z.infer<typeof edgeNameSchema>;

function subgradeLimitSchema() {
  return z.object({
    smallestDefectMm: z.number(),
    unseen: z.string().nullable(),
    /**
     * What the photos could not show for another reason than their resolution, each a sentence. The surface's says
     * "From one photo: scratches that show only in reflected light are not seen" when no tilt shot was read. Absent: none.
     */
    notes: z.array(z.string()).optional(),
  });
}

/** The surface's note on a card graded without a tilt shot (SPEC.md §7). */
export const ONE_PHOTO_SURFACE_NOTE = 'From one photo: scratches that show only in reflected light are not seen';

export const photoQualitySchema = z.object({
  /** Variance of the Laplacian over the card; low means blurred. */
  blurVariance: z.number(),
  /** Share (0..1) of near-white, unsaturated pixels inside the card. */
  glareShare: z.number(),
  /** Resolution of the source photo over the card. */
  sourcePxPerMm: z.number(),
  /** Resolution of the flattened images the measurements were taken on: the coarser, the face's (the rim's may be finer). */
  pxPerMm: z.number(),
  /** The smallest defect, in mm, this photo lets us see. */
  smallestDefectMm: z.number(),
  /**
   * Per subgrade, what this photo lets us see there: the smallest defect in mm (for centering, the smallest border
   * difference), and in words what a coarse photo (under 10 px/mm) cannot show, or null. Absent on older results.
   */
  subgradeLimits: z
    .object({
      centering: subgradeLimitSchema(),
      corners: subgradeLimitSchema(),
      edges: subgradeLimitSchema(),
      surface: subgradeLimitSchema(),
    })
    .optional(),
  /** Plain-language hints to retake the photo ('The photo is blurred: hold the camera steady.'). */
  hints: z.array(z.string()),
});
export type PhotoQuality = z.infer<typeof photoQualitySchema>;

/** The border's inner edges on the card, in mm: x of the left and right lines, y of the top and bottom ones. */
export const innerFrameSchema = z.object({ left: z.number(), right: z.number(), top: z.number(), bottom: z.number() });
export type InnerFrame = z.infer<typeof innerFrameSchema>;

const axisSchema = z.object({
  /** Border widths in mm: left/right for the horizontal axis, top/bottom for the vertical one. */
  firstMm: z.number(),
  secondMm: z.number(),
  /** The larger border's share in percent, 50..100 (60 for "60/40"). */
  worstShare: z.number(),
  /** As a collector writes it: larger share first, e.g. "60/40". */
  ratio: z.string(),
});

export const centeringSchema = z.discriminatedUnion('measurable', [
  z.object({
    measurable: z.literal(true),
    leftMm: z.number(),
    rightMm: z.number(),
    topMm: z.number(),
    bottomMm: z.number(),
    horizontal: axisSchema,
    vertical: axisSchema,
    /** Strips along one side disagree by more than 3 points: the print is tilted (diamond cut). */
    tilted: z.boolean(),
    /** Where the inner border edges were found. */
    innerFrame: innerFrameSchema,
  }),
  z.object({
    measurable: z.literal(false),
    /** Why not: 'borderless' or a short explanation. */
    reason: z.string(),
    /**
     * The one axis whose two borders were both found, where the other's were not (a design that prints to one edge, a
     * border lost in a holder's shadow): the card is at least this far off centre.
     */
    horizontal: axisSchema.optional(),
    vertical: axisSchema.optional(),
  }),
]);
export type Centering = z.infer<typeof centeringSchema>;

export const cornerMeasurementSchema = z.object({
  corner: cornerNameSchema,
  /** Largest inward departure of the outline from the nominal corner arc. */
  frayMm: z.number(),
  /** Length of whitened rim near the corner; null when whitening cannot be seen (white border). */
  whitenedMm: z.number().nullable(),
  /** D = max(fray, whitened length). */
  defectMm: z.number(),
});
export type CornerMeasurement = z.infer<typeof cornerMeasurementSchema>;

export const nickSchema = z.object({
  depthMm: z.number(),
  lengthMm: z.number(),
  /** Position along the edge from its start (left for top/bottom, top for left/right). */
  atMm: z.number(),
});

export const edgeMeasurementSchema = z.object({
  edge: edgeNameSchema,
  /** Total whitened length along this edge, away from the corners; null when not observable. */
  whitenedMm: z.number().nullable(),
  nicks: z.array(nickSchema),
});
export type EdgeMeasurement = z.infer<typeof edgeMeasurementSchema>;

export const defectKindSchema = z.enum([
  'corner-fray',
  'corner-whitening',
  'edge-nick',
  'edge-whitening',
  'scratch',
  'print-line',
  'spot',
  'crease',
  /** A small bowl pressed into the face, seen in a tilt shot as a glint on the side facing the light. */
  'dent',
]);
export type DefectKind = z.infer<typeof defectKindSchema>;

/** One defect, with its size and place, so the screen can draw a box around it. */
export const defectSchema = z.object({
  kind: defectKindSchema,
  /** Where: a corner or edge name for rim defects, 'surface' otherwise. */
  location: z.union([cornerNameSchema, edgeNameSchema, z.literal('surface')]),
  box: boxSchema,
  /** The size that grades it: D for corners, depth for nicks, length for whitening, scratches and lines, diameter for spots. */
  sizeMm: z.number(),
  lengthMm: z.number().optional(),
  depthMm: z.number().optional(),
  /** Direction of long defects, degrees from the x axis, 0..180. */
  angleDeg: z.number().optional(),
  /** Width across a scratch or a dent, mm, as the photos show it. */
  widthMm: z.number().optional(),
  /** Found in the tilt shot's reflected light (it catches the light in some frames, not in others), not in the photo. */
  seenIn: z.literal('reflected-light').optional(),
});
export type Defect = z.infer<typeof defectSchema>;

export const surfaceMeasurementSchema = z.object({
  scratchLengthMm: z.number(),
  spotCount: z.number().int(),
  printLine: z.boolean(),
  crease: z.boolean(),
  /** Holo or heavily textured face: scratch threshold raised, confidence lowered. */
  textured: z.boolean(),
  /** The tilt shot (frames of the card tilted under a light), when one was sent. Absent: the surface was read from one photo. */
  tiltShot: z
    .object({
      /** Frames sent, and those in which the card was found and brought to the front's coordinates. */
      framesSent: z.number().int(),
      framesRegistered: z.number().int(),
      /** False when too few frames showed the card: the surface was then read from the front photo alone (see note). */
      read: z.boolean(),
      /** The face twinkles all over in the light (a holo's foil): its small glints were taken as foil, not dents. */
      foil: z.boolean(),
      /** Why the tilt shot was not read, in words; null when it was. */
      note: z.string().nullable(),
    })
    .optional(),
});
export type SurfaceMeasurement = z.infer<typeof surfaceMeasurementSchema>;

export const sideNameSchema = z.enum(['front', 'back']);
export type SideName = z.infer<typeof sideNameSchema>;

/** The card formats the engine tells apart by their shape (src/vision/card-formats.ts). */
export const cardFormatIdSchema = z.enum(['standard', 'japanese-small', 't206', 'goudey-1933', 'bowman-1948', 'bowman-1951', 'topps-1952']);
export type CardFormatId = z.infer<typeof cardFormatIdSchema>;

/** The format a card was found to be, and its size in mm: every millimetre measured on it is of this size. */
export const cardFormatSummarySchema = z.object({
  id: cardFormatIdSchema,
  /** As a collector names it: "1951 Bowman". */
  name: z.string(),
  widthMm: z.number(),
  heightMm: z.number(),
});
export type CardFormatSummary = z.infer<typeof cardFormatSummarySchema>;

export const sideMeasurementSchema = z.object({
  side: sideNameSchema,
  /** The card's format, found from its outline's shape. Absent on results measured before formats were told apart (63 × 88 mm). */
  cardFormat: cardFormatSummarySchema.optional(),
  /** The source photo after EXIF orientation. */
  image: z.object({ width: z.number().int(), height: z.number().int() }),
  /** The card's four virtual corners in source-photo pixels, clockwise from top-left. */
  quad: z.array(pointSchema).length(4),
  /** Rounded (trading-card game) or square corners (many sports cards), as seen. */
  cornerStyle: z.enum(['rounded', 'square']),
  quality: photoQualitySchema,
  centering: centeringSchema,
  corners: z.array(cornerMeasurementSchema).length(4),
  edges: z.array(edgeMeasurementSchema).length(4),
  surface: surfaceMeasurementSchema,
  defects: z.array(defectSchema),
  /** 0..1: how far to trust this side's measurements (photo quality, textured surfaces). */
  confidence: z.number().min(0).max(1),
});
export type SideMeasurement = z.infer<typeof sideMeasurementSchema>;

/** The card's size in mm as measured: its format's, or 63 × 88 mm on a result from before formats were told apart. */
export function measuredCardSize(side: Pick<SideMeasurement, 'cardFormat'>): { widthMm: number; heightMm: number } {
  return side.cardFormat ?? { widthMm: CARD_WIDTH_MM, heightMm: CARD_HEIGHT_MM };
}

/** Why an image cannot be measured; each has its own code so clients and tests can tell them apart. */
export const measurementErrorCodeSchema = z.enum([
  'empty_image', // 0 bytes
  'not_an_image', // not a format we decode (text, SVG)
  'truncated_image', // decoding failed part-way
  'image_too_large', // over the pixel limit (decompression bomb)
  'animated_image', // more than one frame
  'no_card_found', // nothing card-shaped in the photo
  'card_cut_off', // the card touches the photo's edge
  'card_too_small', // under 4.5 px/mm over the card
  'not_card_shaped', // quad not convex or its aspect no card format's (within ± 0.035)
  'card_edge_unseen', // a light border on a light surface: only the printed frame inside it is seen, not the cut
  'blank_image', // one flat colour
]);
export type MeasurementErrorCode = z.infer<typeof measurementErrorCodeSchema>;

/**
 * What the engine saw when it refused a photo, so the screen can draw it on the user's own photo:
 * coordinates are in the pixels of the photo as uploaded, after its EXIF orientation (as a browser shows it).
 * Carried as `details` of a refusal (ImageMeasurementError) and of the HTTP error body.
 */
export const measurementRefusalDetailsSchema = z.object({
  side: z.enum(['front', 'back']).optional(),
  /** The oriented photo's size in pixels. */
  photo: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }),
  /** The card's outline as found (four corners, clockwise from top-left), or null when none was found. */
  outline: z.array(z.object({ x: z.number(), y: z.number() })).length(4).nullable(),
  /** Resolution reached over the card, and what grading needs (card_too_small). */
  pxPerMm: z.number().nullable(),
  neededPxPerMm: z.number().nullable(),
  /** The photo edges the card's outline meets (card_cut_off). */
  cutSides: z.array(z.enum(['top', 'right', 'bottom', 'left'])),
});
export type MeasurementRefusalDetails = z.infer<typeof measurementRefusalDetailsSchema>;
