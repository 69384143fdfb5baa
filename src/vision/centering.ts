import type { Centering, EdgeName } from '../contracts/measurement.ts';
import { edgeStrides } from './flatten.ts';
import type { FlatCard } from './flatten.ts';
import { round } from './geometry.ts';
import { rgbDistance } from './image.ts';

/**
 * Where along each side the strips are taken, as shares of the side's length: clear of the rounded corners, and
 * many, because on a real card some of them cross printed text, an art frame or the symbol in the border.
 */
const STRIP_POSITIONS = [0.15, 0.22, 0.29, 0.36, 0.43, 0.5, 0.57, 0.64, 0.71, 0.78, 0.85];
const STRIP_WIDTH_MM = 1.2;
/**
 * The border's colour is read here, in from the card's edge (clear of rim whitening and of the outline's blur in a
 * 1080p frame, where a sleeve's edge can smear the first half millimetre; inside any real border, even a thin
 * silver full-art one of about 2 mm). A median, so the blurred first pixels do not shift it.
 */
const REFERENCE_FROM_MM = 0.6;
const REFERENCE_TO_MM = 1.8;
/**
 * Where the found outline sits up to this far outside the card (a sleeve's edge or shadow hugging a 1080p frame's
 * card), the strip first crosses background: the border is measured from where its colour begins, not from the
 * outline. A band narrower than OUTLINE_BLUR_MM is the outline's own blur (three source pixels of a card at 5 px/mm)
 * or rim wear, and so is a colour that turns towards the border's from the outline on, however slowly: a played
 * card's pale rim fades into its border over most of a millimetre in a 1080p frame, where a band of table inside a
 * sleeve holds its colour and then steps to the card.
 */
const OUTLINE_SLACK_MM = 1.2;
const OUTLINE_BLUR_MM = 0.6;
/**
 * The border ends where the colour departs from it for at least this far in: a printed pattern or a hairline in a
 * patterned border is thinner, the print inside a border (art, text box, an inner frame) is wider.
 */
const STEP_RUN_MM = 0.4;
/** Strips whose border widths agree within this many millimetres read the same border end. */
const AGREE_MM = 0.6;
/** Strip reference colours closer than this (RGB distance) are the same border colour. */
const SAME_COLOUR = 30;
/**
 * A border ends 3–22% of the card's width in from its edge (1.9–13.9 mm), on every side: the band is one physical
 * width all round, so a 2.4 mm top border of a card 60/40 off vertically is still inside it.
 */
const BAND_FROM = 0.03;
const BAND_TO = 0.22;
/**
 * A side whose strips do not show the card's border colour, while the opposite side does, has no border at all: a
 * miscut, measured as 0 mm. Its colour must differ from the border's by this much (RGB distance) at most strips.
 */
/**
 * Chromaticity distance at which two colours are others, not one border lit differently (gold in shade and in light
 * stay within 0.05; a blue border and the swirl of a card back's art are 0.15 apart).
 */
const OTHER_COLOUR = 0.08;
/** A measured side's border this far from the others' is not the border (kept wider than OTHER_COLOUR: glare). */
const SIDE_OTHER_COLOUR = 0.12;
/** RGB distance from the border's colour at which a side's edge shows print, not the border (with MISCUT_WIDER). */
const UNLIKE_BORDER = 45;
/** On a miscut, the border opposite the missing one is at least this many times as wide as those across the other way. */
const MISCUT_WIDER = 1.5;
/** Strips whose ratios disagree by more than this many points: the print is tilted on the card. */
const TILT_POINTS = 3;

interface StripReading {
  /** Border width in mm, or null when this strip found no border end. */
  widthMm: number | null;
  reference: [number, number, number];
}

/**
 * GRADING.md §1.5: on each side, strips scanned from the card's edge inwards for where the border colour ends (the
 * first lasting departure from it, refined to the gradient peak); a side's width is the median of the largest group
 * of strips that agree on it. A side with no border while its opposite has one is a miscut, measured as 0 mm. No
 * border on three or four sides means no ratio at all: borderless cards are not measurable.
 */
export function measureCentering(flat: FlatCard): Centering {
  const readings = {
    left: STRIP_POSITIONS.map((at) => readStrip(flat, 'left', at)),
    right: STRIP_POSITIONS.map((at) => readStrip(flat, 'right', at)),
    top: STRIP_POSITIONS.map((at) => readStrip(flat, 'top', at)),
    bottom: STRIP_POSITIONS.map((at) => readStrip(flat, 'bottom', at)),
  };
  const inliers = {
    left: agreeingStrips(readings.left),
    right: agreeingStrips(readings.right),
    top: agreeingStrips(readings.top),
    bottom: agreeingStrips(readings.bottom),
  };
  const edges = Object.keys(readings) as EdgeName[];
  const widths: Record<EdgeName, number | null> = { left: null, right: null, top: null, bottom: null };
  for (const edge of edges) widths[edge] = inliers[edge] === null ? null : medianOf(inliers[edge].map((strip) => strip.widthMm!));
  // A card's border is one colour all round: a side whose agreeing strips read another (the print's own edge, on a
  // miscut or where the outline was found inside the card) has not found the border.
  const sideColour = (edge: EdgeName) => medianColour(inliers[edge]!.map((strip) => strip.reference));
  for (const edge of edges.filter((e) => widths[e] !== null)) {
    const others = edges.filter((e) => e !== edge && widths[e] !== null);
    if (others.length >= 3 && chromaticityDistance(sideColour(edge), medianColour(others.map(sideColour))) > SIDE_OTHER_COLOUR) widths[edge] = null;
  }
  const measured = edges.filter((edge) => widths[edge] !== null);
  if (measured.length >= 2) {
    const borderColour = medianColour(measured.map(sideColour));
    for (const edge of edges) {
      const opposite = widths[OPPOSITE[edge]];
      if (widths[edge] !== null || opposite === null || !lacksBorderColour(readings[edge], borderColour)) continue;
      // A miscut moves the print, it does not shrink it: the border missing here reappears on the opposite side,
      // which is then clearly wider than the borders across the other way (where those were measured).
      const across = (edge === 'left' || edge === 'right' ? [widths.top, widths.bottom] : [widths.left, widths.right]).filter((w): w is number => w !== null);
      if (across.length === 0 || opposite >= MISCUT_WIDER * (across.reduce((sum, w) => sum + w, 0) / across.length)) widths[edge] = 0;
    }
    // A print shifted on a diagonal widens the borders of both axes: once one axis shows the miscut, the print
    // reaching the edge on the other is the same miscut, whatever the borders across.
    if (edges.some((edge) => widths[edge] === 0)) {
      for (const edge of edges) {
        if (widths[edge] === null && widths[OPPOSITE[edge]] && lacksBorderColour(readings[edge], borderColour)) widths[edge] = 0;
      }
    }
  }
  const missing = edges.filter((edge) => widths[edge] === null);
  if (missing.length > 0) {
    const reason = missing.length >= 3 ? 'borderless' : `no border found on the ${missing.join(' and ')} side${missing.length > 1 ? 's' : ''}`;
    // An axis whose two borders were found still says how far off centre the card is that way.
    const across = (first: EdgeName, second: EdgeName) => (widths[first] === null || widths[second] === null ? undefined : axis(round(widths[first]), round(widths[second])));
    const horizontal = across('left', 'right');
    const vertical = across('top', 'bottom');
    return { measurable: false, reason, ...(horizontal ? { horizontal } : {}), ...(vertical ? { vertical } : {}) };
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
    innerFrame: { left: leftMm, right: round(flat.widthMm - rightMm), top: topMm, bottom: round(flat.heightMm - bottomMm) },
  };
}

const OPPOSITE: Record<EdgeName, EdgeName> = { left: 'right', right: 'left', top: 'bottom', bottom: 'top' };

/**
 * Most of the side's strips start in a colour other than the card's border, in hue or in lightness (a card back's
 * light swirl against its dark blue border): the print reaches the edge there. Only asked where the opposite border
 * is widened as a miscut widens it, which no lighting does.
 */
function lacksBorderColour(strips: StripReading[], borderColour: readonly number[]): boolean {
  const unlike = strips.filter(
    (strip) => chromaticityDistance(strip.reference, borderColour) > OTHER_COLOUR || rgbDistance(strip.reference, borderColour) > UNLIKE_BORDER,
  ).length;
  return unlike * 3 >= strips.length * 2;
}

/**
 * How far apart two colours are in hue and saturation, whatever the light on them (light falls unevenly across a
 * card in a photo): the distance of their chromaticities r, g, b / (r + g + b), 0 to about 1.4.
 */
function chromaticityDistance(a: readonly number[], b: readonly number[]): number {
  const sa = a[0]! + a[1]! + a[2]! + 1;
  const sb = b[0]! + b[1]! + b[2]! + 1;
  return Math.hypot(a[0]! / sa - b[0]! / sb, a[1]! / sa - b[1]! / sb, a[2]! / sa - b[2]! / sb);
}

function medianColour(colours: readonly (readonly number[])[]): [number, number, number] {
  return [0, 1, 2].map((c) => medianOf(colours.map((colour) => colour[c]!))) as [number, number, number];
}

function axis(firstMm: number, secondMm: number) {
  const worst = (100 * Math.max(firstMm, secondMm)) / (firstMm + secondMm);
  const worstShare = round(worst, 0.1);
  const larger = Math.round(worst);
  return { firstMm, secondMm, worstShare, ratio: `${larger}/${100 - larger}` };
}

/** Over a third of the strips must agree on one border colour and on its width; the others crossed print. */
const MIN_AGREEING_STRIPS = Math.ceil(STRIP_POSITIONS.length / 3) + 1;

/** A patterned border (One Piece) changes its tint along the side: then two thirds of the strips must agree on its end. */
const MIN_PATTERNED_STRIPS = Math.ceil(0.6 * STRIP_POSITIONS.length);

function agreeingStrips(strips: StripReading[]): StripReading[] | null {
  const found = strips.filter((strip) => strip.widthMm !== null);
  if (found.length < MIN_AGREEING_STRIPS) return null;
  const reference = medianColour(found.map((strip) => strip.reference));
  const sameColour = found.filter((strip) => rgbDistance(strip.reference, reference) < SAME_COLOUR);
  const plain = widestAgreement(sameColour);
  if (plain.length >= MIN_AGREEING_STRIPS) return plain;
  const patterned = widestAgreement(found);
  return patterned.length >= MIN_PATTERNED_STRIPS ? patterned : null;
}

/**
 * A border is one straight band: the largest group of strips agreeing on its width (the narrower on a tie, as a
 * strip that missed the border's end reads a later edge of the print, never an earlier one).
 */
function widestAgreement(strips: StripReading[]): StripReading[] {
  let best: StripReading[] = [];
  let bestWidth = Infinity;
  for (const strip of strips) {
    const group = strips.filter((other) => Math.abs(other.widthMm! - strip.widthMm!) <= AGREE_MM);
    const width = medianOf(group.map((member) => member.widthMm!));
    if (group.length > best.length || (group.length === best.length && width < bestWidth)) {
      best = group;
      bestWidth = width;
    }
  }
  return best;
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
  const alongMm = vertical ? flat.heightMm : flat.widthMm;
  const depth = Math.ceil(BAND_TO * flat.widthMm * pxPerMm) + 4;
  const stripPx = Math.round(STRIP_WIDTH_MM * pxPerMm);
  const firstAlong = marginPx + Math.round(at * alongMm * pxPerMm - stripPx / 2);
  const data = flat.data;
  const { origin, alongStride, depthStride } = edgeStrides(flat, edge);
  const pixelAt = (k: number, s: number) => origin + (firstAlong + s) * alongStride + k * depthStride;

  const profile = new Float64Array(depth * 3);
  for (let k = 0; k < depth; k++) stripMean(data, pixelAt(k, 0), alongStride, stripPx, profile, k * 3);

  // The border's colour (a median along the reference depths) and its own pixel-to-pixel variation (the median
  // distance of its pixels from that colour, so a blurred outline or a speck does not inflate it).
  const refFrom = Math.round(REFERENCE_FROM_MM * pxPerMm);
  const refTo = Math.round(REFERENCE_TO_MM * pxPerMm);
  const reference = [0, 1, 2].map((c) => {
    const values: number[] = [];
    for (let k = refFrom; k < refTo; k++) values.push(profile[k * 3 + c]!);
    return medianOf(values);
  }) as [number, number, number];
  const distances: number[] = [];
  for (let k = refFrom; k < refTo; k++) {
    for (let s = 0; s < stripPx; s++) {
      const i = pixelAt(k, s);
      distances.push(Math.hypot(data[i]! - reference[0], data[i + 1]! - reference[1], data[i + 2]! - reference[2]));
    }
  }
  const variation = medianOf(distances);
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
  const bandFrom = Math.floor(BAND_FROM * flat.widthMm * pxPerMm);
  const bandTo = Math.min(depth - 2, Math.ceil(BAND_TO * flat.widthMm * pxPerMm));

  // The first lasting departure from the border's colour.
  const run = Math.max(2, Math.round(STEP_RUN_MM * pxPerMm));
  let crossing = -1;
  for (let k = refTo; k + run <= depth - 1 && crossing < 0; k++) {
    let lasting = true;
    for (let j = 0; j < run && lasting; j++) lasting = differs(k + j);
    if (lasting) crossing = k;
  }
  const startPx = borderStart(profile, reference, differs, pxPerMm);
  let edgeAt: number | null = null;
  if (crossing >= bandFrom && crossing <= bandTo) {
    // Refined to the gradient peak of the transition the colour first differs in: uphill from there, either way.
    let peak = crossing;
    while (peak + 1 < depth - 1 && gradient[peak + 1]! > gradient[peak]!) peak++;
    while (peak - 1 > 0 && gradient[peak - 1]! > gradient[peak]!) peak--;
    edgeAt = peak;
  }
  if (edgeAt === null) return { widthMm: null, reference };
  const before = gradient[edgeAt - 1]!;
  const peakValue = gradient[edgeAt]!;
  const after = gradient[edgeAt + 1]!;
  const curvature = before - 2 * peakValue + after;
  const refined = edgeAt + (curvature < 0 ? (0.5 * (before - after)) / curvature : 0);
  // The transition centred on pixel k lies (k + 0.5) pixels in from the outline.
  return { widthMm: (refined + 0.5 - startPx) / pxPerMm, reference };
}

/**
 * Where the border's colour begins along a strip's profile, in pixels from the outline: the outline itself, or the
 * card's real edge a little inside an outline found outside it. The card's edge there is the steepest fall towards
 * the border's colour over OUTLINE_BLUR_MM, placed half-way between the levels on either side of that fall, so the
 * photo's noise and a dim exposure (which shrink or blur the fall but not where it is half done) do not move it;
 * a fall that is half done within OUTLINE_BLUR_MM of the outline is the outline's own, and the border starts there.
 * Only a band of something else that holds its colour before the card's edge (a sleeve's margin, a shadow) moves
 * the start inwards, never a colour easing into the border's from the outline on (a pale rim), which the steepest
 * pixel-to-pixel gradient along it placed anywhere its noise peaked.
 */
function borderStart(profile: Float64Array, reference: readonly number[], differs: (k: number) => boolean, pxPerMm: number): number {
  const slack = Math.round(OUTLINE_SLACK_MM * pxPerMm);
  const window = Math.max(2, Math.round(OUTLINE_BLUR_MM * pxPerMm));
  let settled = -1;
  for (let k = 0; k < slack && settled < 0; k++) if (!differs(k) && !differs(k + 1)) settled = k;
  if (settled < window) return 0;
  const unlike = (k: number) => Math.hypot(profile[k * 3]! - reference[0]!, profile[k * 3 + 1]! - reference[1]!, profile[k * 3 + 2]! - reference[2]!);
  let from = 0;
  let steepest = -Infinity;
  for (let k = 0; k + window <= settled; k++) {
    const fall = unlike(k) - unlike(k + window);
    if (fall > steepest) {
      steepest = fall;
      from = k;
    }
  }
  const level = (unlike(from) + unlike(from + window)) / 2;
  let half = from;
  for (let k = from; k < from + window; k++) {
    const here = unlike(k);
    const next = unlike(k + 1);
    if (here >= level && next < level) {
      half = k + (here - level) / (here - next);
      break;
    }
  }
  // Sample k is centred (k + 0.5) pixels in from the outline.
  return half + 0.5 >= window ? half + 0.5 : 0;
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
