import type { Point } from '../contracts/measurement.ts';
import { formatOfQuad, isCardAspect, quadAspect, upright } from './card-formats.ts';
import type { FormatSet } from './card-formats.ts';
import { cardPxPerMm, distance, fitLineRobust, intersectLines, isConvex, quadSide } from './geometry.ts';
import type { Line } from './geometry.ts';
import { luma, rgbDistance, sampleRgb } from './image.ts';
import type { DecodedImage } from './image.ts';
import { lineThrough, medianColour } from './outer-sides.ts';

// A silver, white or foil border on white paper, a white desk or light wood (issue 31) is nearly the background's
// colour, while the printed frame just inside it (a Sun & Moon full-art's dark line, the art's own edge) is a strong,
// dark, card-shaped line. Found there, the card reads borderless or short at one side, and its corners as frayed. What
// tells the frame from the cut:
// - the cut is still there, one border-width further out: a fainter edge, straight along the side and parallel to it,
//   a step from the border into the table (a sleeve's outline or a notebook's ruling is a light or coloured ridge
//   with the same table on both sides), or, where border and table are one white, the cut's thin shadow, a dark line;
// - what lies between is one light border all round, near the table's colour (a holder's plastic beside a card, or
//   a dark well round it, is not the card's border);
// - the card's format: a printed frame is narrower for its height than the card (58 × 83 mm inside a 2.5 mm border,
//   0.70 against 63 × 88's 0.716), and one side at its frame makes the outline too short. Moving sides out to their
//   fainter edges must bring the outline nearer its format's shape: a sleeve, a holder's well or a shadow all round a
//   card found at its cut would take it further from it, as any margin added all round does.
// The sides whose cut brings the outline nearest its format's shape are moved there. Where no cut is seen beyond a
// frame at all (white on white, nothing at the cut), the photo is refused (cutUnseen) rather than measured at the frame.

/** Looked past each side for as far as the widest border a card has (about 4 mm on vintage cards) and a little more. */
const REACH_MM = 5;
/** A printed frame lies at least this far inside the cut: thinner borders are not told from the cut's own blur. */
const MIN_BORDER_MM = 1;
/** Profiles across each side, along its straight middle (clear of rounded corners). */
const PROFILES = 48;
const SIDE_FROM = 0.15;
const SIDE_TO = 0.85;
/**
 * The cut's step: the colours 2–5 px either side differ by at least this (RGB levels), and the gradient across it
 * (over two pixels) reaches at least this, as a silver border some 15 levels darker than white paper does; paper's
 * fibres, wood's grain and a JPEG's blocks do not along a straight line, nor a shadow's soft outline.
 */
const MIN_CUT_STEP = 8;
const STEP_GAP_PX = 2;
const STEP_SPAN_PX = 4;
/** The cut must be seen on this share of a side's profiles, within this of one straight line. */
const MIN_SEEN_SHARE = 0.6;
const LINE_FIT_MM = 0.15;
/** The edge found runs along the side within this angle: a cut is parallel to the frame printed inside it. */
const PARALLEL_DEG = 1.5;
/**
 * What lies between a side and the cut beyond it must be a light border on a light table (the silver, white
 * and pale foil borders on paper, a desk or light wood): at least this light (luma, 0–255; silver reads 190–240 in a
 * phone photo, light wood 190–210) and within this colour distance of the table beyond the cut. A holder's dark well
 * round a card, or a coloured border, is far from the table's colour and its cut is found without this.
 */
const LIGHT_BORDER_LUMA = 150;
const LIGHT_BORDER_NEAR = 60;
/** The table is read in this band just beyond the cut (mm). */
const BACKGROUND_BAND_MM = 0.8;
/**
 * A side left at the cut has the border just inside it, read between these distances (mm); the border's colour all
 * round agrees within BORDER_AGREEMENT (RGB levels: a silver foil's sheen, the photo's shading).
 */
const RING_FROM_MM = 0.4;
const RING_TO_MM = 0.9;
const BORDER_AGREEMENT = 30;
/**
 * See cutUnseen: how much narrower than its format a frame reads (a 3 mm border takes 0.02 off 63 × 88's shape; a
 * card photographed straight on reads within about 0.013 of it), the colour steps that tell table, border and art,
 * and how many of the outline's corners must be square print (a miscut card may have one corner cut square).
 */
const FRAME_NARROWER = 0.012;
const MIN_PRINT_CORNERS = 3;
/**
 * An outline at the frame on two sides and at the cut on the others (where the table's shading lets a light border's
 * cut show) is off its format's shape by a border's width on one axis: 3 mm takes some 0.01 off 63 × 88's.
 */
const PART_FRAME_OFF_SHAPE = 0.008;
const LIGHT_TABLE_LUMA = 200;
const UNSEEN_CUT_STEP = 15;
const FRAME_STEP = 30;
/**
 * A card game's corner is cut to a 3 mm arc, which lies 3·(√2 − 1) ≈ 1.2 mm inside the corner its straight sides
 * make: these far in along the diagonal are still the table beside a rounded card (the first at least, however the
 * sides were fitted), and all the art inside a printed frame's square corner.
 */
const CORNER_INSIDE_MM = [0.4, 0.6, 0.8];
/** Moving sides out must bring the outline's aspect this much nearer its format's (photo noise and keystone aside). */
const ASPECT_GAIN = 0.004;

interface CutCandidate {
  line: Line;
  /** The border's colour between the side and the cut (median over the profiles). */
  border: [number, number, number];
}

/**
 * `quad` with any side found at a printed frame moved out to the card's cut beyond it (see above); `quad` itself
 * where no side has such a cut, or moving them does not bring the outline nearer its format's shape.
 */
export function cutBeyondFrame(image: DecodedImage, quad: Point[], formats: FormatSet): Point[] {
  const format = formatOfQuad(quad, formats);
  const pxPerMm = cardPxPerMm(quad, format);
  const candidates = [0, 1, 2, 3].map((k) => cutBeyondSide(image, quad, k, pxPerMm));
  if (candidates.every((c) => c === null)) return quad;
  const sides = [0, 1, 2, 3].map((k) => lineThrough(quad[k]!, quad[(k + 1) % 4]!));
  const insides = [0, 1, 2, 3].map((k) => ringInside(image, quad, k, pxPerMm));
  let best = quad;
  let bestMiss = Math.abs(upright(quadAspect(quad)) - format.aspect) - ASPECT_GAIN;
  // Every set of sides that have a cut beyond them: a full-art's frame lies inside all four, one side's inside one.
  for (let set = 1; set < 16; set++) {
    if ([0, 1, 2, 3].some((k) => (set >> k) & 1 && candidates[k] === null)) continue;
    // One border all round: the bands moved across, and just inside the sides left where they are (at the cut). A
    // holder's plastic between a card and its wall is another colour than the card's own border.
    const borders = [0, 1, 2, 3].map((k) => ((set >> k) & 1 ? candidates[k]!.border : insides[k]!));
    const common = medianColour(borders);
    if (borders.some((colour) => rgbDistance(colour, common) > BORDER_AGREEMENT)) continue;
    const lines = sides.map((line, k) => ((set >> k) & 1 ? candidates[k]!.line : line));
    const corners = [0, 1, 2, 3].map((k) => intersectLines(lines[(k + 3) % 4]!, lines[k]!));
    if (corners.some((c) => c === null)) continue;
    const moved = corners as Point[];
    if (!isConvex(moved) || !isCardAspect(quadAspect(moved), formats)) continue;
    const miss = Math.abs(upright(quadAspect(moved)) - format.aspect);
    if (miss < bestMiss) {
      best = moved;
      bestMiss = miss;
    }
  }
  return best;
}

/**
 * Whether `quad` (as found, after cutBeyondFrame) lies at a printed frame whose card's cut cannot be seen: a light
 * border on a light table with nothing between them (no step, no shadow), so the outline there is the art's window.
 * Such a photo cannot be measured (borders, corners, edges are all at the cut): it is refused with a tip rather than
 * graded at the frame. A frame's side is light just outside, as light a border's width and more further out (no cut
 * seen), and print just inside; where two such sides meet, the corner is square print where a card game's cut is
 * rounded (just inside it the art, not the table). Two ways it shows:
 * - at the frame all round: an outline narrower than its format by FRAME_NARROWER or more (a 3 mm border takes 0.02
 *   off 63 × 88's shape; a card photographed straight on reads within about 0.013 of it), print inside every side,
 *   and MIN_PRINT_CORNERS square corners of print;
 * - at the frame on some sides and at the cut on others, where the table's shading lets the light border's cut show
 *   (a light border just inside those sides): off its format's shape by PART_FRAME_OFF_SHAPE or more, and a square
 *   corner of print between two frame sides.
 */
export function cutUnseen(image: DecodedImage, quad: Point[], formats: FormatSet): boolean {
  const format = formatOfQuad(quad, formats);
  const offShape = format.aspect - upright(quadAspect(quad));
  if (Math.abs(offShape) < PART_FRAME_OFF_SHAPE) return false;
  const pxPerMm = cardPxPerMm(quad, format);
  const sides = [0, 1, 2, 3].map((k) => {
    const outside = bandBeside(image, quad, k, RING_FROM_MM, RING_TO_MM, pxPerMm);
    const inside = ringInside(image, quad, k, pxPerMm);
    const light = luma(...outside) >= LIGHT_TABLE_LUMA;
    return {
      outside,
      // Print just inside a light outside: a frame, or the cut of a card whose border is not light.
      printInside: light && rgbDistance(inside, outside) >= FRAME_STEP,
      // A light border just inside a light outside: the cut of a light-bordered card, seen.
      lightBorderInside: light && luma(...inside) >= LIGHT_TABLE_LUMA && rgbDistance(inside, outside) < FRAME_STEP,
      // No cut beyond: the same colour just outside the side as a border's width and more further out.
      unseen: rgbDistance(outside, bandBeside(image, quad, k, REACH_MM - 1, REACH_MM, pxPerMm)) <= UNSEEN_CUT_STEP,
    };
  });
  // A card game's rounded cut leaves the table just inside each corner its sides make; a frame, its print.
  const centre = { x: quad.reduce((s, p) => s + p.x, 0) / 4, y: quad.reduce((s, p) => s + p.y, 0) / 4 };
  const colour = new Float64Array(3);
  const printCorner = (k: number) => {
    const [before, after] = [sides[(k + 3) % 4]!, sides[k]!];
    if (!before.printInside || !after.printInside) return false;
    const table = medianColour([before.outside, after.outside]);
    return CORNER_INSIDE_MM.every((depth) => {
      const inward = (depth * pxPerMm) / distance(quad[k]!, centre);
      sampleRgb(image, quad[k]!.x + (centre.x - quad[k]!.x) * inward, quad[k]!.y + (centre.y - quad[k]!.y) * inward, colour);
      return rgbDistance([colour[0]!, colour[1]!, colour[2]!], table) >= FRAME_STEP;
    });
  };
  const printCorners = [0, 1, 2, 3].filter(printCorner).length;
  // At the frame all round: narrower than its format, print inside every side, its corners square print.
  if (offShape >= FRAME_NARROWER && sides.every((side) => side.printInside) && sides.some((side) => side.unseen) && printCorners >= MIN_PRINT_CORNERS) return true;
  // At the cut where a light border shows it, at the frame where it does not: the two kinds of side on one card.
  return sides.some((side) => side.lightBorderInside) && sides.some((side) => side.printInside && side.unseen) && printCorners >= 1;
}

/** The card's cut beyond side `k` (from corner k to k + 1), or null where there is none to be seen. */
function cutBeyondSide(image: DecodedImage, quad: readonly Point[], k: number, pxPerMm: number): CutCandidate | null {
  const { a, b, dx, dy, nx, ny } = quadSide(quad, k);
  const reach = Math.round(REACH_MM * pxPerMm);
  const nearest = Math.max(STEP_GAP_PX + STEP_SPAN_PX, Math.round(MIN_BORDER_MM * pxPerMm));
  const backgroundPx = Math.max(2, Math.round(BACKGROUND_BAND_MM * pxPerMm));
  const colour = new Float64Array(3);
  const profile = new Float64Array((reach + 1) * 3);
  const xs: number[] = [];
  const ys: number[] = [];
  const borders: number[][] = [];
  const backgrounds: number[][] = [];
  for (let i = 0; i < PROFILES; i++) {
    const t = SIDE_FROM + ((SIDE_TO - SIDE_FROM) * (i + 0.5)) / PROFILES;
    const px = a.x + (b.x - a.x) * t;
    const py = a.y + (b.y - a.y) * t;
    // Only as far as the photo goes: a step at its edge (a crop's, a scan's) is no cut.
    let inPhoto = reach;
    while (inPhoto > 0 && !isInside(image, px + nx * inPhoto, py + ny * inPhoto)) inPhoto--;
    profile.fill(0);
    for (let o = 0; o <= inPhoto; o++) {
      for (let lane = -1; lane <= 1; lane++) {
        sampleRgb(image, px + nx * o + dx * lane, py + ny * o + dy * lane, colour);
        for (let c = 0; c < 3; c++) profile[o * 3 + c]! += colour[c]! / 3;
      }
    }
    const at = outermostStep(profile, inPhoto - backgroundPx, nearest);
    if (at === null || Math.floor(at) - 1 <= nearest) continue;
    xs.push(px + nx * at);
    ys.push(py + ny * at);
    const beyond = Math.ceil(at) + STEP_GAP_PX + 1;
    borders.push(meanColour(profile, nearest, Math.floor(at) - 1));
    backgrounds.push(meanColour(profile, beyond, Math.min(inPhoto + 1, beyond + backgroundPx)));
  }
  if (xs.length < MIN_SEEN_SHARE * PROFILES) return null;
  const line = fitLineRobust(xs, ys, LINE_FIT_MM * pxPerMm);
  if (line === null) return null;
  const near = xs.filter((x, i) => Math.abs(line.nx * x + line.ny * ys[i]! - line.c) <= LINE_FIT_MM * pxPerMm + 0.5).length;
  if (near < MIN_SEEN_SHARE * PROFILES) return null;
  const side = lineThrough(a, b);
  if (Math.abs(line.nx * side.ny - line.ny * side.nx) > Math.sin((PARALLEL_DEG * Math.PI) / 180)) return null;
  const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  const offset = Math.abs(line.nx * mid.x + line.ny * mid.y - line.c);
  if (offset < MIN_BORDER_MM * pxPerMm) return null;
  // The band between is a light border near the table's colour: a holder's dark well round a card, or a coloured
  // border, differs from the table enough for the card's own edge to have been found in the first place.
  const border = medianColour(borders);
  if (luma(...border) < LIGHT_BORDER_LUMA || rgbDistance(border, medianColour(backgrounds)) > LIGHT_BORDER_NEAR) return null;
  return { line, border };
}

/**
 * Along one profile (colours from the side outwards), the outermost place at least `nearest` px out where the cut is
 * seen: a local maximum of the gradient of at least MIN_CUT_STEP where the colours beyond and before it differ by as
 * much (a step; sub-pixel, at the gradient's peak, or at the darkest point of the cut's thin shadow just inside it),
 * or, with no step (white on white), the outer flank of a thin dark line, the cut's shadow (at its darkest point). A
 * light ridge (a sleeve's outline) is neither. Null where there is none.
 */
function outermostStep(profile: Float64Array, reach: number, nearest: number): number | null {
  const gradient = (o: number) =>
    Math.hypot(profile[(o + 1) * 3]! - profile[(o - 1) * 3]!, profile[(o + 1) * 3 + 1]! - profile[(o - 1) * 3 + 1]!, profile[(o + 1) * 3 + 2]! - profile[(o - 1) * 3 + 2]!);
  for (let o = reach - STEP_GAP_PX - STEP_SPAN_PX; o >= nearest; o--) {
    const g = gradient(o);
    if (g < MIN_CUT_STEP || g < gradient(o - 1) || g < gradient(o + 1)) continue;
    const step = rgbDistance(meanColour(profile, o + STEP_GAP_PX, o + STEP_GAP_PX + STEP_SPAN_PX), meanColour(profile, o - STEP_GAP_PX - STEP_SPAN_PX + 1, o - STEP_GAP_PX + 1));
    if (step < MIN_CUT_STEP) {
      // No step: a white border on white paper, where the cut is seen only as its thin shadow, a dark line.
      const line = cutShadowAt(profile, o, nearest, DARK_LINE_DEPTH);
      if (line !== null && sumOfChannels(profile, o + STEP_GAP_PX) - sumOfChannels(profile, line) >= DARK_LINE_DEPTH) return line;
      continue;
    }
    const valley = cutShadowAt(profile, o, nearest, 1.5 * MIN_CUT_STEP);
    if (valley !== null) return valley;
    const before = gradient(o - 1);
    const after = gradient(o + 1);
    const curvature = before - 2 * g + after;
    return o + (curvature < 0 ? (0.5 * (before - after)) / curvature : 0);
  }
  return null;
}

/** The cut's thin shadow is darkest at the cut and fades outwards: it is looked for this far inside the step (px). */
const CUT_SHADOW_PX = 3;
/**
 * The cut seen only as its shadow (no step between border and table): a dark line this much darker (sum of the three
 * channels, about 10 levels each) than the border inside it and the table beyond. A notebook's ruling is such a line
 * too, but runs along two sides only and never brings a frame's outline to a card's shape with the border all round.
 */
const DARK_LINE_DEPTH = 30;

const sumOfChannels = (profile: Float64Array, at: number) => profile[at * 3]! + profile[at * 3 + 1]! + profile[at * 3 + 2]!;

/**
 * Where a step at `o` is the outer flank of the cut's thin shadow (a dark line at the cut, darker than the border
 * inside it by `depth`, in the sum of the three channels), the darkest point of that line, which is the cut; otherwise null.
 */
function cutShadowAt(profile: Float64Array, o: number, nearest: number, depth: number): number | null {
  let darkest = o;
  for (let at = o - 1; at >= Math.max(nearest, o - CUT_SHADOW_PX); at--) if (sumOfChannels(profile, at) < sumOfChannels(profile, darkest)) darkest = at;
  const border = sumOfChannels(profile, Math.max(0, darkest - CUT_SHADOW_PX));
  return darkest < o && border - sumOfChannels(profile, darkest) >= depth ? darkest : null;
}

/** Whether (x, y) lies a pixel or more inside the photo. */
function isInside(image: DecodedImage, x: number, y: number): boolean {
  return x >= 1 && y >= 1 && x <= image.width - 2 && y <= image.height - 2;
}

/** The median colour of the ring RING_FROM_MM to RING_TO_MM inside side `k`: a side at the cut has the border there. */
function ringInside(image: DecodedImage, quad: readonly Point[], k: number, pxPerMm: number): [number, number, number] {
  return bandBeside(image, quad, k, -RING_TO_MM, -RING_FROM_MM, pxPerMm);
}

/** The median colour along side `k` of the band `fromMm` to `toMm` outside it (inside, where negative). */
function bandBeside(image: DecodedImage, quad: readonly Point[], k: number, fromMm: number, toMm: number, pxPerMm: number): [number, number, number] {
  const { a, b, nx, ny } = quadSide(quad, k);
  const colour = new Float64Array(3);
  const colours: number[][] = [];
  for (let i = 0; i < PROFILES; i++) {
    const t = SIDE_FROM + ((SIDE_TO - SIDE_FROM) * (i + 0.5)) / PROFILES;
    const sum = [0, 0, 0];
    let count = 0;
    for (let d = fromMm * pxPerMm; d <= toMm * pxPerMm; d += 1, count++) {
      sampleRgb(image, a.x + (b.x - a.x) * t + nx * d, a.y + (b.y - a.y) * t + ny * d, colour);
      for (let c = 0; c < 3; c++) sum[c] = sum[c]! + colour[c]!;
    }
    colours.push(sum.map((v) => v / Math.max(1, count)));
  }
  return medianColour(colours);
}

/** Mean colour of profile positions [from, to). */
function meanColour(profile: Float64Array, from: number, to: number): [number, number, number] {
  const sum: [number, number, number] = [0, 0, 0];
  for (let o = from; o < to; o++) for (let c = 0; c < 3; c++) sum[c] = sum[c]! + profile[o * 3 + c]!;
  return [sum[0] / (to - from), sum[1] / (to - from), sum[2] / (to - from)];
}
