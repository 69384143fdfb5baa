import type { Point } from '../contracts/measurement.ts';
import { CARD_FORMATS, formatOfQuad, isCardAspect, quadAspect } from './card-formats.ts';
import type { FormatSet } from './card-formats.ts';
import { cardPxPerMm, distance, fitLineRobust, intersectLines, isConvex, quadSide } from './geometry.ts';
import type { Line } from './geometry.ts';
import { rgbDistance, sampleRgb } from './image.ts';
import type { DecodedImage } from './image.ts';

// A card's side is where the card's own colour meets the background: its border on one side along its whole length,
// the table or paper on the other. A line found inside the card (the art's frame, the top of the art window, a line
// pieced together from a notebook's ruling and the card's faint edge) has the card's border outside it instead. On a
// silver or pale border against lined paper the card's edge is a weak line next to a strong ruling, and the lines
// found for it can be the art's: a quad 3 mm short at that side is still card-shaped (88 − 3 mm against 63 is within
// the aspect's tolerance), its border there is not measured, and its corners can read as 2 mm of fray. Such a side
// is moved out to the outermost place where the border colour meets the background.

/** The ring just inside a side, and the band just outside it, are read between these distances from it (mm). */
const RING_FROM_MM = 0.4;
const RING_TO_MM = 0.9;
/**
 * A side is looked past for as far as the widest border a trading card has (about 4 mm on vintage Pokémon cards)
 * and a little more; the background is read in the last millimetre of that reach.
 */
const BORDER_REACH_MM = 5;
const BACKGROUND_BAND_MM = 1;
/**
 * Below this colour distance (RGB levels) between the card's border and the background, the border's end cannot be
 * told from the photo's noise and a JPEG's blocks (a white border on white paper): nothing is moved.
 */
const MIN_BORDER_CONTRAST = 15;
/** Two sides show the same border colour within this (shading across the card, a little print, the photo's noise). */
const BORDER_AGREEMENT = 30;
/** Profiles read along the straight middle of each side (clear of the rounded corners). */
const SIDE_FROM = 0.15;
const SIDE_TO = 0.85;
const PROFILES = 48;
/** The card's edge must be seen on this share of a side's profiles for the side to move. */
const MIN_SEEN_SHARE = 0.6;

interface SideReading {
  /** From the quad's corner `k` to corner `k + 1`, and the outward normal. */
  a: Point;
  b: Point;
  nx: number;
  ny: number;
  /** Per profile, colours every pixel from the side (index 0) outwards; and the mean colour of the ring inside. */
  outward: Float64Array[];
  inside: [number, number, number];
  outside: [number, number, number];
  background: [number, number, number];
}

/**
 * The quad with any side that lies inside the card moved out to the card's edge: a side whose band just outside is
 * the card's border colour (as the ring just inside the other sides shows it) while its own inside is not (it is the
 * art), and whose border ends in the background within BORDER_REACH_MM. The quad returned is still card-shaped, or
 * the one given is returned unchanged.
 */
export function outermostSides(image: DecodedImage, quad: Point[], formats: FormatSet): Point[] {
  const pxPerMm = cardPxPerMm(quad, formatOfQuad(quad, formats));
  const sides = [0, 1, 2, 3].map((k) => readSide(image, quad, k, pxPerMm));
  const lines = sides.map((side) => lineThrough(side.a, side.b));
  const border = borderColourOf(sides);
  if (border === null) return quad;
  let moved = false;
  for (let k = 0; k < 4; k++) {
    const side = sides[k]!;
    const contrast = rgbDistance(border, side.background);
    if (contrast < MIN_BORDER_CONTRAST) continue;
    // Outside: the border (closer to it than half its distance from the background). Inside: not the border.
    if (rgbDistance(side.outside, border) > 0.5 * contrast) continue;
    if (rgbDistance(side.inside, border) < Math.max(MIN_BORDER_CONTRAST, 0.5 * contrast)) continue;
    const line = edgeBeyond(side, border, pxPerMm);
    if (line === null) continue;
    lines[k] = line;
    moved = true;
  }
  if (!moved) return quad;
  const corners = [0, 1, 2, 3].map((k) => intersectLines(lines[(k + 3) % 4]!, lines[k]!));
  if (corners.some((c) => c === null)) return quad;
  const outer = corners as Point[];
  // The card found by its border's outer edge may be of any format, whichever the search was for: a vintage card's
  // print frame with its cut's other sides can have a 63 × 88 mm shape, and the card round it then has its own.
  if (!isConvex(outer) || !isCardAspect(quadAspect(outer), CARD_FORMATS)) return quad;
  return outer;
}

function readSide(image: DecodedImage, quad: readonly Point[], k: number, pxPerMm: number): SideReading {
  const { a, b, dx, dy, nx, ny } = quadSide(quad, k);
  const ringFrom = Math.max(1, Math.round(RING_FROM_MM * pxPerMm));
  const ringTo = Math.max(ringFrom + 1, Math.round(RING_TO_MM * pxPerMm));
  const reach = Math.round(BORDER_REACH_MM * pxPerMm);
  const backgroundFrom = reach - Math.max(2, Math.round(BACKGROUND_BAND_MM * pxPerMm));
  const colour = new Float64Array(3);
  const sample = (x: number, y: number, into: Float64Array, at: number) => {
    // Three parallel lanes averaged: less noise, still sharp across the edge.
    let r = 0;
    let g = 0;
    let bl = 0;
    for (let lane = -1; lane <= 1; lane++) {
      sampleRgb(image, x + dx * lane, y + dy * lane, colour);
      r += colour[0]!;
      g += colour[1]!;
      bl += colour[2]!;
    }
    into[at] = r / 3;
    into[at + 1] = g / 3;
    into[at + 2] = bl / 3;
  };
  const outward: Float64Array[] = [];
  const insides: number[][] = [];
  const outsides: number[][] = [];
  const backgrounds: number[][] = [];
  for (let i = 0; i < PROFILES; i++) {
    const t = SIDE_FROM + ((SIDE_TO - SIDE_FROM) * (i + 0.5)) / PROFILES;
    const px = a.x + (b.x - a.x) * t;
    const py = a.y + (b.y - a.y) * t;
    const profile = new Float64Array((reach + 1) * 3);
    for (let o = 0; o <= reach; o++) sample(px + nx * o, py + ny * o, profile, o * 3);
    outward.push(profile);
    outsides.push(meanOver(profile, ringFrom, ringTo));
    backgrounds.push(meanOver(profile, backgroundFrom, reach));
    const inner = new Float64Array((ringTo + 1) * 3);
    for (let o = ringFrom; o <= ringTo; o++) sample(px - nx * o, py - ny * o, inner, o * 3);
    insides.push(meanOver(inner, ringFrom, ringTo));
  }
  return { a, b, nx, ny, outward, inside: medianColour(insides), outside: medianColour(outsides), background: medianColour(backgrounds) };
}

/**
 * The card's border colour: the colour just inside a side that the most other sides (at least two) show too, inside
 * them (they are the card's edge) or just outside them (they lie on the art, inside the border); on a tie, the one
 * more sides show inside, so a quad already on the card's edges stays. A quad whose sides share no colour (a
 * borderless card, or one found on the art all round) has none, and nothing is moved.
 */
function borderColourOf(sides: readonly SideReading[]): [number, number, number] | null {
  let best: { colour: readonly number[]; shown: number; inside: number } | null = null;
  for (const side of sides) {
    const others = sides.filter((other) => other !== side);
    const inside = others.filter((other) => rgbDistance(other.inside, side.inside) <= BORDER_AGREEMENT).length;
    const shown = others.filter((other) => rgbDistance(other.inside, side.inside) <= BORDER_AGREEMENT || rgbDistance(other.outside, side.inside) <= BORDER_AGREEMENT).length;
    if (shown < 2) continue;
    if (best === null || shown > best.shown || (shown === best.shown && inside > best.inside)) best = { colour: side.inside, shown, inside };
  }
  if (best === null) return null;
  // The sides showing it inside: their median, so one side's shading does not decide it.
  return medianColour(sides.map((side) => side.inside).filter((colour) => rgbDistance(colour, best.colour) <= BORDER_AGREEMENT));
}

/**
 * The line where the border, running outwards from the side, meets the background: on each profile the first place
 * where the colour, projected on the way from the border's colour to the background's, is past half way (linearly
 * interpolated between pixels). A profile that does not start in the border, or never leaves it, is not used.
 */
function edgeBeyond(side: SideReading, border: readonly number[], pxPerMm: number): Line | null {
  const background = side.background;
  const axis = [background[0]! - border[0]!, background[1]! - border[1]!, background[2]! - border[2]!];
  const norm = axis[0]! ** 2 + axis[1]! ** 2 + axis[2]! ** 2;
  const start = Math.max(1, Math.round(RING_FROM_MM * pxPerMm));
  const xs: number[] = [];
  const ys: number[] = [];
  side.outward.forEach((profile, i) => {
    const length = profile.length / 3;
    const level = (o: number) => ((profile[o * 3]! - border[0]!) * axis[0]! + (profile[o * 3 + 1]! - border[1]!) * axis[1]! + (profile[o * 3 + 2]! - border[2]!) * axis[2]!) / norm;
    if (level(start) >= 0.5) return;
    for (let o = start + 1; o < length; o++) {
      const here = level(o);
      if (here < 0.5) continue;
      const before = level(o - 1);
      const at = o - 1 + (0.5 - before) / (here - before);
      const t = SIDE_FROM + ((SIDE_TO - SIDE_FROM) * (i + 0.5)) / PROFILES;
      xs.push(side.a.x + (side.b.x - side.a.x) * t + side.nx * at);
      ys.push(side.a.y + (side.b.y - side.a.y) * t + side.ny * at);
      return;
    }
  });
  if (xs.length < MIN_SEEN_SHARE * PROFILES) return null;
  return fitLineRobust(xs, ys, 0.3);
}

function meanOver(profile: Float64Array, from: number, to: number): number[] {
  const sum = [0, 0, 0];
  for (let o = from; o <= to; o++) for (let c = 0; c < 3; c++) sum[c]! += profile[o * 3 + c]!;
  return sum.map((v) => v / (to - from + 1));
}

export function medianColour(colours: ReadonlyArray<readonly number[]>): [number, number, number] {
  const channel = (c: number) => {
    const values = colours.map((colour) => colour[c]!).sort((x, y) => x - y);
    const mid = values.length >> 1;
    return values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
  };
  return [channel(0), channel(1), channel(2)];
}

/** The line through two points, as geometry.ts's Line (unit normal, offset). */
export function lineThrough(a: Point, b: Point): Line {
  const length = distance(a, b);
  const nx = -(b.y - a.y) / length;
  const ny = (b.x - a.x) / length;
  return { nx, ny, c: nx * a.x + ny * a.y };
}
