import { Prng } from './prng.ts';

// A holo or full-art face: foil sparkle and printed stars scattered over the art, as on real holos (the Cleffa's
// night sky, a full-art's glitter). Each is a small mark much lighter than the print round it, which a grader reads
// as print and the engine must not count as damage.

/** Marks per square centimetre of art: real holos show a few to a dozen. */
const SPARKLES_PER_CM2 = 0.6;
/** A sparkle's size across (mm): a glint of foil to a printed star. */
const SPARKLE_MIN_MM = 0.4;
const SPARKLE_MAX_MM = 1.4;
/** Kept this far inside the art's window, so none touches the border's inner edge (centering). */
const WINDOW_MARGIN_MM = 1.5;
const SPARKLE_COLOURS = ['#fffbe6', '#ffffff', '#fff3b0', '#e8f6ff'];

const f = (value: number) => Number(value.toFixed(4)).toString();

/**
 * SVG of the sparkle over the art's window (mm, card coordinates): four-pointed stars and round glints, their places
 * and sizes from `seed`, so the same card gets the same sparkle.
 */
export function holoSparkleSvg(art: { x: number; y: number; width: number; height: number }, seed: number): string {
  const rng = new Prng(seed);
  const area = ((art.width - 2 * WINDOW_MARGIN_MM) * (art.height - 2 * WINDOW_MARGIN_MM)) / 100;
  const count = Math.max(1, Math.round(area * SPARKLES_PER_CM2));
  const marks: string[] = [];
  for (let i = 0; i < count; i++) {
    const size = rng.range(SPARKLE_MIN_MM, SPARKLE_MAX_MM);
    const cx = rng.range(art.x + WINDOW_MARGIN_MM, art.x + art.width - WINDOW_MARGIN_MM);
    const cy = rng.range(art.y + WINDOW_MARGIN_MM, art.y + art.height - WINDOW_MARGIN_MM);
    const colour = rng.pick(SPARKLE_COLOURS);
    if (rng.next() < 0.5) {
      marks.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(size / 2)}" fill="${colour}" fill-opacity="0.9"/>`);
      continue;
    }
    // A four-pointed star: long thin points along the axes, a narrow waist between them.
    const long = size / 2;
    const waist = size / 8;
    const points = [
      [cx, cy - long],
      [cx + waist, cy - waist],
      [cx + long, cy],
      [cx + waist, cy + waist],
      [cx, cy + long],
      [cx - waist, cy + waist],
      [cx - long, cy],
      [cx - waist, cy - waist],
    ];
    marks.push(`<polygon points="${points.map(([x, y]) => `${f(x!)},${f(y!)}`).join(' ')}" fill="${colour}" fill-opacity="0.95"/>`);
  }
  return `<g>${marks.join('')}</g>`;
}
