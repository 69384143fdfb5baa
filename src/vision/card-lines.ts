import type { Point } from '../contracts/measurement.ts';
import { formatForAspect, isCardAspect, narrowestWidthMm } from './card-formats.ts';
import type { FormatSet } from './card-formats.ts';
import { MIN_PX_PER_MM } from './card-outline.ts';
import { fitLineRobust, intersectLines, isConvex, polygonArea } from './geometry.ts';
import type { Line } from './geometry.ts';
import { rgbDistance } from './image.ts';
import type { DecodedImage } from './image.ts';

// Finding the card by its straight sides: the way a document scanner finds a page. Colour segmentation fails when
// the card's border is the colour of what it lies on (a white-bordered card on notebook paper) or when the
// background is not one colour; the card's four straight edges are still there. Lines come from a Hough transform
// of the photo's edges; every four of them that make a card-shaped quad are scored by how much of each side is
// really an edge, how little that edge runs on past the corners (a notebook's rulings run across the whole page),
// and how much the colour steps across it (a penny sleeve's outline is a thin ridge between two patches of table).

/** About the longer side of the copy lines are looked for on (an integer shrink of the photo). */
const SEARCH_SIDE = 640;
/** An edge is a step of at least this many levels (0–255) per pixel… */
const MIN_EDGE_STEP = 6;
/** …and never needs more than this, however busy the photo: a white card's edge on white paper is a faint shadow. */
const MAX_EDGE_STEP = 16;
/** Hough angle step; a line's votes go to the angles within ANGLE_SPREAD of its pixels' gradient direction. */
const ANGLE_STEP = Math.PI / 360;
const ANGLE_SPREAD_BINS = 4;
/** At most this many lines are combined into quads (the strongest after non-maximum suppression). */
const MAX_LINES = 64;
/** Opposite sides of a card photographed at a slant are this far from parallel at most (keystone). */
const PARALLEL_TOLERANCE = (12 * Math.PI) / 180;
/** Neighbouring sides meet at 90° give or take this (keystone and perspective). */
const PERPENDICULAR_TOLERANCE = (20 * Math.PI) / 180;
/** Along each side, the straight part is sampled between these shares of its length (clear of rounded corners). */
const SIDE_FROM = 0.12;
const SIDE_TO = 0.88;
const SIDE_SAMPLES = 40;
/** Beyond the corners, the side's line is sampled this far out (shares of its length): a card's edge stops there. */
const OVERSHOOT_FROM = 0.04;
const OVERSHOOT_TO = 0.16;
const OVERSHOOT_SAMPLES = 12;
/** A side is an edge where its pixels' gradient points across it within this angle. */
const ACROSS_COS = Math.cos((25 * Math.PI) / 180);
/** A side must be edge over at least this share of its straight part, less what runs on past its ends. */
const MIN_SIDE_SCORE = 0.45;
/** Among quads scoring within this share of the best, the largest is the card: art frames and boxes lie inside it. */
const NEAR_BEST = 0.85;
/** How many of those are offered, largest first, should the larger not prove to be the card (card + shadow). */
const QUADS_OFFERED = 6;
/**
 * A whole card-shaped outline under MIN_PX_PER_MM that spans at least this share of the photo's shorter side is a
 * card in a thumbnail (a listing photo scaled to 400 px wide): its size, not an edge of the photo, is why it cannot
 * be graded. Smaller ones are more likely print inside a card than a card.
 */
const THUMBNAIL_SPAN = 0.5;
/**
 * Just inside a bordered card's four sides is its border, one colour all round: along each side the colours lie
 * within BORDER_SPREAD of their mean on average (noise and a little shading; a strip of art varies more), and the
 * four sides' means within BORDER_AGREEMENT of each other. A quad pieced together from other things' lines (a slab's
 * holder, its label, the card's foot) has another colour inside each side; one inside the art has no one colour.
 */
const BORDER_SPREAD = 4;
const BORDER_AGREEMENT = 40;
/** Colour step across a side (mean of channels' absolute differences, 0–255) at which a side counts fully as a step. */
const FULL_STEP = 24;

interface SearchImage {
  width: number;
  height: number;
  /** Source pixels per search pixel. */
  factor: number;
  rgb: Float32Array;
  /** Gradient of the channel that changes most, per pixel, and its magnitude. */
  gx: Float32Array;
  gy: Float32Array;
  magnitude: Float32Array;
}

interface HoughLine {
  theta: number;
  rho: number;
  votes: number;
  /** cos θ and sin θ, made once: every quad the line is a side of intersects it with others. */
  cos: number;
  sin: number;
}

/**
 * The card's four corners (source pixels, clockwise from the card's top-left, its long side upright), a card of one
 * of `formats` by its shape, good to about
 * a pixel of the copy the lines were found on (pxPerSearchPx photo pixels) — to be refined on the full photo —, or
 * null when no four straight edges make a card.
 */
export function findCardByLines(image: DecodedImage, formats: FormatSet): { quads: Point[][]; pxPerSearchPx: number; thumbnailCard: Point[] | null } | null {
  const search = makeSearchImage(image);
  const threshold = edgeThreshold(search);
  const lines = houghLines(search, threshold, formats);
  const f = search.factor;
  const { offered, thumbnailCard } = bestQuads(search, lines, threshold, formats);
  const fitted = offered.map((found) => fitSides(search, found, threshold)).filter((quad) => quad !== null);
  // Fitting brings quads a pixel or two apart onto the same edges.
  const quads = fitted.filter((quad, i) => fitted.slice(0, i).every((earlier) => farthestCorner(earlier, quad) > 1));
  if (quads.length === 0 && thumbnailCard === null) return null;
  const toImage = (quad: Point[]) => quad.map((p) => ({ x: p.x * f + (f - 1) / 2, y: p.y * f + (f - 1) / 2 }));
  return { quads: quads.map(toImage), pxPerSearchPx: f, thumbnailCard: thumbnailCard === null ? null : toImage(thumbnailCard) };
}

function makeSearchImage(image: DecodedImage): SearchImage {
  const factor = Math.max(1, Math.round(Math.max(image.width, image.height) / SEARCH_SIDE));
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const rgb = new Float32Array(width * height * 3);
  const source = image.data;
  const scale = 1 / (factor * factor);
  for (let y = 0; y < height; y++) shrinkRow(source, image.width, factor, y, width, rgb, scale);
  const gx = new Float32Array(width * height);
  const gy = new Float32Array(width * height);
  const magnitude = new Float32Array(width * height);
  for (let y = 1; y < height - 1; y++) sobelRow(rgb, width, y, gx, gy, magnitude);
  return { width, height, factor, rgb, gx, gy, magnitude };
}

/** One row of the search copy: each pixel the mean of its factor × factor block, added up row by row of the photo. */
function shrinkRow(source: Uint8Array, sourceWidth: number, factor: number, y: number, width: number, rgb: Float32Array, scale: number): void {
  const out = y * width * 3;
  for (let dy = 0; dy < factor; dy++) {
    let i = (y * factor + dy) * sourceWidth * 3;
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dx = 0; dx < factor; dx++, i += 3) {
        r += source[i]!;
        g += source[i + 1]!;
        b += source[i + 2]!;
      }
      const o = out + x * 3;
      rgb[o]! += r * scale;
      rgb[o + 1]! += g * scale;
      rgb[o + 2]! += b * scale;
    }
  }
}

/** Sobel per channel, scaled so a step of Δ between two pixels reads about Δ; the channel changing most wins. */
function sobelRow(rgb: Float32Array, width: number, y: number, gx: Float32Array, gy: Float32Array, magnitude: Float32Array): void {
  const up = (y - 1) * width * 3;
  const mid = y * width * 3;
  const down = (y + 1) * width * 3;
  for (let x = 1; x < width - 1; x++) {
    let bestX = 0;
    let bestY = 0;
    let best = -1;
    const l = (x - 1) * 3;
    const c = x * 3;
    const r = (x + 1) * 3;
    for (let k = 0; k < 3; k++) {
      const sx = (rgb[up + r + k]! + 2 * rgb[mid + r + k]! + rgb[down + r + k]! - rgb[up + l + k]! - 2 * rgb[mid + l + k]! - rgb[down + l + k]!) / 4;
      const sy = (rgb[down + l + k]! + 2 * rgb[down + c + k]! + rgb[down + r + k]! - rgb[up + l + k]! - 2 * rgb[up + c + k]! - rgb[up + r + k]!) / 4;
      const m = sx * sx + sy * sy;
      if (m > best) {
        best = m;
        bestX = sx;
        bestY = sy;
      }
    }
    const p = y * width + x;
    gx[p] = bestX;
    gy[p] = bestY;
    magnitude[p] = Math.sqrt(best);
  }
}

/**
 * What counts as an edge: well above the photo's typical texture (its 90th percentile of gradient), and at least a
 * step a camera tells apart from noise even between a white card and white paper (a faint shadow line).
 */
function edgeThreshold(search: SearchImage): number {
  const histogram = new Uint32Array(256);
  // One call per row: V8 optimises a hot function far better than a loop it entered on the stack (this one runs
  // once per photo, so it never had a compiled body of its own).
  const { width, magnitude } = search;
  for (let from = 0; from < magnitude.length; from += width) levelHistogramRow(magnitude, from, Math.min(magnitude.length, from + width), histogram);
  let seen = 0;
  const target = 0.9 * search.magnitude.length;
  let q90 = 255;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= target) {
      q90 = v;
      break;
    }
  }
  return Math.max(MIN_EDGE_STEP, Math.min(MAX_EDGE_STEP, q90));
}

/** Counts values [from, to) of `values` by the level they round to (255 and above counted at 255). */
function levelHistogramRow(values: Float32Array, from: number, to: number, histogram: Uint32Array): void {
  for (let i = from; i < to; i++) {
    const value = values[i]!;
    histogram[value < 255 ? Math.round(value) : 255]!++;
  }
}

/** Thinned edge pixels (local maxima across the edge) vote for the lines through them, near their own direction. */
function houghLines(search: SearchImage, threshold: number, formats: FormatSet): HoughLine[] {
  const { width, height } = search;
  const angles = Math.round(Math.PI / ANGLE_STEP);
  const diagonal = Math.ceil(Math.hypot(width, height));
  const rhoBins = 2 * diagonal + 1;
  const accumulator = new Uint32Array(angles * rhoBins);
  const cos = new Float64Array(angles);
  const sin = new Float64Array(angles);
  for (let a = 0; a < angles; a++) {
    cos[a] = Math.cos(a * ANGLE_STEP);
    sin[a] = Math.sin(a * ANGLE_STEP);
  }
  // One call per row (here and for the peaks below): V8 optimises a hot function far better than an inner loop it
  // entered on the stack, and leaving such a loop sent the rest of this function back to the interpreter.
  const bins: HoughBins = { angles, diagonal, rhoBins, cos, sin };
  for (let y = 2; y < height - 2; y++) voteRow(search, threshold, bins, y, accumulator);
  // A real side wanders a pixel either way along its length (a soft or JPEG-blocked edge, a card not quite flat): its
  // votes spread over neighbouring ρ bins, so a line's support counts half of theirs too.
  // Made in place, one angle's row at a time (the bin before is kept as it was), instead of in a second array of the
  // same size; the first and last ρ bins have no support.
  const support = accumulator;
  for (let a = 0; a < angles; a++) supportRow(support, a * rhoBins, rhoBins);
  // The shortest straight side of the smallest card we grade, in search pixels: lines with fewer votes are not sides.
  const minVotes = Math.max(12, Math.round((0.35 * narrowestWidthMm(formats) * MIN_PX_PER_MM) / search.factor));
  const peaks: HoughLine[] = [];
  for (let a = 0; a < angles; a++) peaksOfRow(support, bins, a, minVotes, peaks);
  peaks.sort((p, q) => q.votes - p.votes || p.theta - q.theta || p.rho - q.rho);
  return peaks.slice(0, MAX_LINES);
}

/** The Hough space: θ in `angles` bins of ANGLE_STEP (cos and sin of each), ρ in `rhoBins` bins offset by `diagonal`. */
interface HoughBins {
  angles: number;
  diagonal: number;
  rhoBins: number;
  cos: Float64Array;
  sin: Float64Array;
}

/** Row y's thinned edge pixels vote for the lines through them, near their own direction. */
function voteRow(search: SearchImage, threshold: number, { angles, diagonal, rhoBins, cos, sin }: HoughBins, y: number, accumulator: Uint32Array): void {
  const { width, gx, gy, magnitude } = search;
  for (let x = 2; x < width - 2; x++) {
    const p = y * width + x;
    const m = magnitude[p]!;
    if (m < threshold) continue;
    // Non-maximum suppression along the gradient: one pixel per edge.
    const ux = gx[p]! / m;
    const uy = gy[p]! / m;
    const ahead = magnitude[Math.round(y + uy) * width + Math.round(x + ux)]!;
    const behind = magnitude[Math.round(y - uy) * width + Math.round(x - ux)]!;
    if (m < ahead || m < behind) continue;
    let angle = Math.atan2(uy, ux);
    if (angle < 0) angle += Math.PI;
    const centre = Math.round(angle / ANGLE_STEP);
    for (let k = -ANGLE_SPREAD_BINS; k <= ANGLE_SPREAD_BINS; k++) {
      const a = (centre + k + angles) % angles;
      const rho = Math.round(x * cos[a]! + y * sin[a]!) + diagonal;
      accumulator[a * rhoBins + rho]!++;
    }
  }
}

/** Peaks are kept apart by a few bins only: a notebook's rulings lie a few millimetres from a card's side and parallel to it. */
const PEAK_ANGLE_WINDOW = 4;
const PEAK_RHO_WINDOW = 2;

/** The peaks at angle bin `a` (no stronger bin near them), added to `peaks` in order of ρ. */
function peaksOfRow(support: Uint32Array, { angles, diagonal, rhoBins, cos, sin }: HoughBins, a: number, minVotes: number, peaks: HoughLine[]): void {
  for (let r = 1; r < rhoBins - 1; r++) {
    const votes = support[a * rhoBins + r]!;
    if (votes < minVotes) continue;
    let isPeak = true;
    for (let da = -PEAK_ANGLE_WINDOW; da <= PEAK_ANGLE_WINDOW && isPeak; da++) {
      // Angles wrap: θ + π is the same line with ρ negated.
      let a2 = a + da;
      let r2base = r;
      if (a2 < 0) {
        a2 += angles;
        r2base = rhoBins - 1 - r;
      } else if (a2 >= angles) {
        a2 -= angles;
        r2base = rhoBins - 1 - r;
      }
      for (let dr = -PEAK_RHO_WINDOW; dr <= PEAK_RHO_WINDOW; dr++) {
        const r2 = r2base + dr;
        if (r2 < 0 || r2 >= rhoBins || (da === 0 && dr === 0)) continue;
        const other = support[a2 * rhoBins + r2]!;
        // Ties go to the earlier bin, so a flat top gives one peak.
        if (other > votes || (other === votes && (da < 0 || (da === 0 && dr < 0)))) {
          isPeak = false;
          break;
        }
      }
    }
    if (isPeak) peaks.push({ theta: a * ANGLE_STEP, rho: r - diagonal, votes, cos: cos[a]!, sin: sin[a]! });
  }
}

/** One angle's votes, in place, as each bin's own plus half its two neighbours'. */
function supportRow(votes: Uint32Array, row: number, rhoBins: number): void {
  const last = row + rhoBins - 1;
  let before = votes[row]!;
  votes[row] = 0;
  for (let r = row + 1; r < last; r++) {
    const own = votes[r]!;
    votes[r] = own + ((before + votes[r + 1]!) >> 1);
    before = own;
  }
  votes[last] = 0;
}

function angleBetween(a: number, b: number): number {
  const d = Math.abs(a - b) % Math.PI;
  return Math.min(d, Math.PI - d);
}

function intersect(a: HoughLine, b: HoughLine): Point | null {
  const { cos: ca, sin: sa } = a;
  const { cos: cb, sin: sb } = b;
  const det = ca * sb - sa * cb;
  if (Math.abs(det) < 1e-9) return null;
  return { x: (a.rho * sb - sa * b.rho) / det, y: (ca * b.rho - a.rho * cb) / det };
}

interface ScoredQuad {
  corners: Point[];
  score: number;
  area: number;
  /** Under MIN_PX_PER_MM: offered only as a thumbnail's card. */
  tooSmall: boolean;
}

/**
 * The quads most likely the card, most likely first: at most QUADS_OFFERED of those scoring near the best. The
 * caller takes the first whose sides it finds again on the full photo: a soft shadow's outer edge can make a larger
 * quad that scores as well as the card's own, and is not an edge once looked at closely. Beside them, the largest
 * card-shaped quad too coarse to grade that still spans THUMBNAIL_SPAN of the photo: a card in a thumbnail.
 */
function bestQuads(search: SearchImage, lines: HoughLine[], threshold: number, formats: FormatSet): { offered: Point[][]; thumbnailCard: Point[] | null } {
  const minShortSide = (narrowestWidthMm(formats) * MIN_PX_PER_MM) / search.factor;
  const minThumbnailSide = THUMBNAIL_SPAN * Math.min(search.width, search.height);
  const pairs: [HoughLine, HoughLine][] = [];
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const a = lines[i]!;
      const b = lines[j]!;
      if (angleBetween(a.theta, b.theta) > PARALLEL_TOLERANCE) continue;
      pairs.push([a, b]);
    }
  }
  const candidates: ScoredQuad[] = [];
  let thumbnailCard: ScoredQuad | null = null;
  // One call per pair of pairs: V8 optimises a hot function far better than an inner loop it entered on the stack.
  for (let i = 0; i < pairs.length; i++) {
    for (let j = i + 1; j < pairs.length; j++) {
      const candidate = scoredQuad(search, pairs[i]!, pairs[j]!, threshold, minShortSide, minThumbnailSide, formats);
      if (candidate === null) continue;
      if (!candidate.tooSmall) candidates.push(candidate);
      else if (thumbnailCard === null || candidate.area > thumbnailCard.area) thumbnailCard = candidate;
    }
  }
  const thumbnail = thumbnailCard === null ? null : orderUpright(thumbnailCard.corners);
  if (candidates.length === 0) return { offered: [], thumbnailCard: thumbnail };
  const best = Math.max(...candidates.map((c) => c.score));
  // One border colour all round first (a borderless or miscut card has none, and then the largest wins as before),
  // then the largest.
  const near = candidates.filter((c) => c.score >= NEAR_BEST * best).map((c) => ({ ...c, oneBorder: oneBorderAllRound(search, c.corners) }));
  near.sort((p, q) => Number(q.oneBorder) - Number(p.oneBorder) || q.area - p.area || q.score - p.score);
  // A soft edge (a shadow's) is a ramp a few pixels wide that gives a line at every step of it: quads that differ
  // by less than a millimetre at every corner are one.
  const offered: Point[][] = [];
  for (const { corners } of near) {
    const format = formatForAspect(aspectOfSides(corners), formats)!;
    const pxPerMm = Math.sqrt(polygonArea(corners) / (format.widthMm * format.heightMm));
    if (offered.every((quad) => farthestCorner(quad, corners) > pxPerMm)) offered.push(corners);
    if (offered.length === QUADS_OFFERED) break;
  }
  return { offered: offered.map(orderUpright), thumbnailCard: thumbnail };
}

/** The shorter over the longer of a quad's mean opposite sides, however its corners are numbered. */
function aspectOfSides(quad: readonly Point[]): number {
  const sides = [0, 1, 2, 3].map((k) => Math.hypot(quad[(k + 1) % 4]!.x - quad[k]!.x, quad[(k + 1) % 4]!.y - quad[k]!.y));
  const first = (sides[0]! + sides[2]!) / 2;
  const second = (sides[1]! + sides[3]!) / 2;
  return Math.min(first, second) / Math.max(first, second);
}

/** The largest distance between corresponding corners, however the two quads' corners are numbered. */
function farthestCorner(a: readonly Point[], b: readonly Point[]): number {
  // Each corner of a to the nearest of b: quads this alike pair their corners that way.
  return Math.max(...a.map((p) => Math.min(...b.map((q) => Math.hypot(p.x - q.x, p.y - q.y)))));
}

/** The quad two pairs of nearly parallel lines make, scored, when it is card-shaped and its sides are edges; else null. */
function scoredQuad(
  search: SearchImage,
  [a1, a2]: [HoughLine, HoughLine],
  [b1, b2]: [HoughLine, HoughLine],
  threshold: number,
  minShortSide: number,
  minThumbnailSide: number,
  formats: FormatSet,
): ScoredQuad | null {
  if (Math.abs(angleBetween(a1.theta, b1.theta) - Math.PI / 2) > PERPENDICULAR_TOLERANCE) return null;
  const corners = [intersect(a1, b1), intersect(b1, a2), intersect(a2, b2), intersect(b2, a1)];
  if (corners.some((c) => c === null)) return null;
  const quad = corners as Point[];
  if (!isConvex(quad)) return null;
  const sides = [0, 1, 2, 3].map((k) => Math.hypot(quad[(k + 1) % 4]!.x - quad[k]!.x, quad[(k + 1) % 4]!.y - quad[k]!.y));
  const first = (sides[0]! + sides[2]!) / 2;
  const second = (sides[1]! + sides[3]!) / 2;
  if (!isCardAspect(aspectOfSides(quad), formats)) return null;
  const tooSmall = Math.min(first, second) < minShortSide;
  if (tooSmall && Math.min(first, second) < minThumbnailSide) return null;
  const score = quadScore(search, quad, threshold);
  return score > 0 ? { corners: quad, score, area: polygonArea(quad), tooSmall } : null;
}

/** 0 when a side is not an edge; otherwise the sides' edge shares less their run-on, weighted by the colour step. */
function quadScore(search: SearchImage, quad: Point[], threshold: number): number {
  const centre = { x: quad.reduce((s, p) => s + p.x, 0) / 4, y: quad.reduce((s, p) => s + p.y, 0) / 4 };
  const sides = [0, 1, 2, 3].map((k) => {
    const a = quad[k]!;
    const b = quad[(k + 1) % 4]!;
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    const dx = (b.x - a.x) / length;
    const dy = (b.y - a.y) / length;
    // Normal pointing out of the card.
    const outward = (a.x - centre.x) * dy - (a.y - centre.y) * dx >= 0 ? 1 : -1;
    return { a, length, dx, dy, nx: outward * dy, ny: -outward * dx };
  });
  // Cheapest test first: most quads fail on one side's edge share, before any run-on or colour is read.
  let total = 0;
  for (const { a, length, dx, dy, nx, ny } of sides) {
    const along = edgeShare(search, a, dx, dy, nx, ny, length, SIDE_FROM, SIDE_TO, SIDE_SAMPLES, threshold);
    if (along < MIN_SIDE_SCORE) return 0;
    const before = edgeShare(search, a, dx, dy, nx, ny, length, -OVERSHOOT_TO, -OVERSHOOT_FROM, OVERSHOOT_SAMPLES, threshold);
    const after = edgeShare(search, a, dx, dy, nx, ny, length, 1 + OVERSHOOT_FROM, 1 + OVERSHOOT_TO, OVERSHOOT_SAMPLES, threshold);
    const sideScore = along - Math.max(before, after);
    if (sideScore < MIN_SIDE_SCORE) return 0;
    total += sideScore;
  }
  let steps = 0;
  for (const { a, length, dx, dy, nx, ny } of sides) steps += colourStep(search, a, dx, dy, nx, ny, length);
  return total * Math.min(1, 0.4 + (0.6 * steps) / 4 / FULL_STEP);
}

/**
 * Whether just inside the quad (2–3 search pixels in) is one border all round: along each side one colour (a strip
 * of art is not), and the same colour on all four sides.
 */
function oneBorderAllRound(search: SearchImage, quad: Point[]): boolean {
  const { width, height, rgb } = search;
  const centre = { x: quad.reduce((s, p) => s + p.x, 0) / 4, y: quad.reduce((s, p) => s + p.y, 0) / 4 };
  const means: number[][] = [];
  // The samples of one side, RGB after RGB: two depths at each place along it.
  const samples = new Float64Array(SIDE_SAMPLES * 2 * 3);
  for (let k = 0; k < 4; k++) {
    const a = quad[k]!;
    const b = quad[(k + 1) % 4]!;
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    const dx = (b.x - a.x) / length;
    const dy = (b.y - a.y) / length;
    // Normal pointing into the quad.
    const inward = (centre.x - a.x) * -dy + (centre.y - a.y) * dx >= 0 ? 1 : -1;
    const nx = -dy * inward;
    const ny = dx * inward;
    let count = 0;
    for (let s = 0; s < SIDE_SAMPLES; s++) {
      const t = SIDE_FROM + ((SIDE_TO - SIDE_FROM) * (s + 0.5)) / SIDE_SAMPLES;
      for (let o = 2; o <= 3; o++) {
        const x = Math.round(a.x + dx * length * t + nx * o);
        const y = Math.round(a.y + dy * length * t + ny * o);
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        const i = (y * width + x) * 3;
        samples[count * 3] = rgb[i]!;
        samples[count * 3 + 1] = rgb[i + 1]!;
        samples[count * 3 + 2] = rgb[i + 2]!;
        count++;
      }
    }
    if (count === 0) return false;
    const mean = [0, 0, 0];
    for (let c = 0; c < 3; c++) {
      let sum = 0;
      for (let n = 0; n < count; n++) sum += samples[n * 3 + c]!;
      mean[c] = sum / count;
    }
    let spread = 0;
    for (let n = 0; n < count; n++) spread += Math.hypot(samples[n * 3]! - mean[0]!, samples[n * 3 + 1]! - mean[1]!, samples[n * 3 + 2]! - mean[2]!);
    if (spread / count > BORDER_SPREAD) return false;
    means.push(mean);
  }
  for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) if (rgbDistance(means[i]!, means[j]!) > BORDER_AGREEMENT) return false;
  return true;
}

/** Share of the points between shares `from` and `to` of the side where an edge crosses it (within ±1.5 px). */
function edgeShare(search: SearchImage, a: Point, dx: number, dy: number, nx: number, ny: number, length: number, from: number, to: number, samples: number, threshold: number): number {
  const { width, height, gx, gy, magnitude } = search;
  let hits = 0;
  let counted = 0;
  for (let s = 0; s < samples; s++) {
    const t = from + ((to - from) * (s + 0.5)) / samples;
    const px = a.x + dx * length * t;
    const py = a.y + dy * length * t;
    let found = false;
    let inside = false;
    for (let o = -1.5; o <= 1.5 && !found; o += 0.5) {
      const x = Math.round(px + nx * o);
      const y = Math.round(py + ny * o);
      if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) continue;
      inside = true;
      const p = y * width + x;
      const m = magnitude[p]!;
      if (m < threshold) continue;
      if (Math.abs(gx[p]! * nx + gy[p]! * ny) >= ACROSS_COS * m) found = true;
    }
    if (!inside) continue;
    counted++;
    if (found) hits++;
  }
  return counted === 0 ? 0 : hits / counted;
}

/** Mean colour difference between a band just outside the side and one just inside it (2–4 search pixels away). */
function colourStep(search: SearchImage, a: Point, dx: number, dy: number, nx: number, ny: number, length: number): number {
  const { width, height, rgb } = search;
  let sum = 0;
  let counted = 0;
  for (let s = 0; s < SIDE_SAMPLES; s += 2) {
    const t = SIDE_FROM + ((SIDE_TO - SIDE_FROM) * (s + 0.5)) / SIDE_SAMPLES;
    const px = a.x + dx * length * t;
    const py = a.y + dy * length * t;
    let red = 0;
    let green = 0;
    let blue = 0;
    let inPhoto = true;
    for (let o = 2; o <= 4; o++) {
      const xo = Math.round(px + nx * o);
      const yo = Math.round(py + ny * o);
      const xi = Math.round(px - nx * o);
      const yi = Math.round(py - ny * o);
      if (xo < 0 || yo < 0 || xo >= width || yo >= height || xi < 0 || yi < 0 || xi >= width || yi >= height) {
        inPhoto = false;
        break;
      }
      const outside = (yo * width + xo) * 3;
      const inside = (yi * width + xi) * 3;
      red += rgb[outside]! - rgb[inside]!;
      green += rgb[outside + 1]! - rgb[inside + 1]!;
      blue += rgb[outside + 2]! - rgb[inside + 2]!;
    }
    if (!inPhoto) continue;
    sum += (Math.abs(red) + Math.abs(green) + Math.abs(blue)) / 9;
    counted++;
  }
  return counted === 0 ? 0 : sum / counted;
}

/** How far either side of a Hough line its edge pixels are looked for: the line is as coarse as its bins. */
const FIT_REACH = 4;

/**
 * Each side fitted again to the edge pixels along it (a Hough line is only as fine as its bins), and the corners
 * taken where the fitted sides meet.
 */
function fitSides(search: SearchImage, quad: Point[], threshold: number): Point[] | null {
  const lines: Line[] = [];
  for (let k = 0; k < 4; k++) {
    const a = quad[k]!;
    const b = quad[(k + 1) % 4]!;
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    const dx = (b.x - a.x) / length;
    const dy = (b.y - a.y) / length;
    const nx = dy;
    const ny = -dx;
    const xs: number[] = [];
    const ys: number[] = [];
    const samples = Math.max(SIDE_SAMPLES, Math.round(length / 2));
    for (let s = 0; s < samples; s++) {
      const t = SIDE_FROM + ((SIDE_TO - SIDE_FROM) * (s + 0.5)) / samples;
      const px = a.x + dx * length * t;
      const py = a.y + dy * length * t;
      const offset = edgeOffset(search, px, py, nx, ny, threshold);
      if (offset === null) continue;
      xs.push(px + nx * offset);
      ys.push(py + ny * offset);
    }
    const line = xs.length < 8 ? null : fitLineRobust(xs, ys, 0.5);
    if (line === null) return null;
    lines.push(line);
  }
  const corners = [0, 1, 2, 3].map((k) => intersectLines(lines[(k + 3) % 4]!, lines[k]!));
  if (corners.some((c) => c === null)) return null;
  return orderUpright(corners as Point[]);
}

/**
 * Where across (x, y), within FIT_REACH along the normal (nx, ny), the gradient across the side is strongest (the
 * first such offset), or null when it nowhere reaches the threshold. A function of its own: V8 optimises a hot
 * function far better than an inner loop it entered on the stack.
 */
function edgeOffset(search: SearchImage, x: number, y: number, nx: number, ny: number, threshold: number): number | null {
  const { width, height, gx, gy, magnitude } = search;
  let best = 0;
  let bestOffset = 0;
  for (let o = -FIT_REACH; o <= FIT_REACH; o += 0.5) {
    const px = Math.round(x + nx * o);
    const py = Math.round(y + ny * o);
    if (px < 1 || py < 1 || px >= width - 1 || py >= height - 1) continue;
    const p = py * width + px;
    const across = Math.abs(gx[p]! * nx + gy[p]! * ny);
    if (across > best && across >= ACROSS_COS * magnitude[p]!) {
      best = across;
      bestOffset = o;
    }
  }
  return best < threshold ? null : bestOffset;
}

/**
 * Corners clockwise from the card's top-left with the card upright: its long axis is its height, and "down" is the
 * long-axis direction closest to the photo's own down.
 */
function orderUpright(quad: Point[]): Point[] {
  const centre = { x: quad.reduce((s, p) => s + p.x, 0) / 4, y: quad.reduce((s, p) => s + p.y, 0) / 4 };
  // Long axis: from the middle of one short side to the middle of the other.
  const sides = [0, 1, 2, 3].map((k) => Math.hypot(quad[(k + 1) % 4]!.x - quad[k]!.x, quad[(k + 1) % 4]!.y - quad[k]!.y));
  const shortFirst = sides[0]! + sides[2]! < sides[1]! + sides[3]! ? 0 : 1;
  const m1 = mid(quad[shortFirst]!, quad[shortFirst + 1]!);
  const m2 = mid(quad[shortFirst + 2]!, quad[(shortFirst + 3) % 4]!);
  let downX = m2.x - m1.x;
  let downY = m2.y - m1.y;
  if (downY < 0 || (downY === 0 && downX < 0)) {
    downX = -downX;
    downY = -downY;
  }
  const rightX = downY;
  const rightY = -downX;
  const corner = (wantRight: number, wantDown: number) =>
    quad.reduce((best, p) => {
      const score = (p.x - centre.x) * (rightX * wantRight) + (p.y - centre.y) * (rightY * wantRight) + (p.x - centre.x) * (downX * wantDown) + (p.y - centre.y) * (downY * wantDown);
      const bestScore = (best.x - centre.x) * (rightX * wantRight) + (best.y - centre.y) * (rightY * wantRight) + (best.x - centre.x) * (downX * wantDown) + (best.y - centre.y) * (downY * wantDown);
      return score > bestScore ? p : best;
    });
  return [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)];
}

function mid(a: Point, b: Point): Point {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}
