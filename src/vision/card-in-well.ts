import type { Point } from '../contracts/measurement.ts';
import { formatOfQuad, isCardAspect, quadAspect } from './card-formats.ts';
import type { FormatSet } from './card-formats.ts';
import { cardPxPerMm, fitLineRobust, intersectLines, isConvex, quantile } from './geometry.ts';
import type { Line } from './geometry.ts';
import { luma } from './image.ts';
import type { DecodedImage } from './image.ts';
import { openMask } from './mask-morphology.ts';
import { growRegion } from './regions.ts';

// A card in a slab whose outline search stopped at the holder: every card-shaped outline offered inside it was the
// holder's own (its wall, the inner frame, the well's rim), none the card's. In a grader's slab the card lies on a dark
// insert, the well's floor, which shows all round it: the card is then the light patch the well's floor surrounds,
// found as a region, not as lines, and its sides fitted to that region's edges.

/** The region is looked for on a grid of about this many cells per millimetre: fine enough for a 1 mm floor. */
const GRID_PER_MM = 2;
/**
 * The well's floor is the darkest part inside the holder, and about this share of it (a 63 × 88 mm card in a well
 * 2 mm larger all round leaves 9% of it floor): its level is read at this quantile of the grid's luma.
 */
const FLOOR_SHARE = 0.08;
/**
 * The floor is a dark insert: its level at most this (luma, 0–255, after exposure is normalised; PSA's black inserts
 * read 5 to 25, and a floor thinner than FLOOR_SHARE reads higher, its quantile taking in the card's edge). Inside a
 * raw card, or a slab with a clear well over a light table (100 and more), the darkest part is print or plastic, not a
 * floor, and nothing is looked for.
 */
const MAX_FLOOR_LUMA = 80;
/** The card is lighter than the floor by at least this many luma levels (a black-bordered card is not found so). */
const CARD_OVER_FLOOR = 30;
/** Light specks and thin ridges (a glint on the plastic, the well's lip) narrower than this are not the card. */
const THIN_MM = 1;
/** The card fills at least this share of the holder's outline on both axes, and is centred within MAX_OFF_CENTRE. */
const MIN_SHARE = 0.6;
const MAX_OFF_CENTRE = 0.12;
/** The share of the grid's size along its rim where the well's floor is looked for first. */
const RIM_BAND = 0.04;
/** Each side is fitted on the region's edge along this middle share of it (clear of the rounded corners). */
const SIDE_MIDDLE = 0.7;

/** The card inside `holder` (an outline of a slab's frame or wall) as the light region its well's floor surrounds, or null. */
export function cardInDarkWell(image: DecodedImage, holder: readonly Point[], formats: FormatSet): Point[] | null {
  const pxPerMm = cardPxPerMm(holder, formatOfQuad(holder, formats));
  const step = Math.max(1, Math.round(pxPerMm / GRID_PER_MM));
  const xs = holder.map((p) => p.x);
  const ys = holder.map((p) => p.y);
  const x0 = Math.max(0, Math.ceil(Math.min(...xs)));
  const y0 = Math.max(0, Math.ceil(Math.min(...ys)));
  const x1 = Math.min(image.width - 1, Math.floor(Math.max(...xs)));
  const y1 = Math.min(image.height - 1, Math.floor(Math.max(...ys)));
  const width = Math.floor((x1 - x0) / step);
  const height = Math.floor((y1 - y0) / step);
  if (width < 8 || height < 8) return null;
  // Each cell the mean of its block: a holder's textured plastic averages to its mid grey, not light and dark specks.
  const grid = new Float32Array(width * height);
  for (let gy = 0; gy < height; gy++) {
    for (let gx = 0; gx < width; gx++) {
      let sum = 0;
      for (let y = y0 + gy * step; y < y0 + (gy + 1) * step; y++) {
        for (let x = x0 + gx * step, i = (y * image.width + x) * 3; x < x0 + (gx + 1) * step; x++, i += 3) sum += luma(image.data[i]!, image.data[i + 1]!, image.data[i + 2]!);
      }
      grid[gy * width + gx] = sum / (step * step);
    }
  }
  const floor = quantile(grid.slice(), FLOOR_SHARE);
  if (floor > MAX_FLOOR_LUMA) return null;
  const light = new Uint8Array(width * height);
  for (let i = 0; i < grid.length; i++) light[i] = grid[i]! > floor + CARD_OVER_FLOOR ? 1 : 0;
  // Everything the floor does not reach from the holder's rim: the card with its dark art (a dark full-art card is
  // light only at its edge, and that ring is enough), less thin ridges joining it to the plastic.
  const mask = openMask(notReachedFromRim(light, width, height), width, height, Math.max(1, Math.round((THIN_MM * GRID_PER_MM) / 2)));
  const region = centralRegion(mask, width, height);
  if (region === null) return null;
  const lines = fitSides(region, width, height);
  if (lines === null) return null;
  const corners = [0, 1, 2, 3].map((k) => intersectLines(lines[(k + 3) % 4]!, lines[k]!));
  if (corners.some((c) => c === null)) return null;
  const quad = (corners as Point[]).map((p) => ({ x: x0 + p.x * step, y: y0 + p.y * step }));
  if (!isConvex(quad) || !isCardAspect(quadAspect(quad), formats)) return null;
  const holderWidth = x1 - x0;
  const holderHeight = y1 - y0;
  const qx = quad.map((p) => p.x);
  const qy = quad.map((p) => p.y);
  const quadWidth = Math.max(...qx) - Math.min(...qx);
  const quadHeight = Math.max(...qy) - Math.min(...qy);
  if (quadWidth < MIN_SHARE * holderWidth || quadHeight < MIN_SHARE * holderHeight) return null;
  const offX = Math.abs((Math.max(...qx) + Math.min(...qx)) / 2 - (x0 + x1) / 2);
  const offY = Math.abs((Math.max(...qy) + Math.min(...qy)) / 2 - (y0 + y1) / 2);
  if (offX > MAX_OFF_CENTRE * holderWidth || offY > MAX_OFF_CENTRE * holderHeight) return null;
  return quad;
}

/**
 * The cells not reached through dark (0) cells from the dark cells of the grid's rim band, set to 1. The band is
 * RIM_BAND of the grid's size: the holder's wall and the well's floor lie there, the card (centred, 7% of the
 * holder's width in from its wall) does not.
 */
function notReachedFromRim(light: Uint8Array, width: number, height: number): Uint8Array {
  const reached = new Uint8Array(width * height);
  const members = new Int32Array(width * height);
  const isDark = (cell: number) => light[cell] === 0;
  const bandX = Math.max(1, Math.round(RIM_BAND * width));
  const bandY = Math.max(1, Math.round(RIM_BAND * height));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inBand = x < bandX || y < bandY || x >= width - bandX || y >= height - bandY;
      const cell = y * width + x;
      if (inBand && isDark(cell) && !reached[cell]) growRegion(cell, width, height, 4, isDark, null, reached, members);
    }
  }
  const inside = new Uint8Array(width * height);
  for (let i = 0; i < inside.length; i++) inside[i] = reached[i] && isDark(i) ? 0 : 1;
  return inside;
}

/** The light region over the grid's centre that does not reach the grid's edge (the floor is all round it), as a mask. */
function centralRegion(mask: Uint8Array, width: number, height: number): Uint8Array | null {
  const visited = new Uint8Array(width * height);
  const members = new Int32Array(width * height);
  // The largest region that covers a cell of the middle third: the card's centre may be dark art.
  let best: { size: number; cells: Int32Array } | null = null;
  for (let gy = Math.floor(height / 3); gy < Math.ceil((2 * height) / 3); gy++) {
    for (let gx = Math.floor(width / 3); gx < Math.ceil((2 * width) / 3); gx++) {
      const start = gy * width + gx;
      if (!mask[start] || visited[start]) continue;
      const size = growRegion(start, width, height, 4, (pixel) => mask[pixel] === 1, null, visited, members);
      if (best === null || size > best.size) best = { size, cells: members.slice(0, size) };
    }
  }
  if (best === null) return null;
  const region = new Uint8Array(width * height);
  for (const cell of best.cells) {
    const x = cell % width;
    const y = (cell - x) / width;
    if (x === 0 || y === 0 || x === width - 1 || y === height - 1) return null;
    region[cell] = 1;
  }
  return region;
}

/** Lines along the region's four edges (top, right, bottom, left, in the grid's cells), from its outermost cells. */
function fitSides(region: Uint8Array, width: number, height: number): Line[] | null {
  let top = height;
  let bottom = -1;
  let left = width;
  let right = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!region[y * width + x]) continue;
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
      left = Math.min(left, x);
      right = Math.max(right, x);
    }
  }
  if (bottom - top < 8 || right - left < 8) return null;
  const middle = (from: number, to: number) => {
    const margin = ((1 - SIDE_MIDDLE) / 2) * (to - from);
    return [Math.ceil(from + margin), Math.floor(to - margin)] as const;
  };
  const [rowFrom, rowTo] = middle(top, bottom);
  const [colFrom, colTo] = middle(left, right);
  const edge = (points: Array<[number, number]>) => fitLineRobust(points.map((p) => p[0]), points.map((p) => p[1]), 0.5);
  const tops: Array<[number, number]> = [];
  const bottoms: Array<[number, number]> = [];
  for (let x = colFrom; x <= colTo; x++) {
    let first = -1;
    let last = -1;
    for (let y = 0; y < height; y++) {
      if (!region[y * width + x]) continue;
      if (first < 0) first = y;
      last = y;
    }
    if (first >= 0) {
      tops.push([x, first - 0.5]);
      bottoms.push([x, last + 0.5]);
    }
  }
  const lefts: Array<[number, number]> = [];
  const rights: Array<[number, number]> = [];
  for (let y = rowFrom; y <= rowTo; y++) {
    let first = -1;
    let last = -1;
    for (let x = 0; x < width; x++) {
      if (!region[y * width + x]) continue;
      if (first < 0) first = x;
      last = x;
    }
    if (first >= 0) {
      lefts.push([first - 0.5, y]);
      rights.push([last + 0.5, y]);
    }
  }
  const lines = [edge(tops), edge(rights), edge(bottoms), edge(lefts)];
  return lines.some((line) => line === null) ? null : (lines as Line[]);
}
