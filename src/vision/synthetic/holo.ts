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

/**
 * A foil of ridged lines (a cosmos or reverse holo's line pattern, a refractor's): parallel ridges across the whole
 * art, LINE_SPACING_MM apart, each broken into pieces. Each ridge catches the light on one face and is shaded on the
 * other, so it draws as a crease does (card-svg.ts): a light line with a dark one a few tenths of a millimetre beside
 * it, of a crease's strength, long enough for one. Only their number, side by side at one angle, tells them from a
 * fold: the pattern is print.
 */
const LINE_SPACING_MM = { min: 1.6, max: 2.6 };
/** A ridge's pieces: as long as a crease, with short gaps where the foil's sheen fades. */
const LINE_PIECE_MM = { min: 16, max: 40 };
const LINE_GAP_MM = { min: 2, max: 6 };
/** The pattern's angle: diagonal, as foils are laid, give or take a few degrees. */
const LINE_ANGLES_DEG = [45, 135];
const LINE_ANGLE_JITTER_DEG = 4;
/** The two faces of a ridge, as card-svg.ts draws a crease's. */
const RIDGE_FACE_WIDTH_MM = 0.25;
const RIDGE_FACE_GAP_MM = 0.35;

export function holoLinesSvg(art: { x: number; y: number; width: number; height: number }, seed: number): string {
  const rng = new Prng(seed);
  const angle = ((rng.pick(LINE_ANGLES_DEG) + rng.range(-LINE_ANGLE_JITTER_DEG, LINE_ANGLE_JITTER_DEG)) * Math.PI) / 180;
  const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
  const [nx, ny] = [-uy, ux];
  const cx = art.x + art.width / 2;
  const cy = art.y + art.height / 2;
  // Far enough either way to cover the window at any angle; the art's clip path cuts them at its edges.
  const reach = Math.hypot(art.width, art.height) / 2;
  const lines: string[] = [];
  for (let offset = -reach + rng.range(0, LINE_SPACING_MM.max); offset <= reach; offset += rng.range(LINE_SPACING_MM.min, LINE_SPACING_MM.max)) {
    for (let t = -reach - rng.range(0, LINE_PIECE_MM.max); t < reach; ) {
      const length = rng.range(LINE_PIECE_MM.min, LINE_PIECE_MM.max);
      const face = (side: number, colour: string, opacity: number) => {
        const ox = cx + nx * (offset + side * RIDGE_FACE_GAP_MM);
        const oy = cy + ny * (offset + side * RIDGE_FACE_GAP_MM);
        return `<line x1="${f(ox + ux * t)}" y1="${f(oy + uy * t)}" x2="${f(ox + ux * (t + length))}" y2="${f(oy + uy * (t + length))}" stroke="${colour}" stroke-opacity="${opacity}" stroke-width="${f(RIDGE_FACE_WIDTH_MM)}"/>`;
      };
      lines.push(face(-0.5, '#ffffff', 0.6) + face(0.5, '#000000', 0.45));
      t += length + rng.range(LINE_GAP_MM.min, LINE_GAP_MM.max);
    }
  }
  return `<g>${lines.join('')}</g>`;
}
