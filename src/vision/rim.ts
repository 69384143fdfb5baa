import type { CardSize } from './card-formats.ts';
import { edgeStrides } from './flatten.ts';
import type { FlatCard, RegionMm } from './flatten.ts';
import { median } from './geometry.ts';
import { chroma, colourDistance, luma } from './image.ts';

/** How far into the margin and the card the rim measurements reach (outline profiles, rings, corners). */
export const RIM_BAND_OUTSIDE_MM = 0.75;
/** Beside the straight edges the margin reaches further: the background there is read over a wider band (background-beside.ts). */
export const RIM_EDGE_BAND_OUTSIDE_MM = 1.5;
export const RIM_BAND_INSIDE_MM = 2.5;
export const CORNER_SQUARE_MM = 7.5;

/** The parts of a card of `size` the rim measurements read, for warping only what is needed. */
export function rimRegions(size: CardSize): RegionMm[] {
  const o = RIM_BAND_OUTSIDE_MM;
  const e = RIM_EDGE_BAND_OUTSIDE_MM;
  const i = RIM_BAND_INSIDE_MM;
  const w = size.widthMm;
  const h = size.heightMm;
  const c = CORNER_SQUARE_MM;
  return [
    { x0: -e, y0: -e, x1: w + e, y1: i },
    { x0: -e, y0: h - i, x1: w + e, y1: h + e },
    { x0: -e, y0: -e, x1: i, y1: h + e },
    { x0: w - i, y0: -e, x1: w + e, y1: h + e },
    { x0: -o, y0: -o, x1: c, y1: c },
    { x0: w - c, y0: -o, x1: w + o, y1: c },
    { x0: -o, y0: h - c, x1: c, y1: h + o },
    { x0: w - c, y0: h - c, x1: w + o, y1: h + o },
  ];
}

/** Whitening is looked for this far in from the card's outline (GRADING.md §1.6: within 0.6 mm)... */
export const RIM_TO_MM = 0.6;
/**
 * ...starting clear of the pixels the photo blends with the background at the outline: at least 0.15 mm in, more
 * in a blurred photo. When that leaves too little rim, whitening cannot be seen (null), as on a white border.
 */
export function rimStartMm(outlineRiseMm: number): number | null {
  const start = Math.max(0.15, 0.8 * outlineRiseMm);
  return start > RIM_TO_MM - 0.15 ? null : start;
}
/** ...against a reference ring of the card's own colour 1–2 mm inside. */
export const RING_FROM_MM = 1;
export const RING_TO_MM = 2;
/** Whitened: lighter than the reference by this much and not more colourful (within noise). */
const WHITENING_LIGHTER_BY = 12;
const WHITENING_CHROMA_SLACK = 15;

export interface ReferenceColour {
  r: number;
  g: number;
  b: number;
  lightness: number;
  chroma: number;
}

export function referenceColour(r: number, g: number, b: number): ReferenceColour {
  return { r, g, b, lightness: luma(r, g, b), chroma: chroma(r, g, b) };
}

/** On a white border, whitening cannot be seen (GRADING.md §1.6) and is reported as not observable. */
export function isWhiteBorder(reference: ReferenceColour): boolean {
  return reference.lightness >= 200 && reference.chroma <= 30;
}

/** A border this uneven (RGB distance of its colour from its median, along 80% of the side) is print, whatever its colour... */
const BORDER_UNEVENNESS_MAX = 25;
/**
 * ...and a lighter one must be evener: whitened stock is at most as light as the photo's white, so it stands out from
 * a border by no more than the border's headroom below white. Where the border varies by more than this share of
 * that headroom (a pale patterned or glossy border), its own sheen cannot be told from whitening.
 */
const BORDER_UNEVENNESS_SHARE_OF_HEADROOM = 0.2;

/**
 * Whether whitening can be seen on this border (GRADING.md §1.6): not on white, nor on print that runs to the edge in
 * changing colours or a pale border whose sheen is as light as bare stock.
 */
export function canSeeWhitening(reference: ReferenceColour, unevenness: number): boolean {
  if (isWhiteBorder(reference)) return false;
  return unevenness <= Math.min(BORDER_UNEVENNESS_MAX, BORDER_UNEVENNESS_SHARE_OF_HEADROOM * (255 - reference.lightness));
}

/** Below this lightness difference between background and card, the outline is found by colour instead. */
const LIGHTNESS_EDGE_MIN = 24;
/**
 * A profile leaves the background where two samples in a row differ from it by 20% of the card's difference, at
 * least DEPARTURE_MIN levels and 4 × the background's noise.
 */
const DEPARTURE_SHARE = 0.2;
const DEPARTURE_MIN = 10;
/** The card's lightness just inside its outline: the furthest the profile gets from the background within this many samples. */
const PLATEAU_SAMPLES = 6;

/**
 * The background beside the card read over a band (background-beside.ts), for measuring a profile against, and the
 * last sample of the profile that may still show it: outside the card's nominal outline by at least
 * OUTLINE_BLEND_MM, clear of the pixels the photo blends with the card.
 */
export interface BandBackground {
  colour: ArrayLike<number>;
  until: number;
}
export const OUTLINE_BLEND_MM = 0.15;

/**
 * Where a profile first leaves the background (`departure`) and where the card begins (`crossing`), both to a
 * fraction of a sample.
 */
export interface OutlineReading {
  crossing: number;
  departure: number;
  /**
   * Where the profile first leaves the background's colour, lightness or hue (Infinity if it never does). Print as
   * dark as the background can meet the cut (a full-art's dark purple on a dark playmat): the lightness departure
   * then lies at the first light print further in, the colour departure at the cut. A bite out of the card shows the
   * background's colour and lightness alike, and moves both in.
   */
  colourDeparture: number;
}

/**
 * Where the card begins along a profile that starts outside the card (`outside` samples of background first), to a
 * fraction of a sample. Lightness decides when it differs enough between background and card: JPEG keeps lightness
 * sharp and blurs colour. The level is half-way from the background to the card's lightness just inside the
 * outline, not to the reference colour further in, so a whitened rim (which may be nearer the background's
 * lightness than the border is) still starts where the card does. The departure is where the profile first stands
 * clear of the background's lightness (the same place as the crossing where colour decides). Null when the profile
 * never leaves the background.
 *
 * The background is what lies right beside the card. With `band` given, that is the band's colour wherever the
 * profile still shows it next to the outline, and the card is looked for after the last sample that does (and not
 * before `outside`): a thin line on the paper outside the card (a ruling of notebook paper, about as light as a silver
 * border) is then neither the background nor the card's start, so neither the paper between it and the card reads
 * as a whitened rim nor the edge beside it as moved out. Where the profile shows the band's colour nowhere, something
 * else lies against the card there (a ruling that runs into its edge): the mean of its own first `outside` samples is
 * the background, as it is without a band.
 */
export function outlineReading(
  profile: Float32Array | Float64Array,
  count: number,
  outside: number,
  reference: ReferenceColour,
  backgroundNoise: number,
  band?: BandBackground,
): OutlineReading | null {
  let br = 0;
  let bg = 0;
  let bb = 0;
  let start = outside;
  let last = -1;
  if (band !== undefined) {
    const [r, g, b] = [band.colour[0]!, band.colour[1]!, band.colour[2]!];
    // Within the noise of the band's colour, and nearer to it than to the card's.
    const near = Math.min(Math.max(DEPARTURE_MIN, 4 * backgroundNoise), 0.5 * colourDistance(reference.r, reference.g, reference.b, r, g, b));
    for (let i = 0; i <= Math.min(band.until, count - 1); i++) {
      if (colourDistance(profile[i * 3]!, profile[i * 3 + 1]!, profile[i * 3 + 2]!, r, g, b) < near) last = i;
    }
    if (last >= 0) {
      [br, bg, bb] = [r, g, b];
      start = Math.max(outside, last + 1);
    }
  }
  if (last < 0) {
    for (let i = 0; i < outside; i++) {
      br += profile[i * 3]! / outside;
      bg += profile[i * 3 + 1]! / outside;
      bb += profile[i * 3 + 2]! / outside;
    }
  }
  const backgroundLightness = luma(br, bg, bb);
  if (Math.abs(reference.lightness - backgroundLightness) < LIGHTNESS_EDGE_MIN) {
    // Same lightness, different colour: half-way to the reference colour.
    const level = 0.5 * colourDistance(reference.r, reference.g, reference.b, br, bg, bb);
    const crossing = firstCrossing(count, start, level, (i) => colourDistance(profile[i * 3]!, profile[i * 3 + 1]!, profile[i * 3 + 2]!, br, bg, bb));
    return crossing === null ? null : { crossing, departure: crossing, colourDeparture: crossing };
  }
  const lightness = (i: number) => luma(profile[i * 3]!, profile[i * 3 + 1]!, profile[i * 3 + 2]!) - backgroundLightness;
  const departure = Math.max(DEPARTURE_MIN, 4 * backgroundNoise, DEPARTURE_SHARE * Math.abs(reference.lightness - backgroundLightness));
  for (let i = start; i < count - 1; i++) {
    const difference = lightness(i);
    if (Math.abs(difference) < departure || Math.abs(lightness(i + 1)) < departure || Math.sign(lightness(i + 1)) !== Math.sign(difference)) continue;
    const sign = Math.sign(difference);
    let plateau = 0;
    for (let j = i; j < Math.min(count, i + PLATEAU_SAMPLES); j++) plateau = Math.max(plateau, sign * lightness(j));
    const crossing = firstCrossing(count, start, plateau / 2, (k) => sign * lightness(k));
    if (crossing === null) return null;
    // The departure level reached between samples i - 1 and i, where the profile is not yet past it at i - 1.
    const before = sign * lightness(i - 1);
    const reached = before < departure ? i - 1 + (departure - before) / (sign * difference - before) : i;
    const leftColour = colourDeparture(profile, count, start, [br, bg, bb], Math.max(DEPARTURE_MIN, 4 * backgroundNoise));
    return { crossing, departure: Math.min(crossing, reached), colourDeparture: Math.min(crossing, leftColour) };
  }
  return null;
}

/** Where the profile's colour first stands `level` or more from the background's, two samples in a row; Infinity if never. */
function colourDeparture(profile: Float32Array | Float64Array, count: number, start: number, background: readonly number[], level: number): number {
  const distance = (i: number) => colourDistance(profile[i * 3]!, profile[i * 3 + 1]!, profile[i * 3 + 2]!, background[0]!, background[1]!, background[2]!);
  for (let i = Math.max(1, start); i < count - 1; i++) {
    const here = distance(i);
    if (here < level || distance(i + 1) < level) continue;
    const before = distance(i - 1);
    return before < level ? i - 1 + (level - before) / (here - before) : i;
  }
  return Infinity;
}

/**
 * Noise of the background's lightness next to the card: the root mean square, about their own mean, of short runs of
 * pixels 0.35–0.6 mm outside each straight edge, every millimetre (one profile's few samples say too little).
 */
export function backgroundNoise(flat: FlatCard): number {
  const { data, marginPx, pxPerMm } = flat;
  const from = Math.round(0.35 * pxPerMm);
  const to = Math.round(0.6 * pxPerMm);
  let sum = 0;
  let n = 0;
  for (const edge of ['top', 'right', 'bottom', 'left'] as const) {
    const { origin, alongStride, depthStride } = edgeStrides(flat, edge);
    const lengthMm = edge === 'top' || edge === 'bottom' ? flat.widthMm : flat.heightMm;
    for (let mm = 10; mm <= lengthMm - 10; mm++) {
      const base = origin + (marginPx + Math.round(mm * pxPerMm)) * alongStride;
      const values: number[] = [];
      for (let k = from; k <= to; k++) {
        const j = base - k * depthStride;
        values.push(luma(data[j]!, data[j + 1]!, data[j + 2]!));
      }
      const mean = values.reduce((total, v) => total + v, 0) / values.length;
      for (const v of values) sum += (v - mean) ** 2;
      n += values.length - 1;
    }
  }
  return Math.sqrt(sum / Math.max(1, n));
}

/** The first place from `outside` on where `value` reaches `level`, interpolated between samples. */
function firstCrossing(count: number, outside: number, level: number, value: (i: number) => number): number | null {
  let previous = value(outside - 1);
  for (let i = outside; i < count; i++) {
    const current = value(i);
    if (current >= level) return i - 1 + (current === previous ? 1 : (level - previous) / (current - previous));
    previous = current;
  }
  return null;
}

/**
 * How much lighter than the reference the rim is at one position: the second-lightest of the rim pixels in
 * samples [from, to) that are not more colourful than the reference (so at least two pixels must agree), or 0.
 */
export function whiteningScore(profile: Float32Array | Float64Array, from: number, to: number, reference: ReferenceColour): number {
  let first = 0;
  let second = 0;
  for (let i = Math.max(0, from); i < to; i++) {
    const r = profile[i * 3]!;
    const g = profile[i * 3 + 1]!;
    const b = profile[i * 3 + 2]!;
    if (chroma(r, g, b) > reference.chroma + WHITENING_CHROMA_SLACK) continue;
    const lighter = luma(r, g, b) - reference.lightness;
    if (lighter > first) {
      second = first;
      first = lighter;
    } else if (lighter > second) {
      second = lighter;
    }
  }
  return second;
}

/**
 * Whitened stretches of rim from per-position scores: the scores averaged over three neighbouring positions, those
 * lighter by WHITENING_LIGHTER_BY or more (more in a noisy photo), gaps of up to
 * `maxGap` closed, runs shorter than `minLength` dropped, and each run's ends trimmed to where the score reaches
 * half its peak, so a blurred photo does not make whitening look longer than it is.
 */
export function whitenedRuns(scores: Float64Array, maxGap: number, minLength: number, baseline?: Float64Array): Array<[number, number]> {
  const smoothed = new Float64Array(scores.length);
  for (let i = 0; i < scores.length; i++) {
    const from = Math.max(0, i - 1);
    const to = Math.min(scores.length, i + 2);
    let sum = 0;
    for (let j = from; j < to; j++) sum += scores[j]!;
    smoothed[i] = sum / (to - from);
  }
  // Noise lifts every position's score a little (it is the second-lightest of several pixels): the threshold also
  // stands well clear of the scores' own spread along this rim, most of which is not whitened.
  // A baseline from an undamaged stretch of the same rim, when given, sets them instead.
  const reference = baseline ?? smoothed;
  const typical = median(Float64Array.from(reference));
  const spread = 1.4826 * median(Float64Array.from(reference, (v) => Math.abs(v - typical)));
  const threshold = Math.max(WHITENING_LIGHTER_BY, typical + 6 * spread);
  const flags = new Uint8Array(scores.length);
  for (let i = 0; i < scores.length; i++) flags[i] = smoothed[i]! >= threshold ? 1 : 0;
  const runs: Array<[number, number]> = [];
  for (const [from, to] of runsOf(flags, maxGap, 1)) {
    let peak = 0;
    for (let i = from; i < to; i++) peak = Math.max(peak, smoothed[i]!);
    let start = from;
    let end = to;
    while (start < end && smoothed[start]! < peak / 2) start++;
    while (end > start && smoothed[end - 1]! < peak / 2) end--;
    if (end - start >= minLength) runs.push([start, end]);
  }
  return runs;
}

/** Runs of true values as [start, end) pairs, after closing gaps of up to `maxGap` and dropping runs shorter than `minLength`. */
export function runsOf(flags: Uint8Array, maxGap: number, minLength: number): Array<[number, number]> {
  const raw: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= flags.length; i++) {
    const on = i < flags.length && flags[i] === 1;
    if (on && start === -1) start = i;
    if (!on && start !== -1) {
      raw.push([start, i]);
      start = -1;
    }
  }
  const merged: Array<[number, number]> = [];
  for (const run of raw) {
    const last = merged[merged.length - 1];
    if (last !== undefined && run[0] - last[1] <= maxGap) last[1] = run[1];
    else merged.push([run[0], run[1]]);
  }
  return merged.filter(([from, to]) => to - from >= minLength);
}

/**
 * How sharp the photo shows the card's outline: the median 10-90% rise, in mm, across each straight edge at 15
 * places, from the background to the card's colour just inside. Blur widens it.
 */
export function outlineRiseMm(flat: FlatCard): number {
  const { data, marginPx, pxPerMm } = flat;
  const outside = Math.round(0.6 * pxPerMm);
  const inside = Math.round(0.6 * pxPerMm);
  const count = outside + inside;
  const rises: number[] = [];
  const distances = new Float64Array(count);
  const profile = new Float64Array(count * 3);
  for (const edge of ['top', 'right', 'bottom', 'left'] as const) {
    const { origin, alongStride, depthStride } = edgeStrides(flat, edge);
    const lengthPx = (edge === 'top' || edge === 'bottom' ? flat.widthMm : flat.heightMm) * pxPerMm;
    for (let n = 1; n <= 15; n++) {
      const along = marginPx + Math.round((0.2 + (0.6 * n) / 16) * lengthPx);
      // Seven neighbouring lines averaged: the outline is straight here, the noise is not.
      profile.fill(0);
      for (let lane = -3; lane <= 3; lane++) {
        for (let i = 0; i < count; i++) {
          const j = origin + (along + lane) * alongStride + (i - outside) * depthStride;
          for (let c = 0; c < 3; c++) profile[i * 3 + c]! += data[j + c]! / 7;
        }
      }
      for (let i = 0; i < count; i++) {
        distances[i] = Math.hypot(profile[i * 3]! - profile[0]!, profile[i * 3 + 1]! - profile[1]!, profile[i * 3 + 2]! - profile[2]!);
      }
      const top = distances[count - 1]!;
      if (top < 40) continue;
      const at = (level: number) => {
        for (let i = 1; i < count; i++) if (distances[i]! >= level) return i - 1 + (level - distances[i - 1]!) / (distances[i]! - distances[i - 1]! || 1);
        return count - 1;
      };
      rises.push(at(0.9 * top) - at(0.1 * top));
    }
  }
  if (rises.length === 0) return 0;
  rises.sort((a, b) => a - b);
  return rises[rises.length >> 1]! / pxPerMm;
}
