import type { CardSize } from './card-formats.ts';
import type { Defect, EdgeMeasurement, EdgeName } from '../contracts/measurement.ts';
import { backgroundsAlongEdge } from './background-beside.ts';
import { CORNER_ZONE_MM } from './card-outline.ts';
import { edgeStrides } from './flatten.ts';
import type { FlatCard } from './flatten.ts';
import { median, quantile, round } from './geometry.ts';
import { SMALLEST_VISIBLE_PX } from './quality.ts';
import { OUTLINE_BLEND_MM, RIM_TO_MM, RING_FROM_MM, RING_TO_MM, canSeeWhitening, outlineReading, referenceColour, runsOf, whitenedRuns, whiteningScore } from './rim.ts';
import type { ReferenceColour } from './rim.ts';

const EDGE_NAMES: readonly EdgeName[] = ['top', 'right', 'bottom', 'left'];
/** Profiles start this far outside the card's edge (inside the flattened image's margin)... */
const OUTSIDE_MM = 0.6;
/** ...and reach this far in. */
const INSIDE_MM = 2.4;
/**
 * A nick is traced where the edge sits this far inside its line, and counted when its deepest point reaches
 * NICK_MIN_DEPTH_MM, or two of the photo's own pixels if that is more (SMALLEST_VISIBLE_PX): shallower, it is the pixels' noise.
 */
const NICK_TRACE_MM = 0.05;
const NICK_MIN_DEPTH_MM = 0.1;
/** A nick is measured against the edge's median course over this length round it (see findNicks). */
const NICK_COURSE_MM = 10;
/** How far past the edge's own wander (robust standard deviation) a nick must reach. */
const NICK_NOISE_SIGMAS = 4;
/**
 * Where the step from background to card is less than this many times the photo's noise and the border's own fine
 * texture put together (a patterned white border on white paper), the outline found follows the pattern as much as
 * the edge: nicks are not looked for there, and the side's confidence says so.
 */
const EDGE_STEP_OVER_TEXTURE = 4;
/** Whitening runs shorter than this are noise. */
const WHITENING_MIN_MM = 0.25;
/** The reference colour is smoothed along the edge over this length. */
const REFERENCE_WINDOW_MM = 4;
/** A border's unevenness is how far its colour strays along this share of the side (canSeeWhitening). */
const EVEN_BORDER_SHARE = 0.8;

export interface EdgeReport {
  edges: EdgeMeasurement[];
  defects: Defect[];
  /** Edges whose outline could not be told from the border's pattern: no nicks looked for on them. */
  nicksUnseen: EdgeName[];
}

/** GRADING.md §1.7, away from the corners: nicks from the edge's residual against its line, whitening along the rim. */
export function measureEdges(flat: FlatCard, rimStart: number | null, noise: number, sourcePxPerMm: number): EdgeReport {
  const edges: EdgeMeasurement[] = [];
  const defects: Defect[] = [];
  const nicksUnseen: EdgeName[] = [];
  for (const edge of EDGE_NAMES) {
    const result = measureEdge(flat, edge, rimStart, noise, sourcePxPerMm);
    edges.push(result.measurement);
    defects.push(...result.defects);
    if (!result.nicksSeen) nicksUnseen.push(edge);
  }
  return { edges, defects, nicksUnseen };
}

function measureEdge(
  flat: FlatCard,
  edge: EdgeName,
  rimStart: number | null,
  noise: number,
  sourcePxPerMm: number,
): { measurement: EdgeMeasurement; defects: Defect[]; nicksSeen: boolean } {
  const { pxPerMm, marginPx, data } = flat;
  const lengthMm = edge === 'top' || edge === 'bottom' ? flat.widthMm : flat.heightMm;
  const outsidePx = Math.round(OUTSIDE_MM * pxPerMm);
  const count = outsidePx + Math.round(INSIDE_MM * pxPerMm);
  // Position p along the edge is pixel marginPx + p; depth k (0 = the card's outermost pixel) may be negative (outside).
  const first = Math.round(CORNER_ZONE_MM * pxPerMm);
  const last = Math.round((lengthMm - CORNER_ZONE_MM) * pxPerMm);
  const positions = last - first;

  // Profiles across the edge, one per pixel along it.
  const profiles = new Float32Array(positions * count * 3);
  const { origin, alongStride, depthStride } = edgeStrides(flat, edge);
  for (let n = 0; n < positions; n++) {
    const start = origin + (marginPx + first + n) * alongStride - outsidePx * depthStride;
    readProfile(data, start, depthStride, count, profiles, n * count * 3);
  }

  const { references, unevenness, texture } = ringReferences(profiles, positions, count, outsidePx, pxPerMm);
  // Whitening is not observable on a white border, on print that runs to the edge in changing colours (no even
  // border to whiten), nor in a photo too blurred to separate rim from background.
  const observable = rimStart !== null && canSeeWhitening(references[positions >> 1]!, unevenness);
  const nicksSeen = backgroundStep(profiles, positions, count, outsidePx, references[positions >> 1]!) >= EDGE_STEP_OVER_TEXTURE * (noise + texture);
  // Where each position lies along the edge, in mm from its start.
  const alongMm = new Float64Array(positions);
  for (let n = 0; n < positions; n++) alongMm[n] = (first + n + 0.5) / pxPerMm;
  // The background each profile is measured against, read over a band beside the edge (background-beside.ts).
  const backgrounds = backgroundsAlongEdge(flat, edge, alongMm);
  const backgroundUntil = outsidePx - Math.ceil(OUTLINE_BLEND_MM * pxPerMm);
  const crossings = new Float64Array(positions);
  const departures = new Float64Array(positions);
  const colourDepartures = new Float64Array(positions);
  const whitening = new Float64Array(positions);
  for (let n = 0; n < positions; n++) {
    const profile = profiles.subarray(n * count * 3, (n + 1) * count * 3);
    const reading = outlineReading(profile, count, Math.round(0.25 * pxPerMm), references[n]!, noise, { colour: backgrounds.subarray(n * 3, n * 3 + 3), until: backgroundUntil });
    crossings[n] = reading === null ? Number.NaN : reading.crossing;
    departures[n] = reading === null ? Number.NaN : reading.departure;
    colourDepartures[n] = reading === null ? Number.NaN : reading.colourDeparture;
    if (observable && reading !== null) {
      const at = reading.crossing;
      whitening[n] = whiteningScore(profile, Math.ceil(at + rimStart * pxPerMm), Math.floor(at + RIM_TO_MM * pxPerMm) + 1, references[n]!);
    }
  }
  const defects: Defect[] = [];
  const minDepthMm = Math.max(NICK_MIN_DEPTH_MM, SMALLEST_VISIBLE_PX / sourcePxPerMm);
  // A bite out of the card shows the background's lightness and its colour: a nick is one where both say so.
  const byLightness = nicksSeen ? findNicks(outlineDepths(crossings, [departures], outsidePx, pxPerMm), alongMm, pxPerMm, minDepthMm) : [];
  const byColour = byLightness.length > 0 ? findNicks(outlineDepths(crossings, [departures, colourDepartures], outsidePx, pxPerMm), alongMm, pxPerMm, minDepthMm) : [];
  const nicks = byLightness.filter((nick) => byColour.some((other) => overlap(nick, other)));
  for (const nick of nicks) {
    defects.push({
      kind: 'edge-nick',
      location: edge,
      box: edgeBox(flat, edge, nick.atMm - nick.lengthMm / 2, nick.lengthMm, nick.depthMm),
      sizeMm: nick.depthMm,
      depthMm: nick.depthMm,
      lengthMm: nick.lengthMm,
    });
  }
  let whitenedMm: number | null = null;
  if (observable) {
    let total = 0;
    for (const [from, to] of whitenedRuns(whitening, 2, Math.round(WHITENING_MIN_MM * pxPerMm))) {
      const length = round((to - from) / pxPerMm);
      total += length;
      defects.push({ kind: 'edge-whitening', location: edge, box: edgeBox(flat, edge, alongMm[from]! - 0.5 / pxPerMm, length, RIM_TO_MM), sizeMm: length, lengthMm: length });
    }
    whitenedMm = round(total);
  }
  return { measurement: { edge, whitenedMm, nicks }, defects, nicksSeen };
}

/**
 * How far inside the nominal edge the card begins at each position, in mm: NaN where no outline is seen (the card's
 * colour meets a background of its own lightness), unknown there, not a nick. A nick is a bite out of the card, so
 * the profile leaves the background further in, by the bite's depth; print next to the cut does not move that. The
 * half-way level that places the outline to a fraction of a pixel (the crossing) is set by the card's lightness
 * just inside it, and where a pale stretch of art meets the cut with darker print a few tenths of a millimetre in,
 * that level is half-way to the darker print and the crossing moves in with no bite at all. So the outline is taken
 * no further in than where the profile left the background, plus the distance the crossing usually lies past that
 * point along this side (the outline's own blur: its median over the side). Each way of leaving the background
 * (its lightness, its colour: see OutlineReading) bounds the outline so, with its own blur.
 */
function outlineDepths(crossings: Float64Array, departureKinds: readonly Float64Array[], outsidePx: number, pxPerMm: number): Float64Array {
  const bounds = departureKinds.map((departures) => {
    const seen: number[] = [];
    for (let n = 0; n < crossings.length; n++) if (Number.isFinite(crossings[n]! - departures[n]!)) seen.push(crossings[n]! - departures[n]!);
    const blur = seen.length === 0 ? 0 : median(Float64Array.from(seen));
    return Float64Array.from(departures, (departure) => departure + blur);
  });
  // Sample i's centre lies (i - outsidePx + 0.5) pixels in from the edge.
  return Float64Array.from(crossings, (crossing, n) => (Math.min(crossing, ...bounds.map((bound) => bound[n]!)) - outsidePx + 0.5) / pxPerMm);
}

/** Colour distance between the background just outside the edge (its outer half millimetre, averaged along it) and the card's reference colour. */
function backgroundStep(profiles: Float32Array, positions: number, count: number, outsidePx: number, reference: ReferenceColour): number {
  const background = [0, 0, 0];
  const depth = Math.max(1, outsidePx >> 1);
  for (let n = 0; n < positions; n++) {
    for (let i = 0; i < depth; i++) {
      for (let c = 0; c < 3; c++) background[c]! += profiles[(n * count + i) * 3 + c]! / (positions * depth);
    }
  }
  return Math.hypot(background[0]! - reference.r, background[1]! - reference.g, background[2]! - reference.b);
}

function readProfile(data: Uint8Array, start: number, stride: number, count: number, out: Float32Array, at: number): void {
  for (let i = 0, j = start, o = at; i < count; i++, j += stride, o += 3) {
    out[o] = data[j]!;
    out[o + 1] = data[j + 1]!;
    out[o + 2] = data[j + 2]!;
  }
}

/**
 * The card's own colour 1–2 mm in from the edge at each position, averaged along the edge; how uneven it is along the
 * whole edge (the median RGB distance of the positions' colours from their median); and how textured it is at a
 * finer scale than that average (the median distance of each position's colour from its average): a pattern.
 */
function ringReferences(
  profiles: Float32Array,
  positions: number,
  count: number,
  outsidePx: number,
  pxPerMm: number,
): { references: ReferenceColour[]; unevenness: number; texture: number } {
  const from = outsidePx + Math.round(RING_FROM_MM * pxPerMm);
  const to = Math.min(count, outsidePx + Math.round(RING_TO_MM * pxPerMm));
  const ring = new Float64Array(positions * 3);
  for (let n = 0; n < positions; n++) {
    for (let i = from; i < to; i++) {
      for (let c = 0; c < 3; c++) ring[n * 3 + c]! += profiles[(n * count + i) * 3 + c]! / (to - from);
    }
  }
  // Running mean over the window: prefix sums per channel.
  const prefix = new Float64Array((positions + 1) * 3);
  for (let n = 0; n < positions; n++) for (let c = 0; c < 3; c++) prefix[(n + 1) * 3 + c] = prefix[n * 3 + c]! + ring[n * 3 + c]!;
  const half = Math.round((REFERENCE_WINDOW_MM / 2) * pxPerMm);
  const references: ReferenceColour[] = [];
  for (let n = 0; n < positions; n++) {
    const a = Math.max(0, n - half);
    const b = Math.min(positions, n + half + 1);
    const mean = [0, 1, 2].map((c) => (prefix[b * 3 + c]! - prefix[a * 3 + c]!) / (b - a));
    references.push(referenceColour(mean[0]!, mean[1]!, mean[2]!));
  }
  const unevenness = borderUnevenness(ring, positions);
  const texture = median(Float64Array.from({ length: positions }, (_, n) => Math.hypot(ring[n * 3]! - references[n]!.r, ring[n * 3 + 1]! - references[n]!.g, ring[n * 3 + 2]! - references[n]!.b)));
  return { references, unevenness, texture };
}

/**
 * How far the colour 1–2 mm inside the edge (RGB triples, one per position along it) strays from its median along
 * EVEN_BORDER_SHARE of the side. A printed border keeps its colour along nearly all of the side; art running to the
 * edge may keep one colour along half of it (a dark sky, a robe), which the median alone would take for a border.
 */
export function borderUnevenness(ring: Float64Array, positions: number): number {
  const middle = [0, 1, 2].map((c) => median(Float64Array.from({ length: positions }, (_, n) => ring[n * 3 + c]!)));
  return quantile(
    Float64Array.from({ length: positions }, (_, n) => Math.hypot(ring[n * 3]! - middle[0]!, ring[n * 3 + 1]! - middle[1]!, ring[n * 3 + 2]! - middle[2]!)),
    EVEN_BORDER_SHARE,
  );
}

interface Nick {
  depthMm: number;
  lengthMm: number;
  atMm: number;
}

/** Whether two nicks' stretches along the edge share any of it. */
function overlap(a: Nick, b: Nick): boolean {
  return Math.abs(a.atMm - b.atMm) <= (a.lengthMm + b.lengthMm) / 2;
}

/**
 * Stretches where the edge sits inside its own course, the deepest point of each the nick's depth. The course is the
 * edge's median over NICK_COURSE_MM round each point, not one straight line for the whole side: a photo bows a side
 * by a few tenths of a millimetre (the lens, a card not quite flat), which would read as long shallow "nicks", while
 * a notch (at most a few millimetres long) moves the median over a window more than twice its length not at all.
 * A nick must also stand clear of how much the edge wanders where it is whole (NICK_NOISE_SIGMAS of its spread).
 */
export function findNicks(edgeAt: Float64Array, alongMm: Float64Array, pxPerMm: number, minDepthMm: number): Nick[] {
  let seenCount = 0;
  for (let n = 0; n < edgeAt.length; n++) if (!Number.isNaN(edgeAt[n]!)) seenCount++;
  if (seenCount < edgeAt.length / 2) return [];
  const course = runningMedian(edgeAt, Math.round((NICK_COURSE_MM / 2) * pxPerMm));
  const residual = new Float64Array(edgeAt.length);
  for (let n = 0; n < edgeAt.length; n++) residual[n] = edgeAt[n]! - course[n]!; // positive inwards; NaN where unseen
  const seen = Float64Array.from(residual).filter((v) => !Number.isNaN(v));
  const spread = 1.4826 * median(seen.map(Math.abs));
  const minDepth = Math.max(minDepthMm, NICK_NOISE_SIGMAS * spread);
  const inside = new Uint8Array(edgeAt.length);
  for (let n = 0; n < edgeAt.length; n++) inside[n] = residual[n]! > NICK_TRACE_MM ? 1 : 0; // NaN compares false
  const nicks: Nick[] = [];
  for (const [from, to] of runsOf(inside, 2, 1)) {
    let depth = 0;
    for (let n = from; n < to; n++) {
      if (Number.isNaN(residual[n]!)) continue;
      const smoothed = Math.min(residual[n]!, Math.max(known(residual[n - 1]), known(residual[n + 1])));
      depth = Math.max(depth, smoothed);
    }
    if (depth < minDepth) continue;
    nicks.push({ depthMm: round(depth), lengthMm: round((to - from) / pxPerMm), atMm: round((alongMm[from]! + alongMm[to - 1]!) / 2) });
  }
  return nicks;
}

/** The edge's course is worked out every this many positions and drawn straight between: it changes slowly. */
const COURSE_STRIDE = 4;

/**
 * The median of the seen values within `half` positions either way of each position (reading every other one: the
 * edge changes far more slowly than that), worked out every COURSE_STRIDE positions and interpolated between.
 */
function runningMedian(values: Float64Array, half: number): Float64Array {
  const knots: number[] = [];
  const window = new Float64Array(half + 1);
  for (let n = 0; n < values.length; n += COURSE_STRIDE) {
    let count = 0;
    for (let k = Math.max(0, n - half); k <= Math.min(values.length - 1, n + half); k += 2) {
      if (!Number.isNaN(values[k]!)) window[count++] = values[k]!;
    }
    knots.push(count === 0 ? Number.NaN : median(window.subarray(0, count)));
  }
  const out = new Float64Array(values.length);
  for (let n = 0; n < values.length; n++) {
    const k = Math.min(knots.length - 1, Math.floor(n / COURSE_STRIDE));
    const t = (n - k * COURSE_STRIDE) / COURSE_STRIDE;
    const next = knots[Math.min(knots.length - 1, k + 1)]!;
    out[n] = Number.isNaN(next) ? knots[k]! : knots[k]! + (next - knots[k]!) * t;
  }
  return out;
}

/** A residual beyond the ends, or where the edge was not seen, counts as on the line. */
function known(value: number | undefined): number {
  return value === undefined || Number.isNaN(value) ? 0 : value;
}

/** A box on a card of `size` for something `length` long from `startMm` along an edge and `depth` deep. */
function edgeBox(size: CardSize, edge: EdgeName, startMm: number, length: number, depth: number) {
  switch (edge) {
    case 'top':
      return { x: round(startMm), y: 0, width: round(length), height: round(depth) };
    case 'bottom':
      return { x: round(startMm), y: round(size.heightMm - depth), width: round(length), height: round(depth) };
    case 'left':
      return { x: 0, y: round(startMm), width: round(depth), height: round(length) };
    case 'right':
      return { x: round(size.widthMm - depth), y: round(startMm), width: round(depth), height: round(length) };
  }
}
