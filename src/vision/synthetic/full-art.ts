import type { CardSize } from '../card-formats.ts';
import { Prng } from './prng.ts';

// A full-art face's print where it meets the cut, as on a borderless One Piece or Pokémon full-art: pale art running
// to the edge, and dark, high-contrast strokes of it (an outline, a shadow, a lock of hair) starting a few tenths of
// a millimetre inside the cut. On white paper the pale art is much nearer the paper's lightness than the strokes
// are: print next to the edge, not a bite out of it.

/** The pale art along the cut reaches this far in (mm). */
const PALE_BAND_MM = 3;
/**
 * Pale print, some 65-75 levels darker than white paper (a full-art's pink and lilac highlights): clearly not the
 * paper, so the card's outline is seen against it, yet far lighter than the dark strokes.
 */
const PALE_COLOURS = ['#c4a0b4', '#aea4c4', '#c4a888', '#aaa2a8'];
const DARK_COLOURS = ['#2a2236', '#3a1f2c', '#1f2a3a'];
/** Dark strokes: this far apart along the edge, this long and thick, starting this far in from the cut (mm): all within 1 mm of it, short of the ring 1-2 mm in where the engine reads the card's own colour. */
const STROKE_SPACING_MM = { min: 4, max: 8 };
const STROKE_LENGTH_MM = { min: 1, max: 2.5 };
const STROKE_THICKNESS_MM = { min: 0.3, max: 0.5 };
const STROKE_INSET_MM = { min: 0.2, max: 0.45 };
/**
 * Or ('dark-at-cut') stretches of dark art running into the cut, as dark as a dark playmat but not its colour (a
 * full-art's deep purple, wine or navy): this long along the edge and this deep (mm).
 */
const DARK_AT_CUT_COLOURS = ['#36204c', '#3e1c26', '#162c48'];
const DARK_AT_CUT_LENGTH_MM = { min: 3, max: 6 };
const DARK_AT_CUT_DEPTH_MM = { min: 0.6, max: 1 };
/** Kept this far from the corners, which have their own tests. */
const CORNER_CLEAR_MM = 6;

/** What meets the cut: dark strokes a little inside it, or stretches of dark art running into it. */
export type FullArtEdge = 'strokes' | 'dark-at-cut';

const f = (value: number) => Number(value.toFixed(4)).toString();

/**
 * SVG (mm, card coordinates) of the print along the whole cut: a pale band, and in it dark strokes along the edge
 * every few millimetres, each a flat ellipse starting a little inside the cut. Places, sizes and colours from `seed`.
 */
export function fullArtEdgeSvg(seed: number, kind: FullArtEdge, size: CardSize): string {
  const rng = new Prng(seed);
  const w = size.widthMm;
  const h = size.heightMm;
  const band = PALE_BAND_MM;
  const parts = [
    `<path d="M0 0H${f(w)}V${f(h)}H0Z M${f(band)} ${f(band)}V${f(h - band)}H${f(w - band)}V${f(band)}Z" fill="${rng.pick(PALE_COLOURS)}" fill-rule="evenodd"/>`,
  ];
  // Each edge: a point `along` it and `depth` in from the cut, and whether the edge runs down (left, right).
  const edges: Array<{ length: number; at: (along: number, depth: number) => [number, number]; down: boolean }> = [
    { length: w, at: (s, d) => [s, d], down: false },
    { length: w, at: (s, d) => [s, h - d], down: false },
    { length: h, at: (s, d) => [d, s], down: true },
    { length: h, at: (s, d) => [w - d, s], down: true },
  ];
  for (const edge of edges) {
    for (let s = CORNER_CLEAR_MM + rng.range(0, STROKE_SPACING_MM.min); s < edge.length - CORNER_CLEAR_MM; s += rng.range(STROKE_SPACING_MM.min, STROKE_SPACING_MM.max)) {
      if (kind === 'dark-at-cut') {
        const length = rng.range(DARK_AT_CUT_LENGTH_MM.min, DARK_AT_CUT_LENGTH_MM.max);
        const depth = rng.range(DARK_AT_CUT_DEPTH_MM.min, DARK_AT_CUT_DEPTH_MM.max);
        // From the cut (and a little past it, under the card's mask) in to `depth`.
        const [x0, y0] = edge.at(s, -0.5);
        const [x1, y1] = edge.at(s + length, depth);
        parts.push(`<rect x="${f(Math.min(x0, x1))}" y="${f(Math.min(y0, y1))}" width="${f(Math.abs(x1 - x0))}" height="${f(Math.abs(y1 - y0))}" fill="${rng.pick(DARK_AT_CUT_COLOURS)}"/>`);
        s += length;
        continue;
      }
      const thickness = rng.range(STROKE_THICKNESS_MM.min, STROKE_THICKNESS_MM.max);
      const [cx, cy] = edge.at(s, rng.range(STROKE_INSET_MM.min, STROKE_INSET_MM.max) + thickness / 2);
      const along = rng.range(STROKE_LENGTH_MM.min, STROKE_LENGTH_MM.max) / 2;
      const [rx, ry] = edge.down ? [thickness / 2, along] : [along, thickness / 2];
      parts.push(`<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(ry)}" fill="${rng.pick(DARK_COLOURS)}"/>`);
    }
  }
  return `<g>${parts.join('')}</g>`;
}
