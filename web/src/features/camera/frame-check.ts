// The light check the camera runs on a downscaled frame a few times a second: are the card's four sides near the
// guide, is the picture sharp and still, is there glare on the card? Pure: pixels in, a verdict out, so a test can
// feed it drawn frames. The server measures the card properly; this only helps take a photo it will accept, so its
// "close enough" is the grader's own rule (MIN_PX_PER_MM, from the contracts both import) applied at the resolution
// the photo will be taken at, not at the size of the copy it reads.

// A relative path rather than @contracts: the frame check's tests import this file outside vite.
import { cardPxPerMmOfSize, closeEnoughToGrade } from '../../../../src/contracts/measurement.ts';

/** A card's width over its height, upright (63 × 88 mm). */
export const CARD_ASPECT = 63 / 88;
/** The guide's height as a share of the view's height. */
export const GUIDE_HEIGHT = 0.8;
/** The longer side of the copy of the frame the check reads. */
export const CHECK_SIDE = 320;

export type Rgba = { data: Uint8ClampedArray | Uint8Array; width: number; height: number };
export type Rect = { left: number; top: number; right: number; bottom: number };

/** Where the guide lies in a frame of this size: 80% of its height, 63:88, centred. */
export function guideRect(width: number, height: number): Rect {
  const h = GUIDE_HEIGHT * height;
  const w = Math.min(h * CARD_ASPECT, 0.95 * width);
  return { left: (width - w) / 2, top: (height - h) / 2, right: (width + w) / 2, bottom: (height + h) / 2 };
}

/** The size of the photo that will be taken (the camera's stream, or its still photos), in pixels. */
export type CaptureSize = { width: number; height: number };

/**
 * How many pixels a millimetre of the card found in `frame` will span in a photo of `capture`'s size: the frame is a
 * scaled copy of the same picture, so the card's sides scale with the longer sides of the two (either way up). Each
 * side is found to within a frame pixel, so the card is taken a pixel smaller on each: the smallest it can be, so
 * that a card on the grader's threshold is not called close enough by a rounding of the small copy.
 */
export function capturedPxPerMm(card: Rect, frame: { width: number; height: number }, capture: CaptureSize): number {
  const scale = Math.max(capture.width, capture.height) / Math.max(frame.width, frame.height);
  return cardPxPerMmOfSize(Math.max(0, card.right - card.left - 2) * scale, Math.max(0, card.bottom - card.top - 2) * scale);
}

/**
 * What the check says, in priority order: no card near the guide, a card too small in it (short of the guide, or
 * short of the grader's pixels per millimetre in the photo that will be taken), glare on it, a picture
 * that moves or is blurred, or a card ready to be taken.
 */
export type FrameHint = 'place' | 'closer' | 'glare' | 'steady' | 'ready';

export type FrameCheck = {
  hint: FrameHint;
  /** The card's sides as found (frame pixels), when all four were. */
  card: Rect | null;
  /** Steepest step over the step's size along the sides found, 0..1 (a sharp edge is about 0.5). */
  sharpness: number;
  /** Share of the card's inside that is blown-out white. */
  glare: number;
  /** How far the sides moved since the previous check, in frame pixels. */
  movement: number;
  /** The card's pixels per millimetre in the photo that will be taken (0 when no card was found). */
  pxPerMm: number;
};

/** What the check says to the person holding the camera. */
export const HINT_TEXT: Record<FrameHint, string> = {
  place: 'Fit the card inside the guide',
  closer: 'Move closer',
  glare: 'Tilt to remove the glare',
  steady: 'Hold still',
  ready: 'Card found: keep it there',
};

// A side counts as found where at least MIN_CONSISTENCY of the positions along it step by MIN_STEP levels or more.
const MIN_STEP = 14;
const MIN_CONSISTENCY = 0.55;
const MIN_SHARPNESS = 0.25;
const MAX_MOVEMENT = 1.5;
const MAX_GLARE = 0.015;
/** A card whose height is less than this share of the guide's is too far away. */
const MIN_FILL = 0.82;
/** Positions kept clear of the frame's edge (the step is read 4 positions either side). */
const MARGIN = 5;

function luminance({ data, width, height }: Rgba): Float32Array {
  const out = new Float32Array(width * height);
  for (let i = 0, p = 0; p < out.length; i += 4, p++) out[p] = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
  return out;
}

type Found = { at: number; sharpness: number };

/**
 * One side of the card: scanning from outside the guide inwards across `from`..`to` (perpendicular positions),
 * along `alongFrom`..`alongTo`, the outermost position where most of the side steps by MIN_STEP or more, then the
 * steepest position just after it.
 */
function findSide(lum: Float32Array, width: number, height: number, vertical: boolean, from: number, to: number, alongFrom: number, alongTo: number): Found | null {
  const direction = from < to ? 1 : -1;
  const limit = vertical ? width : height;
  const sample = (across: number, along: number) => (vertical ? lum[along * width + across]! : lum[across * width + along]!);
  const a0 = Math.max(0, Math.round(alongFrom));
  const a1 = Math.min((vertical ? height : width) - 1, Math.round(alongTo));
  const count = a1 - a0 + 1;
  if (count < 4) return null;
  const inside = (c: number) => c >= MARGIN && c <= limit - 1 - MARGIN;

  const stats = (c: number) => {
    let strong = 0;
    let gradientSum = 0;
    let stepSum = 0;
    for (let a = a0; a <= a1; a++) {
      // A small tilt moves the edge by a pixel or two along a side: the largest of three neighbouring gradients.
      const g = Math.max(Math.abs(sample(c + 1, a) - sample(c - 1, a)), Math.abs(sample(c + 2, a) - sample(c, a)), Math.abs(sample(c, a) - sample(c - 2, a))) / 2;
      const jump = Math.abs((sample(c + 4, a) + sample(c + 3, a)) / 2 - (sample(c - 4, a) + sample(c - 3, a)) / 2);
      if (jump >= MIN_STEP) {
        strong++;
        gradientSum += g;
        stepSum += jump;
      }
    }
    return { strong, gradientSum, sharpness: stepSum > 0 ? Math.min(1, gradientSum / stepSum) : 0 };
  };

  for (let c = Math.round(from); direction > 0 ? c <= to : c >= to; c += direction) {
    if (!inside(c)) continue;
    let best = c;
    let bestStats = stats(c);
    if (bestStats.strong / count < MIN_CONSISTENCY) continue;
    for (let k = 1; k <= 4; k++) {
      const next = c + k * direction;
      if (!inside(next)) break;
      const s = stats(next);
      if (s.gradientSum > bestStats.gradientSum) {
        best = next;
        bestStats = s;
      }
    }
    return { at: best, sharpness: bestStats.sharpness };
  }
  return null;
}

/** Share of the card's inside (10% in from its sides) that is near white and unsaturated: light reflected, not print. */
function glareShare({ data, width }: Rgba, card: Rect): number {
  const insetX = 0.1 * (card.right - card.left);
  const insetY = 0.1 * (card.bottom - card.top);
  let glare = 0;
  let total = 0;
  for (let y = Math.round(card.top + insetY); y < card.bottom - insetY; y++) {
    for (let x = Math.round(card.left + insetX); x < card.right - insetX; x++) {
      const i = (y * width + x) * 4;
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      total++;
      if (Math.min(r, g, b) >= 248 && Math.max(r, g, b) - Math.min(r, g, b) <= 12) glare++;
    }
  }
  return total === 0 ? 0 : glare / total;
}

const NOTHING: Omit<FrameCheck, 'hint'> = { card: null, sharpness: 0, glare: 0, movement: Infinity, pxPerMm: 0 };

/**
 * Checks one frame (RGBA, ideally about CHECK_SIDE pixels on its longer side) against the guide. `previous` is the
 * last check's card, for how much it moved; `capture` the size of the photo that will be taken.
 */
export function checkFrame(frame: Rgba, previous: Rect | null, capture: CaptureSize): FrameCheck {
  const { width, height } = frame;
  const guide = guideRect(width, height);
  const gw = guide.right - guide.left;
  const gh = guide.bottom - guide.top;
  const lum = luminance(frame);
  // Each side is looked for from a little outside the guide to well inside it (a card held too far away), along
  // the middle of the side (clear of the rounded corners and of fingers holding the card).
  const outside = 0.1;
  const inside = 0.3;
  const alongY = [guide.top + 0.3 * gh, guide.bottom - 0.3 * gh] as const;
  const alongX = [guide.left + 0.3 * gw, guide.right - 0.3 * gw] as const;
  const left = findSide(lum, width, height, true, guide.left - outside * gw, guide.left + inside * gw, ...alongY);
  const right = findSide(lum, width, height, true, guide.right + outside * gw, guide.right - inside * gw, ...alongY);
  const top = findSide(lum, width, height, false, guide.top - outside * gh, guide.top + inside * gh, ...alongX);
  const bottom = findSide(lum, width, height, false, guide.bottom + outside * gh, guide.bottom - inside * gh, ...alongX);
  if (!left || !right || !top || !bottom) return { hint: 'place', ...NOTHING };

  const card: Rect = { left: left.at, top: top.at, right: right.at, bottom: bottom.at };
  const cw = card.right - card.left;
  const ch = card.bottom - card.top;
  // Four steps that do not make a card's shape are print or background, not a card.
  if (cw <= 0 || ch <= 0 || Math.abs(cw / ch - CARD_ASPECT) > 0.12) return { hint: 'place', ...NOTHING };

  const sharpness = Math.min(left.sharpness, right.sharpness, top.sharpness, bottom.sharpness);
  const movement = previous
    ? Math.max(Math.abs(previous.left - card.left), Math.abs(previous.right - card.right), Math.abs(previous.top - card.top), Math.abs(previous.bottom - card.bottom))
    : Infinity;
  const glare = glareShare(frame, card);
  const pxPerMm = capturedPxPerMm(card, frame, capture);
  const hint: FrameHint =
    ch < MIN_FILL * gh || !closeEnoughToGrade(pxPerMm) ? 'closer' : glare > MAX_GLARE ? 'glare' : movement > MAX_MOVEMENT || sharpness < MIN_SHARPNESS ? 'steady' : 'ready';
  return { hint, card, sharpness, glare, movement, pxPerMm };
}

/** The size to copy a video frame at for the check: CHECK_SIDE on the longer side, never larger than the frame. */
export function checkSize(videoWidth: number, videoHeight: number): { width: number; height: number } {
  const scale = Math.min(1, CHECK_SIDE / Math.max(videoWidth, videoHeight));
  return { width: Math.max(1, Math.round(videoWidth * scale)), height: Math.max(1, Math.round(videoHeight * scale)) };
}
