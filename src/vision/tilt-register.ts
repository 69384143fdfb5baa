import type { Point } from '../contracts/measurement.ts';
import type { CardFormat } from './card-formats.ts';
import { formatOfQuad } from './card-formats.ts';
import { ImageMeasurementError } from './errors.ts';
import { normaliseExposure } from './exposure.ts';
import { findCard } from './find-card.ts';
import { PICTURE_PX_PER_MM, warpCard } from './flatten.ts';
import type { FlatCard } from './flatten.ts';
import { median, polygonArea } from './geometry.ts';
import { luma } from './image.ts';
import { alignedQuad, similarity } from './tilt-align.ts';
import type { DecodedImage } from './image.ts';

// The tilt shot's first stage: every frame of the card tilted under a light is brought to the card's own coordinates,
// the same ones the front photo is measured in (origin at the card's top-left virtual corner, x right, y down, the
// format's millimetres). Each frame's card is found afresh, so the hand's small movements between frames do not
// matter, and lined up with the first frame (tilt-align); a frame where no card is found (motion blur, the card half
// out of the frame) is left out.

/** The frames are read at the front's picture resolution: the tilt shot is compared with, and drawn like, the front. */
export const TILT_PX_PER_MM = PICTURE_PX_PER_MM;

/** Every frame's lightness (0–255) on the upright card, all of one size; `sent` counts the frames given, card or not. */
export interface RegisteredFrames {
  lightness: Float32Array[];
  width: number;
  height: number;
  pxPerMm: number;
  widthMm: number;
  heightMm: number;
  sent: number;
}

/**
 * Over a couple of seconds the hand keeps the card at about the same distance from the camera: a card found this much
 * larger or smaller in area than in the frames' usual one (4%: 2% of its width, a millimetre and a quarter) was found
 * at something else, a printed frame inside it or its shadow, and the frame is left out.
 */
const AREA_TOLERANCE = 0.04;

/**
 * A frame's flattened card is the front's when their lightness correlates this well: the lamp moves a sheen over it
 * and lights a scratch or two, but the print is the same. Under it the card was found at something else, or the
 * frame is another card, and the frame is left out.
 */
const SAME_CARD_CORRELATION = 0.5;

/**
 * The frames where the card is found, flattened to `format` (the front's). A frame whose card is another shape or size,
 * or does not look like the first frame's (found at something that is not the card), is left out like one without a card.
 */
export function registerTiltFrames(frames: readonly DecodedImage[], format: CardFormat): RegisteredFrames {
  const width = Math.round(format.widthMm * TILT_PX_PER_MM);
  const height = Math.round(format.heightMm * TILT_PX_PER_MM);
  const found = frames.map((frame) => {
    const image = normaliseExposure(frame);
    const quad = cardIn(image, format);
    return quad ? { image, quad, area: polygonArea(quad) } : null;
  });
  const areas = Float64Array.from(found.filter((f) => f !== null).map((f) => f.area));
  const usualArea = areas.length > 0 ? median(areas) : 0;
  const kept = found.filter((f) => f !== null && Math.abs(f.area / usualArea - 1) <= AREA_TOLERANCE);
  const flatten = (image: DecodedImage, quad: readonly Point[]) => ({ lightness: lightnessOf(warpCard(image, quad, format, TILT_PX_PER_MM)), width, height, pxPerMm: TILT_PX_PER_MM });
  // The first frame (the front photo) is the reference the others are lined up with.
  const reference = kept.length > 0 ? flatten(kept[0]!.image, kept[0]!.quad) : null;
  const lightness = kept.flatMap((f, index) => {
    if (index === 0) return [reference!.lightness];
    // A card lying sideways is found upright one way or the other: the way that looks like the reference is the card's.
    const ways = [f!.quad, turnedHalfRound(f!.quad)].map((quad) => ({ quad, flat: flatten(f!.image, quad) }));
    const scored = ways.map((way) => ({ ...way, score: similarity(way.flat, reference!) }));
    const best = scored[1]!.score > scored[0]!.score ? scored[1]! : scored[0]!;
    if (best.score < SAME_CARD_CORRELATION) return [];
    const quad = alignedQuad(best.quad, format, best.flat, reference!);
    return [quad.every((p, i) => p.x === best.quad[i]!.x && p.y === best.quad[i]!.y) ? best.flat.lightness : flatten(f!.image, quad).lightness];
  });
  return { lightness, width, height, pxPerMm: TILT_PX_PER_MM, widthMm: format.widthMm, heightMm: format.heightMm, sent: frames.length };
}

/** The same outline with its corners named from the opposite one: the card turned half round. */
function turnedHalfRound(quad: readonly Point[]): Point[] {
  return [quad[2]!, quad[3]!, quad[0]!, quad[1]!];
}

/** The card's quad in the frame, or null where no card of the front's format is found. */
function cardIn(image: DecodedImage, format: CardFormat): Point[] | null {
  try {
    const quad = findCard(image);
    return formatOfQuad(quad).id === format.id ? quad : null;
  } catch (error) {
    if (error instanceof ImageMeasurementError) return null;
    throw error;
  }
}

function lightnessOf(flat: FlatCard): Float32Array {
  const out = new Float32Array(flat.width * flat.height);
  const { data } = flat;
  for (let p = 0, i = 0; p < out.length; p++, i += 3) out[p] = luma(data[i]!, data[i + 1]!, data[i + 2]!);
  return out;
}
