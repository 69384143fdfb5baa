import type { Point } from '../contracts/measurement.ts';
import { formatOfQuad, isCardAspect, quadAspect } from './card-formats.ts';
import type { FormatSet } from './card-formats.ts';
import { cardPxPerMm, distance, fitLineRobust, intersectLines, isConvex, quadSide } from './geometry.ts';
import type { Line } from './geometry.ts';
import { luma, sampleRgb } from './image.ts';
import type { DecodedImage } from './image.ts';

// A card in a holder's dark well: its cut is where the well, dark and plain, meets the card's border. The outlines
// offered inside a holder are pieced together from lines found at one resolution, and one side can sit on the
// holder's inner wall (the well outside the card counted in) or on the print just inside the border (a strip of the
// card left out): a quad a few millimetres off on one side is still card-shaped, so the shape alone cannot tell.
// Each side is moved, within a few millimetres, to where the dark well steps up most to the card.

/**
 * How far either way of a side the cut is looked for: a slab's well leaves a card 1 to 3 mm of room each way, and a
 * side found on the print lies a border's width (2 to 4 mm) inside the cut.
 */
const REACH_MM = 4;
/** The well is read over this width outside a place on the profile… */
const BAND_MM = 0.8;
/**
 * …and the card over this width inside it: narrower than the thinnest border a card prints (2 mm), wider than the
 * light lip a well's rim shows before its dark floor (under a millimetre), which is not the card.
 */
const CARD_BAND_MM = 1.5;
/** A place is in the well when its band is within this many luma levels of the darkest band the side's profiles show. */
const WELL_TOLERANCE = 14;
/**
 * The card is lighter than the well by at least this many luma levels across the cut (a yellow, silver or white
 * border over a black insert steps by 60 and more). A black-bordered card on a black insert shows no such step, and
 * its quad is left as it is.
 */
const MIN_CUT_STEP = 30;
/** Profiles read along the straight middle of each side (clear of the rounded corners). */
const SIDE_FROM = 0.15;
const SIDE_TO = 0.85;
const PROFILES = 48;
/** The cut must be seen on this share of a side's profiles for the side to move. */
const MIN_SEEN_SHARE = 0.6;

/**
 * `quad` with each side moved to the card's cut in a dark well round it (the clearest step up from the well), or
 * `quad` unchanged when the well or the step onto the card is not seen on every side, or the quad that would result
 * is not card-shaped.
 */
export function cutInWell(image: DecodedImage, quad: Point[], formats: FormatSet): Point[] {
  const pxPerMm = cardPxPerMm(quad, formatOfQuad(quad, formats));
  const reach = Math.round(REACH_MM * pxPerMm);
  const band = Math.max(2, Math.round(BAND_MM * pxPerMm));
  const cardBand = Math.max(band, Math.round(CARD_BAND_MM * pxPerMm));
  const lines: Line[] = [];
  for (let k = 0; k < 4; k++) {
    const line = cutBeside(image, quad, k, reach, band, cardBand);
    if (line === null) return quad;
    lines.push(line);
  }
  const corners = [0, 1, 2, 3].map((k) => intersectLines(lines[(k + 3) % 4]!, lines[k]!));
  if (corners.some((c) => c === null)) return quad;
  const cut = corners as Point[];
  if (!isConvex(cut) || !isCardAspect(quadAspect(cut), formats)) return quad;
  // Each corner stays within the reach of both its sides.
  if (cut.some((corner, k) => distance(corner, quad[k]!) > Math.SQRT2 * reach)) return quad;
  return cut;
}

/** The line of the cut beside side `k` (from corner k to k + 1), or null when it is not seen along most of the side. */
function cutBeside(image: DecodedImage, quad: readonly Point[], k: number, reach: number, band: number, cardBand: number): Line | null {
  const side = quadSide(quad, k);
  const { a, b, dx, dy } = side;
  // The profile runs inwards, from `reach` outside the side to `reach` inside it.
  const nx = -side.nx;
  const ny = -side.ny;
  const size = 2 * reach + 1;
  const colour = new Float64Array(3);
  const profiles: Float64Array[] = [];
  const origins: Point[] = [];
  for (let i = 0; i < PROFILES; i++) {
    const t = SIDE_FROM + ((SIDE_TO - SIDE_FROM) * (i + 0.5)) / PROFILES;
    const origin = { x: a.x + (b.x - a.x) * t - nx * reach, y: a.y + (b.y - a.y) * t - ny * reach };
    const profile = new Float64Array(size);
    for (let o = 0; o < size; o++) {
      // Three lanes along the side averaged: less noise, still sharp across the edge.
      let sum = 0;
      for (let lane = -1; lane <= 1; lane++) {
        sampleRgb(image, origin.x + nx * o + dx * lane, origin.y + ny * o + dy * lane, colour);
        sum += luma(colour[0]!, colour[1]!, colour[2]!);
      }
      profile[o] = sum / 3;
    }
    profiles.push(profile);
    origins.push(origin);
  }
  const bandMeans = profiles.map((profile) => runningMeans(profile, band));
  const cardMeans = profiles.map((profile) => runningMeans(profile, cardBand));
  // The well's level: the darkest band this side shows, taken at the median over its profiles (a speck of dust or a
  // glint on the plastic is one profile's).
  const darkest = bandMeans.map((means) => Math.min(...means)).sort((x, y) => x - y)[PROFILES >> 1]!;
  const xs: number[] = [];
  const ys: number[] = [];
  profiles.forEach((profile, i) => {
    const means = bandMeans[i]!;
    // The place whose band outside is the well and whose band inside is lightest above it: the card. A well's lip
    // is light for under a millimetre, then the well's floor again, and its band inside steps up far less.
    let cutAt = -1;
    let cutStep = MIN_CUT_STEP;
    for (let o = band; o + cardBand < size; o++) {
      const outside = means[o - band]!;
      const step = cardMeans[i]![o + 1]! - outside;
      if (outside > darkest + WELL_TOLERANCE || step < cutStep) continue;
      cutAt = o;
      cutStep = step;
    }
    if (cutAt < 0) return;
    const at = steepestRise(profile, cutAt - (band >> 1), cutAt + (band >> 1));
    xs.push(origins[i]!.x + nx * at);
    ys.push(origins[i]!.y + ny * at);
  });
  if (xs.length < MIN_SEEN_SHARE * PROFILES) return null;
  return fitLineRobust(xs, ys, 0.5);
}

/** means[o]: the mean of profile[o .. o + band - 1] (the band starting at o), for every o where it fits. */
function runningMeans(profile: Float64Array, band: number): Float64Array {
  const means = new Float64Array(Math.max(0, profile.length - band + 1));
  let sum = 0;
  for (let o = 0; o < profile.length; o++) {
    sum += profile[o]!;
    if (o >= band) sum -= profile[o - band]!;
    if (o >= band - 1) means[o - band + 1] = sum / band;
  }
  return means;
}

/** Where between `from` and `to` the profile rises most steeply (half way between the two pixels of the rise). */
function steepestRise(profile: Float64Array, from: number, to: number): number {
  let best = Math.max(0, from);
  let rise = -Infinity;
  for (let o = Math.max(0, from); o < Math.min(profile.length - 1, to); o++) {
    const step = profile[o + 1]! - profile[o]!;
    if (step > rise) {
      rise = step;
      best = o;
    }
  }
  return best + 0.5;
}
