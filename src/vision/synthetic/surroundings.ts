import type { Point } from '../../contracts/measurement.ts';
import type { Rgb } from './card-svg.ts';
import { Prng } from './prng.ts';

// What lies round the card in collectors' photos (issue 9): notebook paper, a playmat, a soft shadow, a penny
// sleeve. Each is drawn from its own seeded generator, so a spec without them draws exactly the photo it did before.

/** Notebook paper: a cream sheet, blue rules every 7 mm and a red margin line, all running to the photo's edges. */
export function drawLinedPaper(pixels: Uint8ClampedArray, width: number, height: number, pxPerMm: number, seed: number): void {
  const rng = new Prng(seed ^ 0x5eed01);
  const paper: Rgb = { r: 238, g: 236, b: 226 };
  const rule: Rgb = { r: 150, g: 175, b: 215 };
  const spacing = 7 * pxPerMm;
  const offset = rng.range(0, spacing);
  const ruleHalfWidth = Math.max(0.6, 0.15 * pxPerMm);
  const marginX = rng.range(0.08, 0.2) * width;
  for (let y = 0; y < height; y++) {
    const fromRule = Math.abs((((y - offset) % spacing) + spacing) % spacing - spacing / 2) - (spacing / 2 - ruleHalfWidth);
    const onRule = Math.min(1, Math.max(0, fromRule + 0.5));
    for (let x = 0; x < width; x++) {
      const onMargin = Math.min(1, Math.max(0, ruleHalfWidth + 0.5 - Math.abs(x - marginX)));
      const i = (y * width + x) * 3;
      let r = paper.r + (rule.r - paper.r) * onRule;
      let g = paper.g + (rule.g - paper.g) * onRule;
      let b = paper.b + (rule.b - paper.b) * onRule;
      r += (215 - r) * onMargin;
      g += (120 - g) * onMargin;
      b += (120 - b) * onMargin;
      pixels[i] = r;
      pixels[i + 1] = g;
      pixels[i + 2] = b;
    }
  }
}

/** A dark playmat: near-black cloth with a mottled texture of a few millimetres, to the photo's edges. */
export function drawPlaymat(pixels: Uint8ClampedArray, width: number, height: number, pxPerMm: number, seed: number): void {
  const rng = new Prng(seed ^ 0x5eed02);
  const cell = Math.max(2, Math.round(3 * pxPerMm));
  const columns = Math.ceil(width / cell) + 2;
  const rows = Math.ceil(height / cell) + 2;
  const lattice = new Float64Array(columns * rows);
  for (let k = 0; k < lattice.length; k++) lattice[k] = rng.range(-9, 9);
  for (let y = 0; y < height; y++) {
    const gy = y / cell;
    const y0 = Math.floor(gy);
    const fy = gy - y0;
    for (let x = 0; x < width; x++) {
      const gx = x / cell;
      const x0 = Math.floor(gx);
      const fx = gx - x0;
      const at = (cx: number, cy: number) => lattice[cy * columns + cx]!;
      const mottle =
        at(x0, y0) * (1 - fx) * (1 - fy) + at(x0 + 1, y0) * fx * (1 - fy) + at(x0, y0 + 1) * (1 - fx) * fy + at(x0 + 1, y0 + 1) * fx * fy;
      const i = (y * width + x) * 3;
      pixels[i] = 34 + mottle;
      pixels[i + 1] = 36 + mottle;
      pixels[i + 2] = 44 + mottle;
    }
  }
}

/** Distance (px) from p to the quad's outline, negative inside. The quad is convex, clockwise in image terms. */
function signedDistance(quad: readonly Point[], x: number, y: number): number {
  let outside = -Infinity;
  for (let k = 0; k < 4; k++) {
    const a = quad[k]!;
    const b = quad[(k + 1) % 4]!;
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    // Outward normal of a clockwise (y down) polygon side.
    const nx = (b.y - a.y) / length;
    const ny = -(b.x - a.x) / length;
    outside = Math.max(outside, (x - a.x) * nx + (y - a.y) * ny);
  }
  return outside;
}

/** Applies `shade(distance)` to every photo pixel within `reach` px outside the quad (and inside it, if asked). */
function aroundQuad(pixels: Uint8ClampedArray, width: number, height: number, quad: readonly Point[], reach: number, shade: (distance: number, i: number) => void): void {
  const minX = Math.max(0, Math.floor(Math.min(...quad.map((p) => p.x)) - reach));
  const maxX = Math.min(width - 1, Math.ceil(Math.max(...quad.map((p) => p.x)) + reach));
  const minY = Math.max(0, Math.floor(Math.min(...quad.map((p) => p.y)) - reach));
  const maxY = Math.min(height - 1, Math.ceil(Math.max(...quad.map((p) => p.y)) + reach));
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const d = signedDistance(quad, x + 0.5, y + 0.5);
      if (d <= reach) shade(d, (y * width + x) * 3);
    }
  }
}

/** A soft shadow: the card's quad moved down and right, darkening the table by up to a quarter, fading over `shadowMm`. */
export function drawSoftShadow(pixels: Uint8ClampedArray, width: number, height: number, quad: readonly Point[], pxPerMm: number, shadowMm: number): void {
  const spread = shadowMm * pxPerMm;
  const moved = quad.map((p) => ({ x: p.x + 0.4 * spread, y: p.y + 0.6 * spread }));
  aroundQuad(pixels, width, height, moved, spread, (d, i) => {
    const darken = 0.25 * Math.min(1, Math.max(0, 1 - (d + spread) / (2 * spread)));
    for (let c = 0; c < 3; c++) pixels[i + c] = pixels[i + c]! * (1 - darken);
  });
}

/**
 * A penny sleeve under the card: the clear film lightens the table a little inside its outline, which is a thin
 * light ridge (about 0.3 mm) `marginMm` outside the card. Drawn before the card, which then covers the film.
 */
export function drawSleeve(pixels: Uint8ClampedArray, width: number, height: number, quad: readonly Point[], pxPerMm: number, marginMm: number): void {
  const margin = marginMm * pxPerMm;
  const ridgeHalf = Math.max(0.7, 0.15 * pxPerMm);
  aroundQuad(pixels, width, height, quad, margin + ridgeHalf + 1, (d, i) => {
    const film = d <= margin ? 10 : 0;
    const ridge = 70 * Math.min(1, Math.max(0, ridgeHalf + 0.5 - Math.abs(d - margin)));
    for (let c = 0; c < 3; c++) pixels[i + c] = pixels[i + c]! + film + ridge;
  });
}

/** The sleeve's glare: a soft light band across card and film, a fifth of the card wide. */
export function drawSleeveGlare(pixels: Uint8ClampedArray, width: number, height: number, quad: readonly Point[], pxPerMm: number, marginMm: number, seed: number): void {
  const rng = new Prng(seed ^ 0x5eed03);
  const [tl, tr, br, bl] = quad as [Point, Point, Point, Point];
  const t = rng.range(0.25, 0.75);
  // The band runs from a point on the left side to one on the right side, lower down.
  const a = { x: tl.x + (bl.x - tl.x) * t, y: tl.y + (bl.y - tl.y) * t };
  const b = { x: tr.x + (br.x - tr.x) * Math.min(1, t + 0.2), y: tr.y + (br.y - tr.y) * Math.min(1, t + 0.2) };
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  const halfWidth = (63 * pxPerMm) / 10;
  aroundQuad(pixels, width, height, quad, marginMm * pxPerMm, (_d, i) => {
    const p = i / 3;
    const x = (p % width) + 0.5;
    const y = Math.floor(p / width) + 0.5;
    const across = Math.abs(((x - a.x) * (b.y - a.y) - (y - a.y) * (b.x - a.x)) / length);
    const light = 22 * Math.max(0, 1 - (across / halfWidth) ** 2);
    for (let c = 0; c < 3; c++) pixels[i + c] = pixels[i + c]! + light;
  });
}
