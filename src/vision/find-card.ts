import type { MeasurementErrorCode, MeasurementRefusalDetails, Point } from '../contracts/measurement.ts';
import { closeEnoughToGrade } from '../contracts/measurement.ts';
import { ImageMeasurementError } from './errors.ts';
import { cardPxPerMm, distance, fitLineRobust, intersectLines, isConvex, round } from './geometry.ts';
import type { Line } from './geometry.ts';
import { sampleRgb } from './image.ts';
import { openMask } from './mask-morphology.ts';
import { growRegion } from './regions.ts';
import { findCardByLines } from './card-lines.ts';
import { outermostSides } from './outer-sides.ts';
import { cutBeyondFrame, cutUnseen } from './cut-beyond-frame.ts';
import { cardInHolder } from './holder.ts';
import { MIN_PX_PER_MM } from './card-outline.ts';
import { CARD_FORMATS, COMMON_FORMATS, formatOfQuad, isCardAspect, quadAspect } from './card-formats.ts';
import type { FormatSet } from './card-formats.ts';
import type { DecodedImage } from './image.ts';

const MIN_FILL = 0.2;
/** How far a 3 mm corner's arc lies inside the corner its straight sides make: 3·(√2 − 1)·√2 ≈ 1.8 mm, rounded up. */
const ROUNDED_CORNER_MM = 2;

/** The longer side of the copy the card is first looked for on. */
const OVERVIEW_SIDE = 320;
/**
 * Foreground thinner than 2 × this + 1 overview pixels (about 1.5% of the photo's long side) is background texture:
 * the smallest card we grade (4.5 px/mm in a 1080p frame) is still 15% of the photo across.
 */
const THIN_STRUCTURE_RADIUS = 2;

/**
 * Finds the card's four virtual corners (source pixel indices, clockwise from top-left, the card upright):
 * background from the photo's rim, the largest foreground region, one line per side, then each line refined on
 * the full-resolution edge. Refuses, never guesses, when what it finds is not a whole card.
 *
 * First as a 63 × 88 mm card, as nearly every card photographed is: only when no outline of that shape is found is
 * every format's shape accepted (card-formats.ts). Looked for in every format at once, a rectangle inside a common
 * card (its art's frame, a box in its print, a stretch of notebook paper beside it) can have a vintage card's shape
 * and be taken for the card. A vintage card's print frame between its own top and bottom edges can have a common
 * card's shape too: outer-sides.ts then moves its sides out to where the border meets the background, and the
 * outline, no longer a common card's shape, is looked for again in every format.
 */
export function findCard(image: DecodedImage, near?: readonly Point[]): Point[] {
  const refined = near === undefined ? null : cardNear(image, near);
  if (refined === null) return searchCard(image);
  // Looked for again all the same: an outline that agrees with it is the same card, found with this decode's detail;
  // any other is the search settling on other lines (a slab's wall, a frame printed inside the card).
  let searched: Point[] | null = null;
  try {
    searched = searchCard(image);
  } catch (refusal) {
    if (!(refusal instanceof ImageMeasurementError)) throw refusal;
  }
  if (searched === null) return refined;
  const agrees = Math.max(...searched.map((p, k) => distance(p, refined[k]!))) <= NEAR_AGREEMENT_MM * cardPxPerMm(refined, formatOfQuad(refined, CARD_FORMATS));
  return agrees ? searched : refined;
}

/** Two outlines whose corners all lie within this of each other are the same card's (a border is 2 mm and more). */
const NEAR_AGREEMENT_MM = 1;

/** The card looked for in the whole photo: as a common card first, then in every format. */
function searchCard(image: DecodedImage): Point[] {
  try {
    return findCardOfFormats(image, COMMON_FORMATS);
  } catch (refusal) {
    if (!(refusal instanceof ImageMeasurementError) || !NOT_FOUND_AS_COMMON.has(refusal.code)) throw refusal;
    try {
      return findCardOfFormats(image, CARD_FORMATS);
    } catch (any) {
      // A card found in another format but cut off or too small says more than "not a card"; otherwise the first answer stands.
      if (any instanceof ImageMeasurementError && FOUND_BUT_REFUSED.has(any.code)) throw any;
      throw refusal;
    }
  }
}

/**
 * How far, in this image's pixels per pixel of the one `near` was found on, a side found on a smaller decode of the
 * same photo may lie from the card's edge here: its own rounding, and the edge's blur at the smaller size.
 */
const NEAR_FACTOR = 2;

/**
 * The card found before on a smaller decode of the same photo (`near`, scaled to this image), each side refined on
 * this one's edges. A larger decode is made for the detail, not to look for the card again: searched afresh at a few
 * percent more pixels, the line search can piece another outline together (a slab's wall and well have many lines).
 * Null when the refined outline is no longer a whole card of any format, which is then looked for as usual.
 */
function cardNear(image: DecodedImage, near: readonly Point[]): Point[] | null {
  const quad = refineQuad(image, [...near], NEAR_FACTOR, CARD_FORMATS);
  if (quad === null || !isConvex(quad) || !isCardAspect(aspectOf(quad), CARD_FORMATS)) return null;
  const pxPerMm = cardPxPerMm(quad, formatOfQuad(quad, CARD_FORMATS));
  if (sidesBeyondPhoto(image, quad, ROUNDED_CORNER_MM * pxPerMm).length > 0 || !closeEnoughToGrade(pxPerMm)) return null;
  return quad;
}

/** The refusals after which the card is looked for again in every format. */
const NOT_FOUND_AS_COMMON: ReadonlySet<MeasurementErrorCode> = new Set(['not_card_shaped', 'no_card_found']);
/** The refusals that say a card of some format was found, and what is wrong with its photo. */
const FOUND_BUT_REFUSED: ReadonlySet<MeasurementErrorCode> = new Set(['card_cut_off', 'card_too_small']);

function findCardOfFormats(image: DecodedImage, formats: FormatSet): Point[] {
  const overview = makeOverview(image);
  const pxPerMmOf = (quad: readonly Point[]) => cardPxPerMm(quad, formatOfQuad(quad, formats));
  const refuse = (code: MeasurementErrorCode, message: string, outline: Point[] | null = null, cutSides: EdgeSide[] = []) =>
    new ImageMeasurementError(code, message, refusalDetails(image, outline, cutSides, formats));
  if (isBlank(overview)) throw refuse('blank_image', 'The photo is blank: take a photo of the card.');
  const byLines = findCardByLines(image, formats);
  const found =
    byLines === null || byLines.quads.length === 0
      ? findCardByColourOrThumbnail(image, overview, refuse, formats, byLines?.thumbnailCard ?? null)
      : firstRefined(image, byLines.quads, byLines.pxPerSearchPx, formats);
  const outline = found === null ? null : outermostSides(image, found, formats);
  // The outline may be a grader's slab round the card: the card is then one of the outlines nested inside it. A side
  // found at a printed frame inside a border the colour of the table (a silver border on white paper) goes out to the cut.
  const quad = outline === null ? null : cutBeyondFrame(image, cardInHolder(image, outline, candidateOutlines, formats), formats);
  if (quad === null || !isConvex(quad) || !isCardAspect(aspectOf(quad), formats)) {
    // A thumbnail's card is too coarse for its outline to keep a card's shape: the reason that helps is its size.
    if (quad !== null && isConvex(quad) && !closeEnoughToGrade(pxPerMmOf(quad))) throw tooSmall(quad, pxPerMmOf(quad), refuse);
    throw refuse('not_card_shaped', 'What was found is not shaped like a card: photograph the card straight on, flat, in full.', quad);
  }
  if (cutUnseen(image, quad, formats)) {
    throw refuse('card_edge_unseen', "The card's edge cannot be told from the surface under it: put the card on a darker surface.", quad);
  }
  // The quad's corners are where the straight sides meet: a rounded card's outline stays inside them by up to
  // ROUNDED_CORNER_MM, so a corner may lie that far past the photo's edge with the whole card still in frame.
  const cutSides = sidesBeyondPhoto(image, quad, ROUNDED_CORNER_MM * pxPerMmOf(quad));
  if (cutSides.length > 0) {
    throw refuse('card_cut_off', 'The card is cut off by the edge of the photo: keep the whole card in the frame.', quad, cutSides);
  }
  if (!closeEnoughToGrade(pxPerMmOf(quad))) throw tooSmall(quad, pxPerMmOf(quad), refuse);
  return quad;
}

type EdgeSide = MeasurementRefusalDetails['cutSides'][number];

function tooSmall(quad: Point[], pxPerMm: number, refuse: RefusalMaker): ImageMeasurementError {
  return refuse(
    'card_too_small',
    `The card is too small in the photo (${pxPerMm.toFixed(1)} pixels per millimetre; grading needs ${MIN_PX_PER_MM}): move closer or use a sharper photo.`,
    quad,
  );
}

/**
 * Every card-shaped outline found in `image` (a crop inside a holder), refined: those the line search offers, then
 * the region unlike the crop's rim (a card against its holder's well). Never refuses: none is an empty list.
 */
function candidateOutlines(image: DecodedImage, formats: FormatSet): Point[][] {
  const byLines = findCardByLines(image, formats);
  const outlines = (byLines?.quads ?? []).map((quad) => refineQuad(image, quad, byLines!.pxPerSearchPx, formats)).filter((quad) => quad !== null);
  try {
    const overview = makeOverview(image);
    const byColour = findCardByColour(image, overview, (code, message) => new ImageMeasurementError(code, message, refusalDetails(image, null, [], formats)), formats);
    if (byColour !== null) outlines.push(byColour);
  } catch (error) {
    if (!(error instanceof ImageMeasurementError)) throw error;
  }
  return outlines.map((quad) => outermostSides(image, quad, formats));
}

/** The photo edges a quad reaches past by more than `allowance` pixels. */
function sidesBeyondPhoto(image: DecodedImage, quad: readonly Point[], allowance: number): EdgeSide[] {
  const sides: EdgeSide[] = [];
  if (quad.some((p) => p.y < -allowance)) sides.push('top');
  if (quad.some((p) => p.x > image.width - 1 + allowance)) sides.push('right');
  if (quad.some((p) => p.y > image.height - 1 + allowance)) sides.push('bottom');
  if (quad.some((p) => p.x < -allowance)) sides.push('left');
  return sides;
}

/** What a refusal tells the screen, in this image's pixels (the grading service scales them to the photo's). */
function refusalDetails(image: DecodedImage, outline: Point[] | null, cutSides: EdgeSide[], formats: FormatSet): MeasurementRefusalDetails {
  return {
    photo: { width: image.width, height: image.height },
    outline: outline === null ? null : outline.map((p) => ({ x: round(p.x, 0.1), y: round(p.y, 0.1) })),
    pxPerMm: outline === null ? null : round(cardPxPerMm(outline, formatOfQuad(outline, formats)), 0.1),
    neededPxPerMm: MIN_PX_PER_MM,
    cutSides,
  };
}

/**
 * The card by colour; where that finds none, or one cut by the photo's edge, while the line search saw a whole card
 * too coarse to grade (a thumbnail's), the refusal that helps is its size.
 */
function findCardByColourOrThumbnail(image: DecodedImage, overview: Overview, refuse: RefusalMaker, formats: FormatSet, thumbnailCard: Point[] | null): Point[] | null {
  try {
    return findCardByColour(image, overview, refuse, formats);
  } catch (error) {
    const sizeIsTheReason = error instanceof ImageMeasurementError && (error.code === 'card_cut_off' || error.code === 'no_card_found');
    if (sizeIsTheReason && thumbnailCard !== null) throw tooSmall(thumbnailCard, cardPxPerMm(thumbnailCard, formatOfQuad(thumbnailCard, formats)), refuse);
    throw error;
  }
}

/** The card as the largest region unlike the background round the photo's rim (a card on a plain surface). */
function findCardByColour(image: DecodedImage, overview: Overview, refuse: RefusalMaker, formats: FormatSet): Point[] | null {
  const region = largestForegroundRegion(overview);
  const photoArea = overview.width * overview.height;
  if (region === null || region.area < 0.02 * photoArea) {
    throw refuse('no_card_found', 'No card was found in the photo: lay the card on a plain, contrasting surface.');
  }
  const coarse = coarseQuad(overview, region);
  const quad = coarse === null ? null : scaleQuad(coarse, overview.factor);
  if (region.cutSides.length > 0) {
    throw refuse('card_cut_off', 'The card is cut off by the edge of the photo: keep the whole card in the frame.', quad, region.cutSides);
  }
  const refined = quad === null ? null : refineQuad(image, quad, overview.factor, formats);
  if ((refined === null || !isCardAspect(aspectOf(refined), formats)) && region.area < MIN_FILL * photoArea) {
    throw refuse('no_card_found', 'No card was found in the photo: lay the card on a plain, contrasting surface.');
  }
  return refined;
}

type RefusalMaker = (code: MeasurementErrorCode, message: string, outline?: Point[] | null, cutSides?: EdgeSide[]) => ImageMeasurementError;

/** Width over height of a quad, from the mean lengths of its opposite sides. */
export const aspectOf = quadAspect;

interface Overview {
  /** Mean RGB per overview pixel. */
  data: Float32Array;
  width: number;
  height: number;
  /** Source pixels per overview pixel. */
  factor: number;
}

/** A small copy: each pixel the mean of a few samples from its block, so finding the card costs little. */
function makeOverview(image: DecodedImage): Overview {
  const factor = Math.max(1, Math.ceil(Math.max(image.width, image.height) / OVERVIEW_SIDE));
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const data = new Float32Array(width * height * 3);
  // At most 3 × 3 samples per block: enough to average out noise, cheap on a 12-MP photo.
  const perAxis = Math.min(factor, 3);
  const offsets = new Int32Array(perAxis);
  for (let k = 0; k < perAxis; k++) offsets[k] = Math.min(factor - 1, Math.round(((k + 0.5) * factor) / perAxis - 0.5));
  for (let y = 0; y < height; y++) overviewRow(image, factor, offsets, y, width, data);
  return { data, width, height, factor };
}

function overviewRow(image: DecodedImage, factor: number, offsets: Int32Array, y: number, width: number, out: Float32Array): void {
  const source = image.data;
  const n = offsets.length * offsets.length;
  for (let x = 0; x < width; x++) {
    let r = 0;
    let g = 0;
    let b = 0;
    for (let a = 0; a < offsets.length; a++) {
      const row = (y * factor + offsets[a]!) * image.width + x * factor;
      for (let c = 0; c < offsets.length; c++) {
        const i = (row + offsets[c]!) * 3;
        r += source[i]!;
        g += source[i + 1]!;
        b += source[i + 2]!;
      }
    }
    const o = (y * width + x) * 3;
    out[o] = r / n;
    out[o + 1] = g / n;
    out[o + 2] = b / n;
  }
}

/** One flat colour: every channel's 1st to 99th percentile within a few levels. */
function isBlank(overview: Overview): boolean {
  const count = overview.width * overview.height;
  for (let c = 0; c < 3; c++) {
    const histogram = new Uint32Array(256);
    for (let i = 0; i < count; i++) histogram[Math.round(overview.data[i * 3 + c]!)]!++;
    if (percentileOfHistogram(histogram, count, 0.99) - percentileOfHistogram(histogram, count, 0.01) > 14) return false;
  }
  return true;
}

function percentileOfHistogram(histogram: Uint32Array, count: number, share: number): number {
  const target = share * count;
  let seen = 0;
  for (let v = 0; v < histogram.length; v++) {
    seen += histogram[v]!;
    if (seen >= target) return v;
  }
  return histogram.length - 1;
}

interface Region {
  /** Overview pixel indices. */
  pixels: Int32Array;
  area: number;
  /** The photo edges the region reaches. */
  cutSides: EdgeSide[];
}

/**
 * The background is modelled from the photo's outer rim as a plane per channel (so a lighting gradient across a
 * table stays background); pixels far from it are foreground, and the largest 4-connected foreground region wins.
 */
function largestForegroundRegion(overview: Overview): Region | null {
  const { width, height } = overview;
  const count = width * height;
  const rim = Math.max(2, Math.round(0.03 * Math.min(width, height)));
  const rimList: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (x < rim || y < rim || x >= width - rim || y >= height - rim) rimList.push(y * width + x);
    }
  }
  // Least trimmed squares: refit on the 60% of the rim closest to the model, so a card or an object reaching the
  // photo's edge does not drag the background model towards its own colour.
  let rimPixels = Int32Array.from(rimList);
  const distances = new Float32Array(count);
  let model = fitBackgroundPlanes(overview, rimPixels);
  for (let round = 0; round < 3; round++) {
    backgroundDistances(overview, model, distances);
    const cutoff = quantileAt(distances, rimPixels, 0.6);
    rimPixels = rimPixels.filter((p) => distances[p]! <= cutoff);
    model = fitBackgroundPlanes(overview, rimPixels);
  }
  backgroundDistances(overview, model, distances);
  // The kept 60% of an honest background rim still spans its noise; its 90th percentile sets the threshold.
  const threshold = Math.max(28, 3 * quantileAt(distances, rimPixels, 0.9) + 8);

  const differs = new Uint8Array(count);
  for (let p = 0; p < count; p++) differs[p] = distances[p]! > threshold ? 1 : 0;
  // Thin things that differ from the background (a notebook's rulings, wood grain, a sleeve's edge, a crease in a
  // playmat) are opened away, so they neither join the card to the photo's edge nor bend its outline.
  const foreground = openMask(differs, width, height, THIN_STRUCTURE_RADIUS);

  // Flood fill: `visited` marks pixels already in some region; `members` holds the current one.
  const visited = new Uint8Array(count);
  const members = new Int32Array(count);
  let best: Region | null = null;
  for (let start = 0; start < count; start++) {
    if (foreground[start] === 0 || visited[start] === 1) continue;
    const size = growRegion(start, width, height, 4, isForeground, foreground, visited, members);
    if (best !== null && size <= best.area) continue;
    const touches = { top: false, right: false, bottom: false, left: false };
    for (let i = 0; i < size; i++) {
      const p = members[i]!;
      const x = p % width;
      if (x === 0) touches.left = true;
      if (x === width - 1) touches.right = true;
      if (p < width) touches.top = true;
      if (p >= count - width) touches.bottom = true;
    }
    const cutSides = (['top', 'right', 'bottom', 'left'] as const).filter((side) => touches[side]);
    best = { pixels: members.slice(0, size), area: size, cutSides };
  }
  return best;
}

const isForeground = (pixel: number, foreground: Uint8Array) => foreground[pixel] === 1;

/** Per channel, colour ≈ a + b·x + c·y by least squares over the given pixels. */
function fitBackgroundPlanes(overview: Overview, pixels: Int32Array): Float64Array {
  // Normal equations for [1, x, y]; coordinates centred and scaled for conditioning.
  const cx = overview.width / 2;
  const cy = overview.height / 2;
  const s = Math.max(overview.width, overview.height);
  const m = new Float64Array(9);
  const rhs = new Float64Array(9);
  // In chunks: V8 optimises a hot function far better than a long loop it entered on the stack.
  for (let from = 0; from < pixels.length; from += 4096) {
    accumulatePlanes(overview, pixels.subarray(from, from + 4096), cx, cy, s, m, rhs);
  }
  m[3] = m[1]!;
  m[6] = m[2]!;
  m[7] = m[5]!;
  const model = new Float64Array(9);
  for (let c = 0; c < 3; c++) {
    const solution = solve3(m, [rhs[c * 3]!, rhs[c * 3 + 1]!, rhs[c * 3 + 2]!]);
    model[c * 3] = solution[0];
    model[c * 3 + 1] = solution[1] / s;
    model[c * 3 + 2] = solution[2] / s;
  }
  // Store the intercept at the image origin rather than its centre.
  for (let c = 0; c < 3; c++) model[c * 3] = model[c * 3]! - model[c * 3 + 1]! * cx - model[c * 3 + 2]! * cy;
  return model;
}

/** Adds the pixels' terms to the normal equations' upper triangle `m` and right-hand sides `rhs` (three per channel). */
function accumulatePlanes(overview: Overview, pixels: Int32Array, cx: number, cy: number, s: number, m: Float64Array, rhs: Float64Array): void {
  const { width, data } = overview;
  for (let i = 0; i < pixels.length; i++) {
    const p = pixels[i]!;
    const x = ((p % width) - cx) / s;
    const y = (Math.floor(p / width) - cy) / s;
    m[0]! += 1;
    m[1]! += x;
    m[2]! += y;
    m[4]! += x * x;
    m[5]! += x * y;
    m[8]! += y * y;
    for (let c = 0; c < 3; c++) {
      const v = data[p * 3 + c]!;
      rhs[c * 3]! += v;
      rhs[c * 3 + 1]! += x * v;
      rhs[c * 3 + 2]! += y * v;
    }
  }
}

function solve3(m: Float64Array, b: number[]): [number, number, number] {
  const det = (a: number[]) => a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!) - a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!) + a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!);
  const base = Array.from(m);
  const d = det(base);
  if (Math.abs(d) < 1e-12) return [b[0]! / Math.max(1, m[0]!), 0, 0];
  const column = (k: number) => det(base.map((v, i) => (i % 3 === k ? b[Math.floor(i / 3)]! : v)));
  return [column(0) / d, column(1) / d, column(2) / d];
}

/** Each overview pixel's colour distance from the background model. */
function backgroundDistances(overview: Overview, model: Float64Array, out: Float32Array): void {
  const { width, height, data } = overview;
  const [r0, rx, ry, g0, gx, gy, b0, bx, by] = model as unknown as number[];
  for (let y = 0, p = 0; y < height; y++) {
    for (let x = 0; x < width; x++, p++) {
      const dr = data[p * 3]! - (r0! + rx! * x + ry! * y);
      const dg = data[p * 3 + 1]! - (g0! + gx! * x + gy! * y);
      const db = data[p * 3 + 2]! - (b0! + bx! * x + by! * y);
      out[p] = Math.sqrt(dr * dr + dg * dg + db * db);
    }
  }
}

function quantileAt(values: Float32Array, at: Int32Array, q: number): number {
  if (at.length === 0) return 0;
  const picked = new Float32Array(at.length);
  for (let i = 0; i < at.length; i++) picked[i] = values[at[i]!]!;
  picked.sort();
  return picked[Math.min(picked.length - 1, Math.floor(q * picked.length))]!;
}

/**
 * The region's four sides: in the frame of its principal axes, the outermost pixel of each row and column in the
 * middle 70% of the card (away from rounded corners), one robust line per side, intersected.
 */
function coarseQuad(overview: Overview, region: Region): Point[] | null {
  const { width } = overview;
  let sx = 0;
  let sy = 0;
  for (const p of region.pixels) {
    sx += p % width;
    sy += Math.floor(p / width);
  }
  const mx = sx / region.area;
  const my = sy / region.area;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const p of region.pixels) {
    const dx = (p % width) - mx;
    const dy = Math.floor(p / width) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  // The long axis is the card's vertical; "down" is the long-axis direction closest to the photo's down.
  const major = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  let downX = Math.cos(major);
  let downY = Math.sin(major);
  if (downY < 0 || (downY === 0 && downX < 0)) { downX = -downX; downY = -downY; }
  const rightX = downY;
  const rightY = -downX;

  const us = new Float64Array(region.area);
  const vs = new Float64Array(region.area);
  let minU = Infinity;
  let maxU = -Infinity;
  let minV = Infinity;
  let maxV = -Infinity;
  for (let i = 0; i < region.area; i++) {
    const p = region.pixels[i]!;
    const dx = (p % width) - mx;
    const dy = (p - (p % width)) / width - my;
    const u = dx * rightX + dy * rightY;
    const v = dx * downX + dy * downY;
    us[i] = u;
    vs[i] = v;
    if (u < minU) minU = u;
    if (u > maxU) maxU = u;
    if (v < minV) minV = v;
    if (v > maxV) maxV = v;
  }
  const vBins = Math.floor(maxV - minV) + 1;
  const uBins = Math.floor(maxU - minU) + 1;
  const leftmost = new Int32Array(vBins).fill(-1);
  const rightmost = new Int32Array(vBins).fill(-1);
  const topmost = new Int32Array(uBins).fill(-1);
  const bottommost = new Int32Array(uBins).fill(-1);
  for (let i = 0; i < region.area; i++) {
    const vb = Math.floor(vs[i]! - minV);
    const ub = Math.floor(us[i]! - minU);
    if (leftmost[vb] === -1 || us[i]! < us[leftmost[vb]!]!) leftmost[vb] = i;
    if (rightmost[vb] === -1 || us[i]! > us[rightmost[vb]!]!) rightmost[vb] = i;
    if (topmost[ub] === -1 || vs[i]! < vs[topmost[ub]!]!) topmost[ub] = i;
    if (bottommost[ub] === -1 || vs[i]! > vs[bottommost[ub]!]!) bottommost[ub] = i;
  }
  const sideLine = (extremes: Int32Array): Line | null => {
    const xs: number[] = [];
    const ys: number[] = [];
    const from = Math.floor(extremes.length * 0.15);
    const to = Math.ceil(extremes.length * 0.85);
    for (let b = from; b < to; b++) {
      const i = extremes[b]!;
      if (i === -1) continue;
      const p = region.pixels[i]!;
      xs.push(p % width);
      ys.push(Math.floor(p / width));
    }
    return fitLineRobust(xs, ys, 0.7);
  };
  const left = sideLine(leftmost);
  const right = sideLine(rightmost);
  const top = sideLine(topmost);
  const bottom = sideLine(bottommost);
  if (!left || !right || !top || !bottom) return null;
  const corners = [intersectLines(left, top), intersectLines(top, right), intersectLines(right, bottom), intersectLines(bottom, left)];
  if (corners.some((c) => c === null)) return null;
  return corners as Point[];
}

/** Overview pixel (x, y) is the mean of source block [x·f, x·f + f); its centre is at x·f + (f − 1)/2. */
function scaleQuad(quad: Point[], factor: number): Point[] {
  return quad.map((p) => ({ x: p.x * factor + (factor - 1) / 2, y: p.y * factor + (factor - 1) / 2 }));
}

/**
 * Each side again at full resolution: colour profiles across the coarse line at many places along its middle 80%,
 * the edge at the outermost strong colour gradient (sub-pixel), a robust line through those points.
 */
/**
 * A card's edge changes colour for good: the mean colours 2–5 px either side of it differ by at least this share of
 * its peak gradient. A sleeve's ridge (light, about 2 px wide) has the same background either side, so its step is
 * a small share of its gradient.
 */
const STEP_SHARE = 0.5;
/** A penny sleeve's outline lies up to about this far outside the card. */
const SLEEVE_MARGIN_MM = 3;
const STEP_GAP_PX = 2;
const STEP_SPAN_PX = 4;

/** Colour difference between the means of the profile just beyond and just before position `o`. */
function stepContrast(profile: Float64Array, o: number, profileLength: number): number {
  const outside = [0, 0, 0];
  const inside = [0, 0, 0];
  let outCount = 0;
  let inCount = 0;
  for (let d = STEP_GAP_PX; d < STEP_GAP_PX + STEP_SPAN_PX; d++) {
    if (o + d < profileLength) {
      for (let c = 0; c < 3; c++) outside[c]! += profile[(o + d) * 3 + c]!;
      outCount++;
    }
    if (o - d >= 0) {
      for (let c = 0; c < 3; c++) inside[c]! += profile[(o - d) * 3 + c]!;
      inCount++;
    }
  }
  if (outCount === 0 || inCount === 0) return 0;
  return Math.hypot(outside[0]! / outCount - inside[0]! / inCount, outside[1]! / outCount - inside[1]! / inCount, outside[2]! / outCount - inside[2]! / inCount);
}

/** The first of the quads, most likely first, whose four sides are found again on the full photo, refined. */
function firstRefined(image: DecodedImage, quads: readonly Point[][], factor: number, formats: FormatSet): Point[] | null {
  for (const quad of quads) {
    const refined = refineQuad(image, quad, factor, formats);
    if (refined !== null) return refined;
  }
  return null;
}

function refineQuad(image: DecodedImage, coarse: Point[], factor: number, formats: FormatSet): Point[] | null {
  const reach = Math.ceil(1.5 * factor) + 4;
  const pxPerMm = cardPxPerMm(coarse, formatOfQuad(coarse, formats));
  // Where the outline found is only a ridge, the search goes on inwards as far as SLEEVE_MARGIN_MM for the card.
  const inward = Math.max(reach, Math.ceil(SLEEVE_MARGIN_MM * pxPerMm));
  const centre = {
    x: coarse.reduce((sum, p) => sum + p.x, 0) / 4,
    y: coarse.reduce((sum, p) => sum + p.y, 0) / 4,
  };
  const colour = new Float64Array(3);
  const lines: Line[] = [];
  for (let side = 0; side < 4; side++) {
    const a = coarse[side]!;
    const b = coarse[(side + 1) % 4]!;
    const length = distance(a, b);
    const dx = (b.x - a.x) / length;
    const dy = (b.y - a.y) / length;
    let nx = dy;
    let ny = -dx;
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    if ((mid.x - centre.x) * nx + (mid.y - centre.y) * ny < 0) { nx = -nx; ny = -ny; }

    const samples = Math.max(30, Math.min(96, Math.round(length / 6)));
    const profileLength = inward + reach + 1;
    const windowStart = inward - reach;
    const gradient = new Float64Array(profileLength);
    const xs: number[] = [];
    const ys: number[] = [];
    // Every profile of the side in one buffer (a few kilobytes each, a hundred of them), views into it.
    const profileBuffer = new Float64Array(samples * profileLength * 3);
    const profiles: Float64Array[] = [];
    const points: Point[] = [];
    for (let k = 0; k < samples; k++) {
      const t = 0.1 + (0.8 * k) / (samples - 1);
      const px = a.x + (b.x - a.x) * t;
      const py = a.y + (b.y - a.y) * t;
      const profile = profileBuffer.subarray(k * profileLength * 3, (k + 1) * profileLength * 3);
      readProfile(image, px, py, nx, ny, dx, dy, inward, profile, colour);
      profiles.push(profile);
      points.push({ x: px, y: py });
    }
    const cardColour = sideCardColour(profiles, inward - Math.round(CARD_COLOUR_DEPTH_MM * pxPerMm));
    for (let k = 0; k < samples; k++) {
      const profile = profiles[k]!;
      const offset = edgeAlongProfile(profile, gradient, profileLength, windowStart, cardColour);
      if (offset === null) continue;
      xs.push(points[k]!.x + nx * (offset - inward));
      ys.push(points[k]!.y + ny * (offset - inward));
    }
    if (xs.length < 10) return null;
    const line = fitLineRobust(xs, ys, 0.3);
    if (line === null) return null;
    lines.push(line);
  }
  const [top, right, bottom, left] = lines as [Line, Line, Line, Line];
  const corners = [intersectLines(left, top), intersectLines(top, right), intersectLines(right, bottom), intersectLines(bottom, left)];
  if (corners.some((c) => c === null)) return null;
  return corners as Point[];
}

/**
 * The colours along the normal (nx, ny) through (px, py), from `inward` pixels inside outwards, each the mean of three
 * parallel lines (less noise, still sharp across the edge; dx, dy runs along the side), added into `profile`. A
 * function of its own: V8 optimises a hot function far better than an inner loop it entered on the stack.
 */
function readProfile(image: DecodedImage, px: number, py: number, nx: number, ny: number, dx: number, dy: number, inward: number, profile: Float64Array, colour: Float64Array): void {
  const profileLength = profile.length / 3;
  for (let o = 0; o < profileLength; o++) {
    const offset = o - inward;
    for (let lane = -1; lane <= 1; lane++) {
      sampleRgb(image, px + nx * offset + dx * lane, py + ny * offset + dy * lane, colour);
      profile[o * 3]! += colour[0]! / 3;
      profile[o * 3 + 1]! += colour[1]! / 3;
      profile[o * 3 + 2]! += colour[2]! / 3;
    }
  }
}

/** The card's own colour along a side is read this far inside the coarse outline: on the border of a bordered card. */
const CARD_COLOUR_DEPTH_MM = 1.5;
/** Below this colour distance between the card and what lies outside it, the card's colour cannot tell the edge. */
const CARD_COLOUR_CONTRAST_MIN = 40;

/** The median colour, channel by channel, of the profiles at one index. */
function sideCardColour(profiles: readonly Float64Array[], at: number): [number, number, number] {
  const channel = (c: number) => {
    const values = profiles.map((profile) => profile[at * 3 + c]!).sort((x, y) => x - y);
    return values[values.length >> 1]!;
  };
  return [channel(0), channel(1), channel(2)];
}

/**
 * Where the card's edge lies along one profile (index, sub-pixel; the profile runs from inside the card outwards), or
 * null. From the outside in, the first local gradient maximum that is at least half the strongest and a step (the
 * colour beyond it differs from the colour before it) into the card's own colour: the card's outer edge. A thin
 * light ridge with the same background on both sides is a penny sleeve's or top-loader's outline, a millimetre or so
 * outside the card; the band of sleeve between that outline and the card is background seen through plastic, so a
 * step into it is not the card's edge either. Where the card's colour is too close to the background's to tell,
 * the first step; without any step (a white border on white paper), the outermost peak.
 */
function edgeAlongProfile(profile: Float64Array, gradient: Float64Array, profileLength: number, windowStart: number, cardColour: readonly number[]): number | null {
  let strongest = 0;
  for (let o = 1; o < profileLength - 1; o++) {
    const g = Math.hypot(
      profile[(o + 1) * 3]! - profile[(o - 1) * 3]!,
      profile[(o + 1) * 3 + 1]! - profile[(o - 1) * 3 + 1]!,
      profile[(o + 1) * 3 + 2]! - profile[(o - 1) * 3 + 2]!,
    );
    gradient[o] = g;
    if (o >= windowStart) strongest = Math.max(strongest, g);
  }
  if (strongest < 20) return null;
  const outer = profileLength - 1;
  const backgroundToCard = Math.hypot(profile[outer * 3]! - cardColour[0]!, profile[outer * 3 + 1]! - cardColour[1]!, profile[outer * 3 + 2]! - cardColour[2]!);
  const colourTells = backgroundToCard >= CARD_COLOUR_CONTRAST_MIN;
  let chosen = -1;
  let firstStep = -1;
  let outermost = -1;
  for (let o = profileLength - 2; o >= 1; o--) {
    const g = gradient[o]!;
    if (g < 0.5 * strongest || g < gradient[o - 1]! || g < gradient[o + 1]!) continue;
    // Past the usual window only while nothing but ridges and sleeve was seen: a sleeve's outline with the card inside.
    if (o < windowStart && outermost < 0) break;
    if (outermost < 0) outermost = o;
    if (stepContrast(profile, o, profileLength) < STEP_SHARE * g) continue;
    if (firstStep < 0) firstStep = o;
    if (!colourTells || insideDistance(profile, o, cardColour) <= 0.5 * backgroundToCard) {
      chosen = o;
      break;
    }
  }
  if (chosen < 0) chosen = firstStep >= 0 ? firstStep : outermost;
  if (chosen < 1) return null;
  const g = gradient[chosen]!;
  const before = gradient[chosen - 1]!;
  const after = gradient[chosen + 1]!;
  const curvature = before - 2 * g + after;
  return chosen + (curvature < 0 ? (0.5 * (before - after)) / curvature : 0);
}

/** Colour distance from the card's colour of the mean colour just inside position `o`. */
function insideDistance(profile: Float64Array, o: number, cardColour: readonly number[]): number {
  const inside = [0, 0, 0];
  let count = 0;
  for (let d = STEP_GAP_PX; d < STEP_GAP_PX + STEP_SPAN_PX && o - d >= 0; d++, count++) {
    for (let c = 0; c < 3; c++) inside[c]! += profile[(o - d) * 3 + c]!;
  }
  if (count === 0) return Infinity;
  return Math.hypot(inside[0]! / count - cardColour[0]!, inside[1]! / count - cardColour[1]!, inside[2]! / count - cardColour[2]!);
}
