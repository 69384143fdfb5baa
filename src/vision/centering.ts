import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../contracts/measurement.ts';
import type { Centering, EdgeName } from '../contracts/measurement.ts';
import { edgeStrides } from './flatten.ts';
import type { FlatCard } from './flatten.ts';
import { round } from './geometry.ts';

/** Where across the middle of each side the strips are taken, as shares of the side's length. */
const STRIP_POSITIONS = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
const STRIP_WIDTH_MM = 1.2;
/** The whole-side strip spans this share of the side, clear of the corners. */
const WHOLE_SIDE_SHARE = 0.7;
/** The border's colour is read here, in from the card's edge (clear of rim whitening, inside any real border). */
const REFERENCE_FROM_MM = 0.8;
const REFERENCE_TO_MM = 1.7;
/**
 * A border ends 3–22% of the card's width in from its edge (1.9–13.9 mm), on every side: the band is one physical
 * width all round, so a 2.4 mm top border of a card 60/40 off vertically is still inside it.
 */
const BAND_FROM = 0.03;
const BAND_TO = 0.22;
/** The colour at the very edge is read here: inside the outline's blur, within the thinnest border a card has. */
const EDGE_FROM_MM = 0.2;
const EDGE_TO_MM = 0.6;
/** Strips agreeing on a border's end: this many at least, within this of each other. */
const CLUSTER_STRIPS = 3;
const CLUSTER_MM = 0.3;
/**
 * Chromaticity distance at which two colours are others, not one border lit differently (gold in shade and in light
 * stay within 0.05; a blue border and the swirl of a card back's art are 0.15 apart).
 */
const OTHER_COLOUR = 0.08;
/** On a miscut, the border opposite the missing one is at least this many times as wide as those across the other way. */
const MISCUT_WIDER = 1.5;
/** Strips whose ratios disagree by more than this many points: the print is tilted on the card. */
const TILT_POINTS = 3;

interface StripReading {
  /** Border width in mm, or null when this strip found no border end. */
  widthMm: number | null;
  reference: [number, number, number];
  /** The colour right at the card's edge (EDGE_FROM_MM to EDGE_TO_MM in): a thin border's, or the print's on a miscut. */
  edgeColour: [number, number, number];
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
  const widths: Record<EdgeName, number | null> = {
    left: sideWidth(readings.left),
    right: sideWidth(readings.right),
    top: sideWidth(readings.top),
    bottom: sideWidth(readings.bottom),
  };
  // A side whose strips do not agree (a printed card's name area, text box or art meets its border in other colours
  // along the side, and where they are the border's own colour a strip reads on into them) is read again, knowing
  // the border's colour from the opposite side: either the print runs out to this edge (a miscut: 0 mm), or the
  // border ends at the outermost edge that several strips, or one long strip the length of the side, agree on.
  const agreed = { ...widths };
  for (const [edge, opposite] of OPPOSITES) {
    if (agreed[edge] !== null) continue;
    const found = [outermostCluster(readings[edge]), wholeSideWidth(flat, edge, borderColour(readings[opposite]), readings[edge])].filter((w): w is number => w !== null);
    widths[edge] = found.length === 0 ? null : Math.min(...found);
  }
  const found = { ...widths };
  for (const [edge, opposite] of OPPOSITES) {
    if (found[edge] !== null || found[opposite] === null) continue;
    // A miscut moves the print, it does not shrink it: the border missing here reappears on the opposite side, which
    // is then clearly wider than the borders across the other way.
    const across = (edge === 'left' || edge === 'right' ? [found.top, found.bottom] : [found.left, found.right]).filter((w): w is number => w !== null);
    const widened = across.length === 0 || found[opposite] >= MISCUT_WIDER * (across.reduce((sum, w) => sum + w, 0) / across.length);
    if (widened && isMiscut(readings[edge], borderColour(readings[opposite]))) widths[edge] = 0;
  }
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

/**
 * A miscut: the border is missing on one side only, and what the strips find there is not the border's colour (on
 * the other side of the card) but the print itself, running out to the edge. That side's border is 0 mm. A side
 * whose colour is the border's but whose end was not found stays unmeasured: that is not a miscut.
 */
function isMiscut(missingSide: StripReading[], border: number[]): boolean {
  // Both just inside the edge and right at it: a border too thin to measure still shows its colour at the very edge.
  const atEdge = [0, 1, 2].map((c) => medianOf(missingSide.map((strip) => strip.edgeColour[c]!)));
  return chromaticityDistance(medianColour(missingSide), border) > OTHER_COLOUR && chromaticityDistance(atEdge, border) > OTHER_COLOUR;
}

const OPPOSITES = [['left', 'right'], ['right', 'left'], ['top', 'bottom'], ['bottom', 'top']] as const;

/** A side's border colour: what its agreeing strips read just inside the edge (all its strips when none agree). */
function borderColour(strips: StripReading[]): number[] {
  return medianColour(agreeingStrips(strips) ?? strips);
}

function medianColour(strips: StripReading[]): number[] {
  return [0, 1, 2].map((c) => medianOf(strips.map((strip) => strip.reference[c]!)));
}

/**
 * How far apart two colours are in hue and saturation, ignoring how brightly they are lit (light falls unevenly
 * across a card in a photo): the distance of their chromaticities r, g, b / (r + g + b), 0 to about 1.4.
 */
function chromaticityDistance(a: readonly number[], b: readonly number[]): number {
  const sa = a[0]! + a[1]! + a[2]! + 1;
  const sb = b[0]! + b[1]! + b[2]! + 1;
  return Math.hypot(a[0]! / sa - b[0]! / sb, a[1]! / sa - b[1]! / sb, a[2]! / sa - b[2]! / sb);
}

/**
 * When the strips disagree (a printed card's name area, text box or art meets its border in different colours
 * along the side, and where they are the border's own colour a strip reads on into them), the border's inner edge is
 * still the one edge that runs the whole side: one strip as long as the side's middle (WHOLE_SIDE_SHARE) averages
 * the print away and keeps that edge.
 */
function wholeSideWidth(flat: FlatCard, edge: EdgeName, oppositeBorder: readonly number[], strips: StripReading[]): number | null {
  const alongMm = edge === 'left' || edge === 'right' ? CARD_HEIGHT_MM : CARD_WIDTH_MM;
  const reading = readStrip(flat, edge, 0.5, WHOLE_SIDE_SHARE * alongMm);
  // A card's opposite borders are one colour; an "edge" found in print of another colour is not a border's end.
  if (reading.widthMm === null || chromaticityDistance(reading.reference, oppositeBorder) > OTHER_COLOUR) return null;
  // The long strip's edge must be one at least one short strip saw too.
  return strips.some((strip) => strip.widthMm !== null && Math.abs(strip.widthMm - reading.widthMm!) <= CLUSTER_MM) ? reading.widthMm : null;
}

/** The outermost width at least CLUSTER_STRIPS strips agree on within CLUSTER_MM (their median). */
function outermostCluster(strips: StripReading[]): number | null {
  const widths = strips.map((strip) => strip.widthMm).filter((w): w is number => w !== null).sort((a, b) => a - b);
  for (const width of widths) {
    const near = widths.filter((w) => Math.abs(w - width) <= CLUSTER_MM);
    if (near.length >= CLUSTER_STRIPS) return medianOf(near);
  }
  return null;
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
function readStrip(flat: FlatCard, edge: EdgeName, at: number, stripMm = STRIP_WIDTH_MM): StripReading {
  const { pxPerMm, marginPx } = flat;
  const vertical = edge === 'left' || edge === 'right';
  const alongMm = vertical ? CARD_HEIGHT_MM : CARD_WIDTH_MM;
  const depth = Math.ceil(BAND_TO * CARD_WIDTH_MM * pxPerMm) + 4;
  const stripPx = Math.round(stripMm * pxPerMm);
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
  const edgeColour = meanOfProfile(profile, Math.round(EDGE_FROM_MM * pxPerMm), Math.max(Math.round(EDGE_FROM_MM * pxPerMm) + 1, Math.round(EDGE_TO_MM * pxPerMm)));
  if (edgeAt === null) return { widthMm: null, reference, edgeColour };
  const before = gradient[edgeAt - 1]!;
  const peakValue = gradient[edgeAt]!;
  const after = gradient[edgeAt + 1]!;
  const curvature = before - 2 * peakValue + after;
  const refined = edgeAt + (curvature < 0 ? (0.5 * (before - after)) / curvature : 0);
  // The transition centred on pixel k lies (k + 0.5) pixels in from the card's edge.
  return { widthMm: (refined + 0.5) / pxPerMm, reference, edgeColour };
}

function meanOfProfile(profile: Float64Array, from: number, to: number): [number, number, number] {
  const mean: [number, number, number] = [0, 0, 0];
  for (let k = from; k < to; k++) for (let c = 0; c < 3; c++) mean[c]! += profile[k * 3 + c]! / (to - from);
  return mean;
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
