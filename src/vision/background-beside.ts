import type { CardSize } from './card-formats.ts';
import type { EdgeName } from '../contracts/measurement.ts';
import type { FlatCard } from './flatten.ts';
import { mmToPx } from './flatten.ts';
import { median } from './geometry.ts';
import { sampleRgb } from './image.ts';
import { RIM_BAND_OUTSIDE_MM, RIM_EDGE_BAND_OUTSIDE_MM } from './rim.ts';

/**
 * The background beside the card, which the rim's outline profiles measure the card against, is read from this far
 * outside the outline (clear of the pixels the photo blends with the card, as the profiles' own start is)...
 */
const FROM_MM = 0.35;
/**
 * ...out to the rim warp's margin: beside a straight edge to 1.5 mm, so a ruling that runs along the edge (a card
 * turned a degree or less on the paper) is still a minority of a band 1.15 mm across; beside a corner only to 0.75 mm,
 * where the band bends round the card and what lies further out (a sleeve's corner, a shadow) is not what the
 * corner is seen against.
 */
const CORNER_TO_MM = RIM_BAND_OUTSIDE_MM;
const EDGE_TO_MM = RIM_EDGE_BAND_OUTSIDE_MM;
/**
 * ...over this length of outline either way, and it is the median of all those samples, channel by channel. Notebook
 * paper is ruled with thin lines (a 0.2 mm blue line every 7 mm, about as light as a silver border): one lying just
 * outside the card's edge fills a single profile's few samples of background, which then reads as the card's own
 * colour, and the paper between line and card as a lighter rim (whitening) or the card's start (its edge moved out,
 * so the truly straight stretches beside it read as nicks). Over a band 8 mm along, such a line is a minority of the
 * samples and their median is the paper's. Light changes little over 8 mm of a photo.
 */
const ALONG_HALF_MM = 4;
const ALONG_STEP_MM = 0.25;
const ACROSS_STEP_MM = 0.1;
/** An edge's background is worked out every this many mm and taken from the nearest: it changes slowly. */
const EDGE_KNOT_MM = 1;

/** A point of the card's outline (mm on the card) and its inward normal. */
interface OutlinePoint {
  x: number;
  y: number;
  nx: number;
  ny: number;
}

/** The background beside a corner's outline points: the channel-wise median of the band outside them (RGB). */
export function backgroundBeside(flat: FlatCard, points: readonly OutlinePoint[], toMm = CORNER_TO_MM): Float64Array {
  const depths = Math.floor((toMm - FROM_MM) / ACROSS_STEP_MM + 1e-9) + 1;
  const channels = [0, 1, 2].map(() => new Float64Array(points.length * depths));
  const colour = new Float64Array(3);
  let n = 0;
  for (const point of points) {
    for (let k = 0; k < depths; k++) {
      const t = -(FROM_MM + k * ACROSS_STEP_MM);
      sampleRgb(flat, mmToPx(flat, point.x + point.nx * t), mmToPx(flat, point.y + point.ny * t), colour);
      for (let c = 0; c < 3; c++) channels[c]![n] = colour[c]!;
      n++;
    }
  }
  return Float64Array.from(channels, (values) => median(values));
}

/**
 * The background beside a straight edge at each of `positions` places along it (mm from the edge's start, as the
 * edge's profiles are laid out): three values (RGB) a position. The band is sampled once along the whole edge and
 * each knot's median read from a window of it kept sorted as it slides: neighbouring knots share 7/8 of their
 * samples, and sorting each knot's afresh was most of the rim's time.
 */
export function backgroundsAlongEdge(flat: FlatCard, edge: EdgeName, alongMm: Float64Array): Float64Array {
  const lengthMm = edge === 'top' || edge === 'bottom' ? flat.widthMm : flat.heightMm;
  const depths = Math.floor((EDGE_TO_MM - FROM_MM) / ACROSS_STEP_MM + 1e-9) + 1;
  const positions = Math.floor(lengthMm / ALONG_STEP_MM + 1e-9) + 1;
  const band = [0, 1, 2].map(() => new Float64Array(positions * depths));
  const colour = new Float64Array(3);
  for (let i = 0; i < positions; i++) {
    const point = edgePoint(flat, edge, i * ALONG_STEP_MM);
    for (let k = 0; k < depths; k++) {
      const t = -(FROM_MM + k * ACROSS_STEP_MM);
      sampleRgb(flat, mmToPx(flat, point.x + point.nx * t), mmToPx(flat, point.y + point.ny * t), colour);
      for (let c = 0; c < 3; c++) band[c]![i * depths + k] = colour[c]!;
    }
  }
  const windows = band.map(() => new SortedWindow(positions * depths));
  const knots: Float64Array[] = [];
  // Positions [first, last] are in the windows; each knot's reach ALONG_HALF_MM either way, within the edge.
  let first = 0;
  let last = -1;
  for (let at = 0; at <= lengthMm + 1e-9; at += EDGE_KNOT_MM) {
    const from = Math.ceil(Math.max(0, at - ALONG_HALF_MM) / ALONG_STEP_MM - 1e-9);
    const to = Math.floor((Math.min(lengthMm, at + ALONG_HALF_MM) + 1e-9) / ALONG_STEP_MM);
    for (; last < to; last++) for (let c = 0; c < 3; c++) windows[c]!.addAll(band[c]!, (last + 1) * depths, depths);
    for (; first < from; first++) for (let c = 0; c < 3; c++) windows[c]!.removeAll(band[c]!, first * depths, depths);
    knots.push(Float64Array.from(windows, (window) => window.median()));
  }
  const out = new Float64Array(alongMm.length * 3);
  for (let n = 0; n < alongMm.length; n++) {
    const knot = knots[Math.max(0, Math.min(knots.length - 1, Math.round(alongMm[n]! / EDGE_KNOT_MM)))]!;
    out.set(knot, n * 3);
  }
  return out;
}

/** Values kept in ascending order as they come and go; its median is `median()`'s of the same values. */
class SortedWindow {
  private readonly values: Float64Array;
  private size = 0;

  constructor(capacity: number) {
    this.values = new Float64Array(capacity);
  }

  addAll(source: Float64Array, from: number, count: number): void {
    for (let i = from; i < from + count; i++) {
      const value = source[i]!;
      const at = this.firstAbove(value);
      this.values.copyWithin(at + 1, at, this.size);
      this.values[at] = value;
      this.size++;
    }
  }

  /** Each value must be in the window (it was added from the same source). */
  removeAll(source: Float64Array, from: number, count: number): void {
    for (let i = from; i < from + count; i++) {
      const at = this.firstAbove(source[i]!) - 1;
      this.values.copyWithin(at, at + 1, this.size);
      this.size--;
    }
  }

  median(): number {
    const mid = this.size >> 1;
    return this.size % 2 === 1 ? this.values[mid]! : (this.values[mid - 1]! + this.values[mid]!) / 2;
  }

  /** The index of the first value greater than `value` (the end when none is). */
  private firstAbove(value: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.values[mid]! <= value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** The point `s` mm along a straight edge of a card of `size` (left to right, top to bottom) and its inward normal. */
function edgePoint(size: CardSize, edge: EdgeName, s: number): OutlinePoint {
  switch (edge) {
    case 'top':
      return { x: s, y: 0, nx: 0, ny: 1 };
    case 'bottom':
      return { x: s, y: size.heightMm, nx: 0, ny: -1 };
    case 'left':
      return { x: 0, y: s, nx: 1, ny: 0 };
    case 'right':
      return { x: size.widthMm, y: s, nx: -1, ny: 0 };
  }
}
