import type { CornerMeasurement, CornerName, Defect } from '../contracts/measurement.ts';
import { backgroundBeside } from './background-beside.ts';
import { CARD_CORNER_RADIUS_MM, CORNER_NAMES, CORNER_ZONE_MM, cornerOutline } from './card-outline.ts';
import type { OutlineSample } from './card-outline.ts';
import type { FlatCard, RegionMm } from './flatten.ts';
import type { CardSize } from './card-formats.ts';
import { mmToPx } from './flatten.ts';
import { round } from './geometry.ts';
import { CORNER_WEAR_VISIBLE_PX } from './quality.ts';
import { sampleRgb } from './image.ts';
import { CORNER_SQUARE_MM, OUTLINE_BLEND_MM, RIM_BAND_INSIDE_MM, RIM_BAND_OUTSIDE_MM, RIM_EDGE_BAND_OUTSIDE_MM, RIM_TO_MM, RING_FROM_MM, RING_TO_MM, canSeeWhitening, outlineReading, referenceColour, whitenedRuns, whiteningScore } from './rim.ts';
import type { BandBackground, ReferenceColour } from './rim.ts';

const STEP_MM = 0.05;
/** Profiles run from this far outside the nominal outline... */
const OUTSIDE_MM = 0.6;
/** ...to this far inside it. */
const INSIDE_MM = 2.2;
/** A departure counts as fray where it holds along this much of the outline (about 2 pixels of a 1080p frame's card and more). */
const FRAY_RUN_MM = 0.3;
/** Below these (fray: or CORNER_WEAR_VISIBLE_PX of the photo's own pixels, if that is more), a corner is clean: what is left is the noise of the photo. */
const FRAY_DEFECT_MM = 0.15;
/**
 * A fray reading is only as certain as the outline it is read from. Next to the corner, along its two straight sides
 * where a card is not frayed, the outline's departures scatter about their line by the photo's own uncertainty there
 * (its noise, a patterned or sparkling border against light paper, the JPEG's blocks): a fray is called where it
 * passes the visible-wear size by this many of those standard deviations, so a reading at that size's very edge (the
 * same corner read a few hundredths either side of it as the photo is turned) is not taken for wear.
 */
const FRAY_UNCERTAINTY_SIGMAS = 2;
const WHITENING_DEFECT_MM = 0.2;
/**
 * The border's colour is read along both sides of a corner between these distances from it (mm along the outline):
 * past the corner's own zone, where corner damage does not reach.
 */
const BORDER_STRETCH_FROM_MM = 6;
const BORDER_STRETCH_TO_MM = 12;
/** Whitened stretches shorter than this are noise. */
const WHITENING_MIN_MM = 0.25;
/**
 * Where a corner's two sides are read: from this far past the end of its nominal arc (mm along each side)...
 */
const SIDE_FROM_PAST_ARC_MM = 1;
/** ...for this long: close enough to the corner that a side's bow in the photo does not matter, long enough to be a side. */
const SIDE_STRETCH_MM = 2;

export interface CornerReport {
  cornerStyle: 'rounded' | 'square';
  corners: CornerMeasurement[];
  defects: Defect[];
}

/**
 * GRADING.md §1.6 for the four corners: fray against the corner its format's die cut (`dieCutRadiiMm`, the radii
 * its dies cut: card-formats.ts), whitening along the rim. Read on each of `flats`, the rim warped from the card's
 * outline first and then from the outline moved within its uncertainty (measure-side.ts): each corner's fray and
 * whitening are the means of those readings, its defects drawn where a reading found them, at those means.
 */
export function measureCorners(flats: readonly FlatCard[], rimStart: number | null, noise: number, sourcePxPerMm: number, dieCutRadiiMm: readonly number[]): CornerReport {
  const readings = flats.map((flat) => readCorners(flat, rimStart, noise, sourcePxPerMm, dieCutRadiiMm));
  const [found] = readings;
  if (found === undefined) throw new Error('measureCorners needs the rim warped from the outline at least once');
  const mean = (values: number[]) => round(values.reduce((sum, v) => sum + v, 0) / values.length);
  const corners: CornerMeasurement[] = [];
  const defects: Defect[] = [];
  found.corners.forEach(({ corner, whitenedMm: whitenedFound }, k) => {
    const frayMm = mean(readings.map((r) => r.corners[k]!.frayMm));
    // Whitening where the found outline sees the rim (not white, not too blurred), over the readings that see it too.
    const seen = readings.map((r) => r.corners[k]!.whitenedMm).filter((w) => w !== null);
    const whitenedMm = whitenedFound === null ? null : mean(seen);
    corners.push({ corner, frayMm, whitenedMm, defectMm: round(Math.max(frayMm, whitenedMm ?? 0)) });
    // Each defect drawn where a reading found it (all readings share the card's millimetres), at the mean size.
    const drawn = (kind: Defect['kind']) => readings.map((r) => r.defects.find((d) => d.kind === kind && d.location === corner)).find((d) => d !== undefined);
    const fray = frayMm >= found.minFrayMm[k]! ? drawn('corner-fray') : undefined;
    if (fray) defects.push({ ...fray, sizeMm: frayMm, depthMm: frayMm });
    const whitening = whitenedMm !== null && whitenedMm >= WHITENING_DEFECT_MM ? drawn('corner-whitening') : undefined;
    if (whitening) defects.push({ ...whitening, sizeMm: whitenedMm!, lengthMm: whitenedMm! });
  });
  return { cornerStyle: found.cornerStyle, corners, defects };
}

/**
 * One reading of the corners, from one warp of the rim: the background beside each, its sides, the die its corners
 * follow, and each corner's fray and whitening against it, with the fray the corner's own outline lets be told from
 * noise. Everything is read again on each warp: where the corners lie between two dies' arcs, the mean of the readings
 * weighs the two as the outline's uncertainty does, rather than a half-pixel deciding between them.
 */
function readCorners(flat: FlatCard, rimStart: number | null, noise: number, sourcePxPerMm: number, dieCutRadiiMm: readonly number[]): CornerReport & { minFrayMm: number[] } {
  // Each corner's profiles are measured against the background read over a band beside its two sides, not their own
  // first samples, which a ruling of notebook paper just outside the card can fill (background-beside.ts).
  const backgrounds = new Map(CORNER_NAMES.map((corner) => [corner, { colour: backgroundBeside(flat, cornerOutline(corner, 0, SIDE_READ_TO_MM, BACKGROUND_STEP_MM, flat)), until: BACKGROUND_UNTIL }] as const));
  const sides = new Map(CORNER_NAMES.map((corner) => [corner, readSides(flat, corner, noise, backgrounds.get(corner)!)] as const));
  const radius = dieCutRadius(nominalRadius(flat, noise, sides, backgrounds), dieCutRadiiMm);
  const corners: CornerMeasurement[] = [];
  const defects: Defect[] = [];
  const minFrayMm: number[] = [];
  const visibleWear = Math.max(FRAY_DEFECT_MM, CORNER_WEAR_VISIBLE_PX / sourcePxPerMm);
  for (const corner of CORNER_NAMES) {
    const readings = sides.get(corner)!;
    minFrayMm.push(visibleWear + FRAY_UNCERTAINTY_SIGMAS * outlineScatter(readings, radius));
    const result = measureCorner(flat, corner, radius, sideOffsets(readings, radius), rimStart, noise, minFrayMm.at(-1)!, backgrounds.get(corner)!);
    corners.push(result.measurement);
    defects.push(...result.defects);
  }
  return { cornerStyle: radius >= ROUNDED_FROM_MM ? 'rounded' : 'square', corners, defects, minFrayMm };
}

/**
 * The parts of the rim of a card of `size` that reading its corners takes: each corner's square, and its two sides as
 * far along as the border's colour is read (BORDER_STRETCH_TO_MM), across the rim's band. A reading of the corners
 * alone warps only these.
 */
export function cornerRegions(size: CardSize): RegionMm[] {
  const o = RIM_BAND_OUTSIDE_MM;
  const e = RIM_EDGE_BAND_OUTSIDE_MM;
  const i = RIM_BAND_INSIDE_MM;
  const c = CORNER_SQUARE_MM;
  // The border's stretch is sampled every 4 steps: its last sample may fall one such step past BORDER_STRETCH_TO_MM.
  const along = BORDER_STRETCH_TO_MM + STEP_MM * 4;
  const { widthMm: w, heightMm: h } = size;
  return [
    ...[0, w].flatMap((x) => [0, h].map((y) => ({ x0: x === 0 ? -o : w - c, y0: y === 0 ? -o : h - c, x1: x === 0 ? c : w + o, y1: y === 0 ? c : h + o }))),
    ...[0, h].flatMap((y) => [
      { x0: -e, y0: y === 0 ? -e : h - i, x1: along, y1: y === 0 ? i : h + e },
      { x0: w - along, y0: y === 0 ? -e : h - i, x1: w + e, y1: y === 0 ? i : h + e },
    ]),
    ...[0, w].flatMap((x) => [
      { x0: x === 0 ? -e : w - i, y0: -e, x1: x === 0 ? i : w + e, y1: along },
      { x0: x === 0 ? -e : w - i, y0: h - along, x1: x === 0 ? i : w + e, y1: h + e },
    ]),
  ];
}

/** Corner radii tried when fitting the card's own: square to a little over the 3 mm of trading-card-game cards. */
const RADIUS_CANDIDATES_MM = [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4];
/** From this radius on the card is called rounded. */
const ROUNDED_FROM_MM = 1;
/** The fit reads the outline this far either way of the corner's middle: the curve, not the straight sides that every radius fits. */
const FIT_REACH_MM = 3.5;
/** The fit reads every this many outline samples: the shape of a corner needs far fewer than measuring fray does. */
const FIT_STRIDE = 4;

/**
 * Cards are cut with square corners (sports and vintage cards; a die's own rounding of half a millimetre at most) or
 * with the trading-card games' 3 mm arc; a format's dies cut one of these, or (63 × 88 mm) either. Corners that follow
 * an arc between a square cut and the format's rounded one, or any arc on a format cut only square, are a square
 * card's corners worn round, and ones rounder than the rounded die a game card's worn further: four equally worn
 * corners are still worn, so each is judged against the die cut it wore from, never against the four's own shape.
 */
const SQUARE_DIE_MAX_MM = 0.5;
/** A rounded die's arc as fitted is its radius give or take the fit's half-millimetre step. */
const DIE_FIT_STEP_MM = 0.5;
function dieCutRadius(fittedMm: number, dieCutRadiiMm: readonly number[]): number {
  const cutSquare = dieCutRadiiMm.includes(0);
  if (cutSquare && fittedMm <= SQUARE_DIE_MAX_MM) return fittedMm;
  const rounded = dieCutRadiiMm.filter((r) => r > 0).sort((a, b) => b - a);
  const wornFrom = rounded.find((r) => fittedMm >= r - DIE_FIT_STEP_MM);
  if (wornFrom !== undefined) return Math.min(fittedMm, wornFrom + DIE_FIT_STEP_MM);
  // Less round than every rounded die: a square card worn round, or (a format cut only rounded) its die, which the
  // corner then stands outside of, so no fray is read where the card is fuller than its die.
  return cutSquare ? 0 : rounded[rounded.length - 1]!;
}

/**
 * The card's nominal corner radius, estimated from the card itself: the radius whose arc the four corners' outlines
 * follow most closely (the median over corners of each corner's median distance from the arc), so one damaged or
 * cut corner does not decide it. A corner's fray is then its departure from that arc, never the arc itself.
 */
function nominalRadius(flat: FlatCard, noise: number, sides: ReadonlyMap<CornerName, SideReadings>, backgrounds: ReadonlyMap<CornerName, BandBackground>): number {
  let best = CARD_CORNER_RADIUS_MM;
  let bestError = Infinity;
  for (const radius of RADIUS_CANDIDATES_MM) {
    const errors = CORNER_NAMES.map((corner) => {
      const outline = cornerOutline(corner, radius, CORNER_ZONE_MM, STEP_MM, flat).filter((p, i) => i % FIT_STRIDE === 0 && Math.abs(p.s) <= FIT_REACH_MM);
      const reference = ringColour(flat, outline);
      const offsets = sideOffsets(sides.get(corner)!, radius);
      const background = backgrounds.get(corner)!;
      const departures = outline.map((point) => departureAt(flat, point, reference, noise, background) - expectedDeparture(point, offsets)).filter((d) => !Number.isNaN(d));
      return departures.length < outline.length / 2 ? Infinity : median(departures.map(Math.abs));
    });
    const error = median(errors);
    if (error < bestError) {
      bestError = error;
      best = radius;
    }
  }
  return best;
}

/**
 * How far inside the nominal outline the card's two sides run next to a corner (negative: outside). The card's
 * outline in a photo is never exactly the found quad's: a side may bow a few tenths of a millimetre with the lens or
 * the card, or a sleeve may pull the fitted line. A corner is judged against the two sides it joins, as the photo
 * shows them there, so neither of those reads as fray.
 */
interface SideOffsets {
  vertical: number;
  horizontal: number;
}

/** Where each corner's sides are read, once for every radius tried: from past the smallest arc to past the largest. */
const SIDE_READ_FROM_MM = SIDE_FROM_PAST_ARC_MM;
const SIDE_READ_TO_MM = Math.max(...RADIUS_CANDIDATES_MM) + SIDE_FROM_PAST_ARC_MM + SIDE_STRETCH_MM;
const SIDE_STEP_MM = 0.1;
/** The background beside a corner is read along its square outline as far as its sides are read, every this many mm. */
const BACKGROUND_STEP_MM = 0.2;
/** The last profile sample that may show the background: clear of the outline's blend (outlineReading). */
const BACKGROUND_UNTIL = Math.floor((OUTSIDE_MM - OUTLINE_BLEND_MM) / STEP_MM + 1e-9);

/** A corner's two sides as the photo shows them: the outline's departure at each distance from the virtual corner. */
interface SideReadings {
  distances: number[];
  vertical: number[];
  horizontal: number[];
}

function readSides(flat: FlatCard, corner: CornerName, noise: number, background: BandBackground): SideReadings {
  const stretch = cornerOutline(corner, 0, SIDE_READ_TO_MM, SIDE_STEP_MM, flat).filter((p) => Math.abs(p.s) >= SIDE_READ_FROM_MM - 1e-9);
  const reference = ringColour(flat, stretch);
  const readings: SideReadings = { distances: [], vertical: [], horizontal: [] };
  for (const point of stretch.filter((p) => p.s > 0)) readings.distances.push(point.s);
  for (const point of stretch) (point.s < 0 ? readings.vertical : readings.horizontal).push(departureAt(flat, point, reference, noise, background));
  // The vertical side was read from the far end in; put it in the same order as the horizontal one.
  readings.vertical.reverse();
  return readings;
}

/** The sides' offsets next to an arc of `radius`: their median departure over SIDE_STRETCH_MM past its end. */
function sideOffsets(readings: SideReadings, radius: number): SideOffsets {
  const from = radius + SIDE_FROM_PAST_ARC_MM;
  const to = from + SIDE_STRETCH_MM;
  const along = (departures: number[]) => {
    const seen = departures.filter((d, i) => readings.distances[i]! >= from - 1e-9 && readings.distances[i]! <= to + 1e-9 && !Number.isNaN(d));
    return seen.length === 0 ? 0 : median(seen);
  };
  return { vertical: along(readings.vertical), horizontal: along(readings.horizontal) };
}

/**
 * How uncertain the outline is next to a corner: the standard deviation (from the median absolute deviation, so a
 * nick or a speck does not decide it) of both sides' departures about each side's own median, read from
 * SIDE_FROM_PAST_ARC_MM past the end of the corner's arc on. 0 where too little of the sides is seen.
 */
function outlineScatter(readings: SideReadings, radius: number): number {
  const from = radius + SIDE_FROM_PAST_ARC_MM;
  const deviations: number[] = [];
  for (const departures of [readings.vertical, readings.horizontal]) {
    const seen = departures.filter((d, i) => readings.distances[i]! >= from - 1e-9 && !Number.isNaN(d));
    if (seen.length < 2) continue;
    const middle = median(seen);
    for (const d of seen) deviations.push(Math.abs(d - middle));
  }
  return deviations.length < MIN_SCATTER_SAMPLES ? 0 : MAD_TO_SIGMA * median(deviations);
}

/** A median absolute deviation times this is the standard deviation of normally distributed values. */
const MAD_TO_SIGMA = 1.4826;
/** Fewer side readings than this (2 mm of outline) say too little about its scatter. */
const MIN_SCATTER_SAMPLES = 20;

/** The departure an undamaged corner shows at an outline point when its sides run at these offsets: its arc moves with them. */
function expectedDeparture(point: OutlineSample, offsets: SideOffsets): number {
  return offsets.vertical * Math.abs(point.nx) + offsets.horizontal * Math.abs(point.ny);
}

/** How far inside the nominal outline point the card's outline is (negative: outside); NaN where no outline is seen. */
function departureAt(flat: FlatCard, point: OutlineSample, reference: ReferenceColour, noise: number, background: BandBackground): number {
  const { profile, count } = profileAlong(flat, point);
  const crossing = outlineReading(profile, count, Math.round(0.25 / STEP_MM), reference, noise, background)?.crossing ?? null;
  return crossing === null ? Number.NaN : crossing * STEP_MM - OUTSIDE_MM;
}

function measureCorner(
  flat: FlatCard,
  corner: CornerName,
  radius: number,
  offsets: SideOffsets,
  rimStart: number | null,
  noise: number,
  minFrayMm: number,
  background: BandBackground,
): { measurement: CornerMeasurement; defects: Defect[] } {
  const outline = cornerOutline(corner, radius, CORNER_ZONE_MM, STEP_MM, flat);
  // The border's own colour where the damage is not: along both sides, away from the corner (a whitened corner
  // whitens the ring just inside it too, and would be measured against itself).
  const stretch = cornerOutline(corner, 0, BORDER_STRETCH_TO_MM, STEP_MM * 4, flat).filter((p) => Math.abs(p.s) >= BORDER_STRETCH_FROM_MM);
  const border = borderColour(flat, stretch);
  const reference = border.colour;
  // Whitening is not observable on a white border, on print that runs to the edge in changing colours (no even
  // border to whiten), nor in a photo too blurred to separate rim from background.
  const observable = rimStart !== null && canSeeWhitening(reference, border.unevenness);
  const outside = Math.round(0.25 / STEP_MM);
  const departures = new Float64Array(outline.length);
  const whitening = new Float64Array(outline.length);
  outline.forEach((point, i) => {
    const { profile, count } = profileAlong(flat, point);
    const crossing = outlineReading(profile, count, outside, reference, noise, background)?.crossing ?? null;
    // Where no outline is seen (the card's colour meets a background of the same lightness) nothing is measured.
    departures[i] = crossing === null ? Number.NaN : crossing * STEP_MM - OUTSIDE_MM - expectedDeparture(point, offsets);
    const at = crossing === null ? count - 1 : crossing;
    if (observable && crossing !== null) {
      whitening[i] = whiteningScore(profile, Math.ceil(at + rimStart / STEP_MM), Math.floor(at + RIM_TO_MM / STEP_MM) + 1, reference);
    }
  });

  // Fray: the largest inward departure held along FRAY_RUN_MM of the outline, so neither one noisy profile nor a
  // pixel or two of misfit in a small photo decides it.
  const run = Math.max(3, Math.round(FRAY_RUN_MM / STEP_MM));
  let fray = 0;
  let frayAt = 0;
  for (let i = 0; i + run <= departures.length; i++) {
    let held = Infinity;
    for (let k = i; k < i + run; k++) held = Math.min(held, departures[k]!);
    if (!Number.isNaN(held) && held > fray) { fray = held; frayAt = i + (run >> 1); }
  }
  // The noise of the scores is judged on the undamaged stretch: a corner whitened all round has no clean part of its own.
  const baseline = observable ? Float64Array.from(stretch, (point) => rimScore(flat, point, reference, noise, rimStart, background)) : undefined;
  const runs = observable ? whitenedRuns(whitening, 2, Math.round(WHITENING_MIN_MM / STEP_MM), baseline) : [];
  const whitenedLength = runs.reduce((sum, [from, to]) => sum + (to - from) * STEP_MM, 0);
  const frayMm = round(fray);
  const whitenedMm = observable ? round(whitenedLength) : null;
  const defectMm = round(Math.max(frayMm, whitenedMm ?? 0));

  const defects: Defect[] = [];
  if (frayMm >= minFrayMm) {
    const from = Math.max(0, frayAt - 10);
    const to = Math.min(outline.length, frayAt + 11);
    defects.push({ kind: 'corner-fray', location: corner, box: boxAround(outline.slice(from, to), fray), sizeMm: frayMm, depthMm: frayMm });
  }
  if (whitenedMm !== null && whitenedMm >= WHITENING_DEFECT_MM) {
    const first = runs[0]![0];
    const last = runs[runs.length - 1]![1];
    defects.push({
      kind: 'corner-whitening',
      location: corner,
      box: boxAround(outline.slice(first, last), RIM_TO_MM),
      sizeMm: whitenedMm,
      lengthMm: whitenedMm,
    });
  }
  return { measurement: { corner, frayMm, whitenedMm, defectMm }, defects };
}

const PROFILE_COUNT = Math.round((OUTSIDE_MM + INSIDE_MM) / STEP_MM) + 1;
/** One profile's colours, filled afresh by each profileAlong: every caller reads it before asking for the next. */
const profileScratch = new Float64Array(PROFILE_COUNT * 3);
const colourScratch = new Float64Array(3);

/**
 * Colours along the inward normal at an outline point, from OUTSIDE_MM outside to INSIDE_MM inside, every STEP_MM.
 * The profile is a shared buffer, valid until the next call: the corners are read thousands of profiles at a time.
 */
function profileAlong(flat: FlatCard, point: OutlineSample): { profile: Float64Array; count: number } {
  const profile = profileScratch;
  for (let i = 0; i < PROFILE_COUNT; i++) {
    const t = i * STEP_MM - OUTSIDE_MM;
    sampleRgb(flat, mmToPx(flat, point.x + point.nx * t), mmToPx(flat, point.y + point.ny * t), colourScratch);
    profile[i * 3] = colourScratch[0]!;
    profile[i * 3 + 1] = colourScratch[1]!;
    profile[i * 3 + 2] = colourScratch[2]!;
  }
  return { profile, count: PROFILE_COUNT };
}

/** Whitening score at one outline point (0 where the outline is not seen). */
function rimScore(flat: FlatCard, point: OutlineSample, reference: ReferenceColour, noise: number, rimStart: number, background: BandBackground): number {
  const { profile, count } = profileAlong(flat, point);
  const crossing = outlineReading(profile, count, Math.round(0.25 / STEP_MM), reference, noise, background)?.crossing ?? null;
  if (crossing === null) return 0;
  return whiteningScore(profile, Math.ceil(crossing + rimStart / STEP_MM), Math.floor(crossing + RIM_TO_MM / STEP_MM) + 1, reference);
}

/**
 * The border's colour 1–2 mm inside the given outline points, as the median of each point's ring, and how uneven it
 * is along them (the median distance of the points' colours from it, RGB levels).
 */
function borderColour(flat: FlatCard, outline: readonly OutlineSample[]): { colour: ReferenceColour; unevenness: number } {
  const colours = outline.map((point) => {
    const ring = ringColour(flat, [point]);
    return [ring.r, ring.g, ring.b] as const;
  });
  const [r, g, b] = [0, 1, 2].map((c) => median(colours.map((colour) => colour[c]!)));
  const unevenness = median(colours.map((colour) => Math.hypot(colour[0] - r!, colour[1] - g!, colour[2] - b!)));
  return { colour: referenceColour(r!, g!, b!), unevenness };
}

/** The card's own colour 1–2 mm inside the given outline points. */
function ringColour(flat: FlatCard, outline: readonly OutlineSample[]): ReferenceColour {
  const colour = new Float64Array(3);
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  for (const point of outline) {
    for (let t = RING_FROM_MM; t <= RING_TO_MM + 1e-9; t += 0.25) {
      sampleRgb(flat, mmToPx(flat, point.x + point.nx * t), mmToPx(flat, point.y + point.ny * t), colour);
      r += colour[0]!;
      g += colour[1]!;
      b += colour[2]!;
      n++;
    }
  }
  return referenceColour(r / n, g / n, b / n);
}

function boxAround(points: readonly OutlineSample[], depth: number) {
  const xs = points.flatMap((p) => [p.x, p.x + p.nx * depth]);
  const ys = points.flatMap((p) => [p.y, p.y + p.ny * depth]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x: round(x), y: round(y), width: round(Math.max(...xs) - x), height: round(Math.max(...ys) - y) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
