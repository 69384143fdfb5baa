import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../contracts/measurement.ts';
import type { Centering, EdgeName } from '../contracts/measurement.ts';
import { edgeStrides } from './flatten.ts';
import type { FlatCard } from './flatten.ts';
import { round } from './geometry.ts';

/** Where across the middle of each side the strips are taken, as shares of the side's length. */
const STRIP_POSITIONS = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
const STRIP_WIDTH_MM = 1.2;
/** The border's colour is read here, in from the card's edge (clear of rim whitening, inside any real border). */
const REFERENCE_FROM_MM = 0.5;
const REFERENCE_TO_MM = 1.5;
/**
 * A border ends 3–22% of the card's width in from its edge (1.9–13.9 mm), on every side: the band is one physical
 * width all round, so a 2.4 mm top border of a card 60/40 off vertically is still inside it.
 */
const BAND_FROM = 0.03;
const BAND_TO = 0.22;
/** Strips whose ratios disagree by more than this many points: the print is tilted on the card. */
const TILT_POINTS = 3;

interface StripReading {
  /** Border width in mm, or null when this strip found no border end. */
  widthMm: number | null;
  reference: [number, number, number];
}

/**
 * GRADING.md §1.5: on each side, strips scanned from the card's edge inwards for where the border colour ends,
 * refined to the gradient peak and cross-checked against the strongest gradient in the 3–22% band; a side's width
 * is the median of its strips. No border on a side means no ratio at all: borderless cards are not measurable.
 */
export function measureCentering(flat: FlatCard): Centering {
  const readings = {
    left: STRIP_POSITIONS.map((at) => readStrip(flat, 'left', at)),
    right: STRIP_POSITIONS.map((at) => readStrip(flat, 'right', at)),
    top: STRIP_POSITIONS.map((at) => readStrip(flat, 'top', at)),
    bottom: STRIP_POSITIONS.map((at) => readStrip(flat, 'bottom', at)),
  };
  const widths = {
    left: sideWidth(readings.left),
    right: sideWidth(readings.right),
    top: sideWidth(readings.top),
    bottom: sideWidth(readings.bottom),
  };
  const missing = (Object.keys(widths) as EdgeName[]).filter((edge) => widths[edge] === null);
  if (missing.length > 0) {
    return {
      measurable: false,
      reason: missing.length >= 3 ? 'borderless' : `no border found on the ${missing.join(' and ')} side${missing.length > 1 ? 's' : ''}`,
    };
  }
  const leftMm = round(widths.left!);
  const rightMm = round(widths.right!);
  const topMm = round(widths.top!);
  const bottomMm = round(widths.bottom!);
  const tilted = shareSpread(readings.left, readings.right) > TILT_POINTS || shareSpread(readings.top, readings.bottom) > TILT_POINTS;
  return {
    measurable: true,
    leftMm,
    rightMm,
    topMm,
    bottomMm,
    horizontal: axis(leftMm, rightMm),
    vertical: axis(topMm, bottomMm),
    tilted,
    innerFrame: { left: leftMm, right: round(CARD_WIDTH_MM - rightMm), top: topMm, bottom: round(CARD_HEIGHT_MM - bottomMm) },
  };
}

function axis(firstMm: number, secondMm: number) {
  const worst = (100 * Math.max(firstMm, secondMm)) / (firstMm + secondMm);
  const worstShare = round(worst, 0.1);
  const larger = Math.round(worst);
  return { firstMm, secondMm, worstShare, ratio: `${larger}/${100 - larger}` };
}

/** A side needs most of its strips to agree on one border colour and, within a millimetre, on its width. */
function sideWidth(strips: StripReading[]): number | null {
  const inliers = agreeingStrips(strips);
  return inliers === null ? null : medianOf(inliers.map((strip) => strip.widthMm!));
}

const MIN_AGREEING_STRIPS = Math.ceil(STRIP_POSITIONS.length / 2) + 1;

function agreeingStrips(strips: StripReading[]): StripReading[] | null {
  const found = strips.filter((strip) => strip.widthMm !== null);
  if (found.length < MIN_AGREEING_STRIPS) return null;
  const reference = [0, 1, 2].map((c) => medianOf(found.map((strip) => strip.reference[c]!)));
  const sameColour = found.filter((strip) => Math.hypot(...strip.reference.map((v, c) => v - reference[c]!)) < 30);
  if (sameColour.length < MIN_AGREEING_STRIPS) return null;
  // A border is one straight band: strips far from the others read art, not a border.
  const typical = medianOf(sameColour.map((strip) => strip.widthMm!));
  const inliers = sameColour.filter((strip) => Math.abs(strip.widthMm! - typical) <= 1);
  return inliers.length < MIN_AGREEING_STRIPS ? null : inliers;
}

/** Spread, in points, of the ratios read by facing strips at the same place along the card. */
function shareSpread(first: StripReading[], second: StripReading[]): number {
  const firstInliers = new Set(agreeingStrips(first));
  const secondInliers = new Set(agreeingStrips(second));
  const shares: number[] = [];
  for (let i = 0; i < first.length; i++) {
    if (!firstInliers.has(first[i]!) || !secondInliers.has(second[i]!)) continue;
    const a = first[i]!.widthMm!;
    const b = second[i]!.widthMm!;
    if (a + b > 0) shares.push((100 * a) / (a + b));
  }
  return shares.length < 2 ? 0 : Math.max(...shares) - Math.min(...shares);
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One strip: its mean colour profile from the edge inwards, and where the border colour ends. */
function readStrip(flat: FlatCard, edge: EdgeName, at: number): StripReading {
  const { pxPerMm, marginPx } = flat;
  const vertical = edge === 'left' || edge === 'right';
  const alongMm = vertical ? CARD_HEIGHT_MM : CARD_WIDTH_MM;
  const depth = Math.ceil(BAND_TO * CARD_WIDTH_MM * pxPerMm) + 4;
  const stripPx = Math.round(STRIP_WIDTH_MM * pxPerMm);
  const firstAlong = marginPx + Math.round(at * alongMm * pxPerMm - stripPx / 2);
  const data = flat.data;
  const { origin, alongStride, depthStride } = edgeStrides(flat, edge);
  const pixelAt = (k: number, s: number) => origin + (firstAlong + s) * alongStride + k * depthStride;

  const profile = new Float64Array(depth * 3);
  for (let k = 0; k < depth; k++) stripMean(data, pixelAt(k, 0), alongStride, stripPx, profile, k * 3);

  // The border's colour and its own pixel-to-pixel variation.
  const refFrom = Math.round(REFERENCE_FROM_MM * pxPerMm);
  const refTo = Math.round(REFERENCE_TO_MM * pxPerMm);
  const reference: [number, number, number] = [0, 0, 0];
  for (let k = refFrom; k < refTo; k++) {
    reference[0] += profile[k * 3]! / (refTo - refFrom);
    reference[1] += profile[k * 3 + 1]! / (refTo - refFrom);
    reference[2] += profile[k * 3 + 2]! / (refTo - refFrom);
  }
  let variance = 0;
  for (let k = refFrom; k < refTo; k++) {
    for (let s = 0; s < stripPx; s++) {
      const i = pixelAt(k, s);
      variance += (data[i]! - reference[0]) ** 2 + (data[i + 1]! - reference[1]) ** 2 + (data[i + 2]! - reference[2]) ** 2;
    }
  }
  const variation = Math.sqrt(variance / ((refTo - refFrom) * stripPx));
  const threshold = Math.max(20, 4 * variation);
  const differs = (k: number) =>
    Math.hypot(profile[k * 3]! - reference[0], profile[k * 3 + 1]! - reference[1], profile[k * 3 + 2]! - reference[2]) > threshold;

  const gradient = new Float64Array(depth);
  for (let k = 1; k < depth - 1; k++) {
    gradient[k] = Math.hypot(
      profile[(k + 1) * 3]! - profile[(k - 1) * 3]!,
      profile[(k + 1) * 3 + 1]! - profile[(k - 1) * 3 + 1]!,
      profile[(k + 1) * 3 + 2]! - profile[(k - 1) * 3 + 2]!,
    );
  }
  const bandFrom = Math.floor(BAND_FROM * CARD_WIDTH_MM * pxPerMm);
  const bandTo = Math.min(depth - 2, Math.ceil(BAND_TO * CARD_WIDTH_MM * pxPerMm));
  let strongest = bandFrom;
  for (let k = bandFrom; k <= bandTo; k++) if (gradient[k]! > gradient[strongest]!) strongest = k;

  let crossing = -1;
  for (let k = refTo; k < depth - 2; k++) {
    if (differs(k) && differs(k + 1)) {
      crossing = k;
      break;
    }
  }
  let edgeAt: number | null = null;
  if (crossing >= bandFrom && crossing <= bandTo) {
    // Refined to the gradient peak of the transition the colour first differs in: uphill from there, either way.
    let peak = crossing;
    while (peak + 1 < depth - 1 && gradient[peak + 1]! > gradient[peak]!) peak++;
    while (peak - 1 > 0 && gradient[peak - 1]! > gradient[peak]!) peak--;
    // Cross-check: a faint change far weaker than the band's strongest edge is texture in the border, not its end.
    edgeAt = gradient[peak]! >= gradient[strongest]! / 3 ? peak : strongest;
  } else if (gradient[strongest]! > threshold) {
    edgeAt = strongest;
  }
  if (edgeAt === null) return { widthMm: null, reference };
  const before = gradient[edgeAt - 1]!;
  const peakValue = gradient[edgeAt]!;
  const after = gradient[edgeAt + 1]!;
  const curvature = before - 2 * peakValue + after;
  const refined = edgeAt + (curvature < 0 ? (0.5 * (before - after)) / curvature : 0);
  // The transition centred on pixel k lies (k + 0.5) pixels in from the card's edge.
  return { widthMm: (refined + 0.5) / pxPerMm, reference };
}

/** Mean colour of `count` pixels from `start`, `stride` apart, written at out[at..at+3). */
function stripMean(data: Uint8Array, start: number, stride: number, count: number, out: Float64Array, at: number): void {
  let r = 0;
  let g = 0;
  let b = 0;
  for (let s = 0, i = start; s < count; s++, i += stride) {
    r += data[i]!;
    g += data[i + 1]!;
    b += data[i + 2]!;
  }
  out[at] = r / count;
  out[at + 1] = g / count;
  out[at + 2] = b / count;
}
