import { Prng } from './prng.ts';

// Print that a flat photo can take for damage (issue 31): a card's layout of bars, rules and boxes along its axes
// (attack boxes, a weakness bar, a foil stripe with a dark rule under it, which shows a light and a dark line side by
// side as a fold does), and the strokes of its art, a lock of hair drawn as fine light highlights and dark outlines
// (which, one strand at a time, look like scratches). All of it is print: none of it is a crease, a scratch or a spot.

type Window = { x: number; y: number; width: number; height: number };

/** The layout's bars, from the art window's top, as shares of its height (the lower half of the face, as on a Pokémon card). */
const FOIL_STRIPE_AT = 0.62;
const RULE_AT = 0.72;
const BOX_AT = 0.8;
/** A foil stripe: light, this tall, with a dark rule under it (mm). */
const FOIL_STRIPE_MM = 0.3;
const STRIPE_RULE_MM = 0.3;
/** A rule across the face, and the outline of a box (mm). */
const RULE_MM = 0.25;
const BOX_HEIGHT_MM = 4;
const BOX_OUTLINE_MM = 0.3;

const f = (value: number) => Number(value.toFixed(4)).toString();

/** SVG (mm, card coordinates) of the layout bars across the art window, from one inner edge of the border to the other. */
export function layoutBarsSvg(art: Window): string {
  const across = (y: number, height: number, fill: string, extra = '') => `<rect x="${f(art.x)}" y="${f(y)}" width="${f(art.width)}" height="${f(height)}" fill="${fill}"${extra}/>`;
  const stripe = art.y + FOIL_STRIPE_AT * art.height;
  const rule = art.y + RULE_AT * art.height;
  const box = art.y + BOX_AT * art.height;
  return [
    across(stripe, FOIL_STRIPE_MM, '#f6f2e4'),
    across(stripe + FOIL_STRIPE_MM, STRIPE_RULE_MM, '#1e1c22'),
    across(rule, RULE_MM, '#26242a'),
    `<rect x="${f(art.x + BOX_OUTLINE_MM / 2)}" y="${f(box)}" width="${f(art.width - BOX_OUTLINE_MM)}" height="${f(BOX_HEIGHT_MM)}" fill="#e4dcc6" stroke="#2a262c" stroke-width="${f(BOX_OUTLINE_MM)}"/>`,
  ].join('');
}

/** A lock of hair: this many strands, each this long and this far bowed from straight at its middle (mm). */
const STRANDS = { min: 9, max: 13 };
const STRAND_LENGTH_MM = { min: 6, max: 11 };
const STRAND_BOW_MM = { min: 0.2, max: 0.6 };
/** Strands lie this far apart across the lock (mm), and turn by up to this much from the lock's direction. */
const STRAND_SPACING_MM = { min: 0.8, max: 1.6 };
const STRAND_TURN_DEG = 4;
/** A highlight strand's width (mm): as fine and as light as a scratch. */
const HIGHLIGHT_MM = 0.15;
const HAIR_COLOURS = ['#5a3a5e', '#6c4a2c', '#2e4a6e', '#7a2e34'];

/**
 * SVG (mm, card coordinates) of a lock of hair centred on (x, y), flowing at `angleDeg`: a patch of the hair's colour,
 * and over it strands side by side, each a fine light highlight bowed a little, their lengths and directions from `seed`.
 */
export function hairLockSvg(x: number, y: number, angleDeg: number, seed: number): string {
  const rng = new Prng(seed);
  const count = rng.int(STRANDS.min, STRANDS.max);
  const strands: string[] = [];
  let offset = 0;
  const offsets: number[] = [];
  for (let i = 0; i < count; i++) {
    offsets.push(offset);
    offset += rng.range(STRAND_SPACING_MM.min, STRAND_SPACING_MM.max);
  }
  const spread = offset;
  const lockLength = STRAND_LENGTH_MM.max + 2;
  const lock = (angleDeg * Math.PI) / 180;
  const [lx, ly] = [Math.cos(lock), Math.sin(lock)];
  const [nx, ny] = [-ly, lx];
  const patch = `<ellipse cx="${f(x)}" cy="${f(y)}" rx="${f(lockLength / 2 + 1)}" ry="${f(spread / 2 + 1.5)}" transform="rotate(${f(angleDeg)} ${f(x)} ${f(y)})" fill="${rng.pick(HAIR_COLOURS)}"/>`;
  for (const across of offsets) {
    const length = rng.range(STRAND_LENGTH_MM.min, STRAND_LENGTH_MM.max);
    const turn = lock + (rng.range(-STRAND_TURN_DEG, STRAND_TURN_DEG) * Math.PI) / 180;
    const [ux, uy] = [Math.cos(turn), Math.sin(turn)];
    const [px, py] = [-uy, ux];
    const bow = rng.range(STRAND_BOW_MM.min, STRAND_BOW_MM.max) * (rng.next() < 0.5 ? -1 : 1);
    const cx = x + nx * (across - spread / 2) + lx * rng.range(-1, 1);
    const cy = y + ny * (across - spread / 2) + ly * rng.range(-1, 1);
    // A quadratic curve whose middle lies `bow` off the chord: its control point twice as far.
    const curve = `M${f(cx - (ux * length) / 2)} ${f(cy - (uy * length) / 2)}Q${f(cx + px * 2 * bow)} ${f(cy + py * 2 * bow)} ${f(cx + (ux * length) / 2)} ${f(cy + (uy * length) / 2)}`;
    strands.push(`<path d="${curve}" fill="none" stroke="#f2ece4" stroke-width="${f(HIGHLIGHT_MM)}" stroke-linecap="round"/>`);
  }
  return `<g>${patch}${strands.join('')}</g>`;
}
