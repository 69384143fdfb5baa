import type { Defect, Point, SideMeasurement, SideName } from '../contracts/measurement.ts';
import { measureCentering } from './centering.ts';
import { cornerRegions, measureCorners } from './corners.ts';
import type { CornerReport } from './corners.ts';
import { measureEdges } from './edges.ts';
import { normaliseExposure } from './exposure.ts';
import { findCard } from './find-card.ts';
import { formatOfQuad, formatSummary } from './card-formats.ts';
import type { CardFormat } from './card-formats.ts';
import { PICTURE_PX_PER_MM, rimPxPerMm, warpCard } from './flatten.ts';
import type { FlatCard } from './flatten.ts';
import { cardPxPerMm, round } from './geometry.ts';
import type { DecodedImage } from './image.ts';
import { measureQuality } from './quality.ts';
import { RIM_EDGE_BAND_OUTSIDE_MM, backgroundNoise, outlineRiseMm, rimRegions, rimStartMm } from './rim.ts';
import { measureSurface, surfaceGrid } from './surface.ts';
import type { SurfaceReport } from './surface.ts';
import { findInkMarks } from './ink-marks.ts';

/** The flattened card keeps this much of the surroundings (the widest band the rim reads), so the outline can be seen against the background. */
const MARGIN_MM = RIM_EDGE_BAND_OUTSIDE_MM;
/**
 * A card's outline is known to about half a photo pixel, and a corner's shape is read within a pixel or two of it: the
 * corners are read again from the outline moved that far each way along each axis, and each reading is the mean of
 * the five, so where the outline happens to fall within its own uncertainty does not decide a corner's wear.
 */
export const OUTLINE_SHIFTS_PX: readonly (readonly [number, number])[] = [
  [0.5, 0],
  [-0.5, 0],
  [0, 0.5],
  [0, -0.5],
];
/** Holo and textured faces hide small scratches. */
const TEXTURED_CONFIDENCE = 0.8;
/** An edge whose outline cannot be told from its border's pattern hides its nicks. */
const NICKS_UNSEEN_CONFIDENCE = 0.9;

export interface MeasuredSide {
  measurement: SideMeasurement;
  /** The upright card at PICTURE_PX_PER_MM: the surface was measured on it, the annotated picture and OCR use it. */
  picture: DecodedImage;
}

/** Finds the card in the photo and measures it (GRADING.md §1); throws ImageMeasurementError when it cannot. */
export function measureSide(image: DecodedImage, side: SideName): SideMeasurement {
  return measureSideWithPicture(image, side).measurement;
}

/**
 * measureSide, also handing back the picture of the card it warped for the surface, so nobody warps it again.
 * Pure and synchronous: the same pixels always give the same result, numbers rounded so the JSON is identical.
 * `cardNear`: the card's outline found on a smaller decode of the same photo, in this image's pixels, refined here
 * instead of looked for again.
 */
export function measureSideWithPicture(photo: DecodedImage, side: SideName, cardNear?: readonly Point[]): MeasuredSide {
  if (photo.channels !== 3 || photo.data.length !== photo.width * photo.height * 3) {
    throw new Error(`measureSide needs interleaved RGB: ${photo.width} × ${photo.height} × 3 ≠ ${photo.data.length} bytes`);
  }
  const image = normaliseExposure(photo);
  const quad = findCard(image, cardNear);
  // The card's format, told by its outline's shape, gives every millimetre below: px/mm, the flattened card's size,
  // and the die cut its corners are judged against.
  const format = formatOfQuad(quad);
  // Two warps: the rim at the measuring resolution with a margin of background round it (corners, edges, outline
  // sharpness), and the whole face at the picture's (centering strips, surface; the photo rarely has more detail).
  const sourcePxPerMm = cardPxPerMm(quad, format);
  const rim = warpRim(image, quad, format, sourcePxPerMm);
  const face = warpCard(image, quad, format, PICTURE_PX_PER_MM);
  const centering = measureCentering(face);
  const outlineRise = outlineRiseMm(rim);
  const noise = backgroundNoise(rim);
  const corners = cornersAround(image, quad, format, sourcePxPerMm, { rim, rimStart: rimStartMm(outlineRise), noise });
  const edges = measureEdges(rim, rimStartMm(outlineRise), noise, sourcePxPerMm);
  const picture: DecodedImage = { data: face.data, width: face.width, height: face.height, channels: 3 };
  const grid = surfaceGrid(picture, format);
  const surface = withInkMarks(measureSurface(grid, centering.measurable ? centering.innerFrame : undefined), findInkMarks(picture, format));
  const { quality, confidenceFactor } = measureQuality(rim, grid, sourcePxPerMm, surface.glareShare, outlineRise);
  const confidence = confidenceFactor * (surface.surface.textured ? TEXTURED_CONFIDENCE : 1) * (edges.nicksUnseen.length > 0 ? NICKS_UNSEEN_CONFIDENCE : 1);
  const measurement: SideMeasurement = {
    side,
    image: { width: image.width, height: image.height },
    quad: quad.map((p) => ({ x: round(p.x), y: round(p.y) })),
    cardFormat: formatSummary(format),
    cornerStyle: corners.cornerStyle,
    quality,
    centering,
    corners: corners.corners,
    edges: edges.edges,
    surface: surface.surface,
    defects: [...corners.defects, ...edges.defects, ...surface.defects],
    confidence: round(Math.min(1, Math.max(0, confidence))),
  };
  return { measurement, picture };
}

/** The card's rim warped from `quad` at the measuring resolution, with a margin of background round it (corners, edges, outline sharpness). */
export function warpRim(image: DecodedImage, quad: readonly Point[], format: CardFormat, sourcePxPerMm: number): FlatCard {
  return warpCard(image, quad, format, rimPxPerMm(sourcePxPerMm), MARGIN_MM, rimRegions(format));
}

/**
 * The four corners read as measureSide reads them: from `rim` (warped from `quad`, with its rim start and background
 * noise) and from the rim warped again from the outline moved by each of OUTLINE_SHIFTS_PX, each corner's reading the
 * mean of them all.
 */
export function cornersAround(
  image: DecodedImage,
  quad: readonly Point[],
  format: CardFormat,
  sourcePxPerMm: number,
  { rim, rimStart, noise }: { rim: FlatCard; rimStart: number | null; noise: number },
): CornerReport {
  const shifted = OUTLINE_SHIFTS_PX.map(([dx, dy]) => warpCard(image, quad.map((p) => ({ x: p.x + dx, y: p.y + dy })), format, rimPxPerMm(sourcePxPerMm), MARGIN_MM, cornerRegions(format)));
  return measureCorners([rim, ...shifted], rimStart, noise, sourcePxPerMm, format.dieCutRadiiMm);
}

/** Ink marks join the surface's spots; a small spot the surface check found inside a mark is part of it. */
function withInkMarks(report: SurfaceReport, marks: Defect[]): SurfaceReport {
  if (marks.length === 0) return report;
  const inside = (d: Defect) => marks.some((m) => d.box.x < m.box.x + m.box.width && m.box.x < d.box.x + d.box.width && d.box.y < m.box.y + m.box.height && m.box.y < d.box.y + d.box.height);
  const kept = report.defects.filter((d) => d.kind !== 'spot' || !inside(d));
  const spotCount = kept.filter((d) => d.kind === 'spot').length + marks.length;
  return { ...report, defects: [...kept, ...marks], surface: { ...report.surface, spotCount } };
}
