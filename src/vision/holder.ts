import type { Point } from '../contracts/measurement.ts';
import { CARD_FORMATS, isCardAspect } from './card-formats.ts';
import type { FormatSet } from './card-formats.ts';
import { distance, polygonArea } from './geometry.ts';
import { luma, rgbDistance } from './image.ts';
import type { DecodedImage } from './image.ts';
import { findSlabLabelAbove, holderBodyBelowLabel } from './slab-label.ts';
import { cutInWell } from './well-cut.ts';
import { cardInDarkWell } from './card-in-well.ts';

// A card in a grader's slab. The outline found first is the largest card-shaped one, and in a slab that is the
// holder: its outer frame, its inner wall or the well the card sits in, each a card-shaped rectangle round the card.
// Measured there, the holder's straight plastic edges became print lines and creases, its square corners the card's,
// and the card's own top edge a crease across it. So outlines are looked for again inside the one found, one within
// the other. The first outline is a holder when it shows a wall's second face just inside it, or a grader's label
// above it with a card lying in a dark well inside (isHolder); a raw card shows neither, only its printed frame a
// border's width in. In a holder, the card is the nested outline that most looks like a cut: a plain band outside it
// (the well) that steps to another colour inside it (its border or its art). A printed frame has the card's border
// outside it, and a holder's wall plastic on both sides. Nor does a printed frame lie as far inside as a card lies in
// its holder (MAX_PRINTED_FRAME_SHARE). The outline chosen so is pieced from lines found at one resolution: in a
// dark well its sides are then moved to the card's own cut (well-cut.ts), and where it is still the holder's own
// outline, the card is looked for as the light patch on the well's dark floor inside it (card-in-well.ts).

/** Each look inside an outline leaves out a band this share of its width wide, so its own edge is not found again. */
const INSET_SHARE = 0.015;
/**
 * A nested outline is between these shares of the outer one's size on both axes: a holder's wall lies a millimetre
 * or two inside the next (0.97); a card in a slab's body fills about three quarters of its width.
 */
const MIN_NESTED_SHARE = 0.6;
const MAX_NESTED_SHARE = 0.985;
/**
 * A holder's wall: an outline within this share of the outer one on both axes (about 1.5 mm a side on a card's
 * width; a 2 mm border, the thinnest a card prints, is 0.94 of 63 mm).
 */
const WALL_SHARE = 0.945;
/** A wall's second face is an edge: its cut score at least this share of the clearest outline's inside the holder. */
const WALL_CLARITY = 0.25;
/** A nested outline is centred in the outer within this share of its size (a slab centres the card's well). */
const MAX_OFF_CENTRE_SHARE = 0.12;
/**
 * A card's printed frame lies at most this share of the card's size inside its cut on both axes: a border of 7% of
 * the width each side, 4.4 mm on a 63 mm card, is wider than the borders cards print (2–4 mm: modern, vintage and
 * Pokémon alike). A card-shaped outline further in on both axes, centred, is not the print's frame: the outline
 * round it is a holder's, and it is the card. It tells the holder of a listing photo cropped below its label, its
 * well as light as the plastic, where neither a wall's second face nor a dark well shows (a clear holder over a
 * white table, at 5 px/mm).
 */
const MAX_PRINTED_FRAME_SHARE = 0.86;
/** At most this many outlines within one another: a holder's frame, wall and well, the card, its printed frame. */
const MAX_DEPTH = 5;
/** The bands read beside an outline: this share of its width (about a millimetre on a card) out and in. */
const BAND_SHARE = 0.012;
/** Along each side, the straight part is read between these shares of its length (clear of rounded corners). */
const SIDE_FROM = 0.15;
const SIDE_TO = 0.85;
const SAMPLES_PER_SIDE = 60;
/**
 * How much a band's own variation (mean colour distance from its mean, RGB levels) discounts the step across an
 * outline: a well is plain, so a band outside that varies by this much halves the outline's claim to be the cut.
 */
const PLAIN_BAND_SPREAD = 10;
/**
 * A holder's well is darker than the card in it (the dark insert behind the card, or the scanner's lid behind clear
 * plastic), while a wall steps from its plastic to that darker well and a printed frame from the border to the art,
 * mostly darker: an outline lighter outside than inside counts this share of its step.
 */
const LIGHTER_OUTSIDE_WEIGHT = 0.5;
/**
 * A card lying in a holder's well, told without a label or a wall (a listing photo cropped below the label, at
 * 5 px/mm where a wall's two faces blur into one): a nested outline darker outside, whose cut is clear (a colour step
 * of at least this many RGB levels across a plain well; a printed frame's step inside a border is as sharp, which is
 * why the next rule is needed too) ...
 */
const CLEAR_CUT_STEP = 20;
/**
 * ... and whose well differs from what lies just inside the outer outline by at least this many RGB levels. A raw
 * card's border is one ink from its cut to its printed frame, so its bands there are alike (within 30 levels on the
 * sample and development photos, worn borders included); a holder's plastic just inside its outline is a lighter or
 * other colour than the dark well the card lies in.
 */
const WELL_STEP = 40;
/** Outlines scoring at least this share of the best cut score are all taken for cuts; the largest of them is the card. */
const NEAR_BEST_CUT = 0.6;

/** Every outline the card finder sees in an image (here, a crop inside an outline) of a card of one of `formats`. */
export type OutlineFinder = (image: DecodedImage, formats: FormatSet) => Point[][];

/** The card's outline: `outline` itself for a raw card, else the nested outline that is the card's cut. */
export function cardInHolder(image: DecodedImage, outline: Point[], candidateOutlines: OutlineFinder, formats: FormatSet): Point[] {
  // Outlines within outlines: at each depth, every card-shaped one found inside the last (the line search's and the
  // region unlike the holder's well); the next depth looks inside the largest.
  const nested: Point[][] = [];
  let outer = outline;
  let firstDepth = 0;
  // A whole holder's outline, its label inside its top: the card is looked for in the part below the label, where
  // it is centred (in the whole holder it sits low, under its label). A holder holds a card of any format.
  const body = holderBodyBelowLabel(image, outline, formats);
  const inBody = body === null ? [] : nestedOutlines(image, body, candidateOutlines, CARD_FORMATS);
  if (inBody.length > 0) {
    nested.push(...inBody);
    outer = inBody.reduce((a, b) => (polygonArea(b) > polygonArea(a) ? b : a));
    firstDepth = 1;
  }
  for (let depth = firstDepth; depth < MAX_DEPTH; depth++) {
    const inside = nestedOutlines(image, outer, candidateOutlines, formats);
    if (inside.length === 0) break;
    if (depth === 0 && !isHolder(image, outline, inside, formats)) {
      // No wall, well or label tells a holder; a card-shaped outline too far in to be the print's frame still does.
      const tooFarInForAFrame = inside.filter((quad) => sharesOf(quad, outline).every((share) => share <= MAX_PRINTED_FRAME_SHARE));
      return tooFarInForAFrame.length === 0 ? outline : tooFarInForAFrame.reduce((a, b) => (polygonArea(b) > polygonArea(a) ? b : a));
    }
    nested.push(...inside);
    outer = inside.reduce((a, b) => (polygonArea(b) > polygonArea(a) ? b : a));
  }
  if (nested.length === 0) {
    // No outline offered inside: under a grader's label, the card may still lie on the well's dark floor in it.
    const patch = findSlabLabelAbove(image, outline, formats) === null ? null : cardInDarkWell(image, outline, CARD_FORMATS);
    return patch === null ? outline : cutInWell(image, patch, CARD_FORMATS);
  }
  // A printed frame inside the card can step as sharply (border to art) as the cut does (well to border): of the
  // outlines that look nearly as much like a cut as the best, the card is the largest.
  const scores = nested.map((quad) => cutScore(image, quad));
  const best = Math.max(...scores);
  const cuts = nested.filter((_, i) => scores[i]! >= NEAR_BEST_CUT * best);
  const card = cuts.reduce((a, b) => (polygonArea(b) > polygonArea(a) ? b : a));
  // Still the holder's own outline (its wall lighter than what lies outside it): the card as the light patch on the
  // well's dark floor inside it.
  const inWell = isDarkerOutside(image, card) ? card : cardInDarkWell(image, card, CARD_FORMATS);
  // The outlines offered are pieced from lines found at one resolution: in a dark well each side goes to the cut.
  return inWell !== null && isDarkerOutside(image, inWell) ? cutInWell(image, inWell, CARD_FORMATS) : card;
}

/**
 * Whether `outline`, with these outlines found inside it, is a holder. A holder's wall has two faces a millimetre or
 * two apart: an outline that close inside says it is plastic (a card's printed frame lies at least a border, 2 mm and
 * more, inside its cut), and is an edge nearly as clear as any inside (not the noise of a border's print). Or a card
 * lies inside in a dark well, its cut clear, the well unlike the plastic just inside the outline (CLEAR_CUT_STEP,
 * WELL_STEP). Or a grader's label lies just above the outline and a card lies inside in a well darker than the card
 * (an outline darker outside, or a light patch on a dark floor, card-in-well.ts): a light band with print above a raw
 * card (lettering on the table) is not enough, a raw card's frame has the lighter border outside it, and a raw card's
 * border shows no dark floor inside its rim.
 */
function isHolder(image: DecodedImage, outline: Point[], inside: Point[][], formats: FormatSet): boolean {
  const clearest = Math.max(...inside.map((quad) => cutScore(image, quad)));
  const isWall = (quad: Point[]) => sharesOf(quad, outline).every((share) => share >= WALL_SHARE) && cutScore(image, quad) >= WALL_CLARITY * clearest;
  if (inside.some(isWall)) return true;
  const wellStep = (quad: Point[]) => rgbDistance(band(image, outline, -BAND_SHARE).mean, band(image, quad, BAND_SHARE).mean);
  const inWell = (quad: Point[]) => isDarkerOutside(image, quad) && cutScore(image, quad) >= CLEAR_CUT_STEP && wellStep(quad) >= WELL_STEP;
  if (inside.some(inWell)) return true;
  const cardInside = inside.some((quad) => isDarkerOutside(image, quad)) || cardInDarkWell(image, outline, CARD_FORMATS) !== null;
  return cardInside && findSlabLabelAbove(image, outline, formats) !== null;
}

/** The card-shaped outlines inside `outer`, centred in it. */
function nestedOutlines(image: DecodedImage, outer: Point[], candidateOutlines: OutlineFinder, formats: FormatSet): Point[][] {
  const [outerWidth] = sizeOf(outer);
  const inset = INSET_SHARE * outerWidth;
  const xs = outer.map((p) => p.x);
  const ys = outer.map((p) => p.y);
  const crop = cropOf(image, Math.min(...xs) + inset, Math.min(...ys) + inset, Math.max(...xs) - inset, Math.max(...ys) - inset);
  if (crop === null) return [];
  return candidateOutlines(crop.image, formats)
    .map((found) => found.map((p) => ({ x: p.x + crop.x0, y: p.y + crop.y0 })))
    .filter((quad) => {
      const [width, height] = sizeOf(quad);
      if (!isCardAspect(width / height, formats)) return false;
      const shares = sharesOf(quad, outer);
      if (shares.some((share) => share < MIN_NESTED_SHARE || share > MAX_NESTED_SHARE)) return false;
      return distance(centreOf(quad), centreOf(outer)) <= MAX_OFF_CENTRE_SHARE * outerWidth;
    });
}

/** How much `quad` looks like a card's cut: the colour step across it, discounted by how much the band outside varies. */
function cutScore(image: DecodedImage, quad: Point[]): number {
  const outside = band(image, quad, BAND_SHARE);
  const inside = band(image, quad, -BAND_SHARE);
  const step = rgbDistance(outside.mean, inside.mean);
  return ((luma(...outside.mean) < luma(...inside.mean) ? 1 : LIGHTER_OUTSIDE_WEIGHT) * step) / (1 + outside.spread / PLAIN_BAND_SPREAD);
}

/** Whether the band just outside `quad` is darker than the band just inside it (a card in a dark well). */
function isDarkerOutside(image: DecodedImage, quad: Point[]): boolean {
  return luma(...band(image, quad, BAND_SHARE).mean) < luma(...band(image, quad, -BAND_SHARE).mean);
}

/** Mean colour and mean distance from it of the pixels `offsetShare` of the quad's width outside its sides (inside when negative). */
function band(image: DecodedImage, quad: Point[], offsetShare: number): { mean: [number, number, number]; spread: number } {
  const [width] = sizeOf(quad);
  const centre = centreOf(quad);
  const colours: number[] = [];
  for (let k = 0; k < 4; k++) {
    const a = quad[k]!;
    const b = quad[(k + 1) % 4]!;
    const length = distance(a, b);
    let nx = (b.y - a.y) / length;
    let ny = -(b.x - a.x) / length;
    if ((a.x - centre.x) * nx + (a.y - centre.y) * ny < 0) {
      nx = -nx;
      ny = -ny;
    }
    for (let s = 0; s < SAMPLES_PER_SIDE; s++) {
      const t = SIDE_FROM + ((SIDE_TO - SIDE_FROM) * (s + 0.5)) / SAMPLES_PER_SIDE;
      const x = Math.round(a.x + (b.x - a.x) * t + nx * offsetShare * width);
      const y = Math.round(a.y + (b.y - a.y) * t + ny * offsetShare * width);
      if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
      const i = (y * image.width + x) * 3;
      colours.push(image.data[i]!, image.data[i + 1]!, image.data[i + 2]!);
    }
  }
  const count = colours.length / 3;
  if (count === 0) return { mean: [0, 0, 0], spread: Infinity };
  const mean: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < colours.length; i += 3) for (let c = 0; c < 3; c++) mean[c] = mean[c]! + colours[i + c]! / count;
  let spread = 0;
  for (let i = 0; i < colours.length; i += 3) spread += Math.hypot(colours[i]! - mean[0], colours[i + 1]! - mean[1], colours[i + 2]! - mean[2]) / count;
  return { mean, spread };
}

/** The quad's width and height as shares of the outer's. */
function sharesOf(quad: readonly Point[], outer: readonly Point[]): [number, number] {
  const [width, height] = sizeOf(quad);
  const [outerWidth, outerHeight] = sizeOf(outer);
  return [width / outerWidth, height / outerHeight];
}

/** Mean lengths of the quad's top/bottom and left/right sides. */
function sizeOf(quad: readonly Point[]): [number, number] {
  const [tl, tr, br, bl] = quad as [Point, Point, Point, Point];
  return [(distance(tl, tr) + distance(bl, br)) / 2, (distance(tl, bl) + distance(tr, br)) / 2];
}

function centreOf(quad: readonly Point[]): Point {
  return { x: quad.reduce((s, p) => s + p.x, 0) / 4, y: quad.reduce((s, p) => s + p.y, 0) / 4 };
}

/** The part of the image within [x0, x1) × [y0, y1), clipped to it, with its offset; null when nothing is left. */
function cropOf(image: DecodedImage, x0: number, y0: number, x1: number, y1: number): { image: DecodedImage; x0: number; y0: number } | null {
  const left = Math.max(0, Math.round(x0));
  const top = Math.max(0, Math.round(y0));
  const right = Math.min(image.width, Math.round(x1));
  const bottom = Math.min(image.height, Math.round(y1));
  const width = right - left;
  const height = bottom - top;
  if (width <= 0 || height <= 0) return null;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) data.set(image.data.subarray(((y + top) * image.width + left) * 3, ((y + top) * image.width + right) * 3), y * width * 3);
  return { image: { data, width, height, channels: 3 }, x0: left, y0: top };
}
