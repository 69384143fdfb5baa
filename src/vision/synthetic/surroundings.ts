import type { Point } from '../../contracts/measurement.ts';

// What lies round the card in collectors' photos (issue 9) beyond the paper, mat and sleeve render.ts draws: a soft
// shadow on a light table, the sleeve's tint and a lamp's glare on its plastic. Drawn only when asked for, so a spec without it draws exactly the photo it did before.

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

/** How much of the lamp's light a cast shadow takes away from the table at its darkest. */
const CAST_SHADOW_DARKENING = 0.3;

/**
 * The shadow of a card lifted off the table (warped, or in a top-loader) under one lamp: the card's quad moved
 * `offsetMm` down and right, dark to its own outline, which is blurred over `penumbraMm` (a lamp is not a point).
 * Unlike the soft shadow, it has an outer edge of its own a few millimetres outside the card's.
 */
export function drawCastShadow(pixels: Uint8ClampedArray, width: number, height: number, quad: readonly Point[], pxPerMm: number, offsetMm: number, penumbraMm: number): void {
  const offset = (offsetMm * pxPerMm) / Math.SQRT2;
  const moved = quad.map((p) => ({ x: p.x + offset, y: p.y + offset }));
  const half = (penumbraMm * pxPerMm) / 2;
  aroundQuad(pixels, width, height, moved, half, (d, i) => {
    const t = Math.min(1, Math.max(0, (half - d) / (2 * half)));
    const darken = CAST_SHADOW_DARKENING * t * t * (3 - 2 * t);
    for (let c = 0; c < 3; c++) pixels[i + c] = pixels[i + c]! * (1 - darken);
  });
}

/** What is seen through clear plastic over the table: darker by `tint` (a share), inside the quad only. */
export function tintInside(pixels: Uint8ClampedArray, width: number, height: number, quad: readonly Point[], tint: number): void {
  aroundQuad(pixels, width, height, quad, 0, (d, i) => {
    const weight = tint * Math.min(1, Math.max(0, 0.5 - d));
    for (let c = 0; c < 3; c++) pixels[i + c] = pixels[i + c]! * (1 - weight);
  });
}

/** How wide a lamp's reflection on a sleeve is (mm), and its angle to the card's short side. */
const GLARE_BAND_MM = 10;
const GLARE_ANGLE_DEG = 30;

/**
 * A lamp reflected in the sleeve: a soft band across the sleeve through its middle, each pixel taken `strength` (a
 * share) of the way to white at the band's centre line and fading to nothing at its edges, inside the sleeve only.
 */
export function drawSleeveGlare(pixels: Uint8ClampedArray, width: number, height: number, sleeve: readonly Point[], pxPerMm: number, strength: number): void {
  const cx = sleeve.reduce((sum, p) => sum + p.x, 0) / 4;
  const cy = sleeve.reduce((sum, p) => sum + p.y, 0) / 4;
  const along = Math.atan2(sleeve[1]!.y - sleeve[0]!.y, sleeve[1]!.x - sleeve[0]!.x) + (GLARE_ANGLE_DEG * Math.PI) / 180;
  const nx = -Math.sin(along);
  const ny = Math.cos(along);
  const half = (GLARE_BAND_MM / 2) * pxPerMm;
  aroundQuad(pixels, width, height, sleeve, 0, (d, i) => {
    if (d > 0) return;
    const p = i / 3;
    const across = ((p % width) + 0.5 - cx) * nx + (Math.floor(p / width) + 0.5 - cy) * ny;
    if (Math.abs(across) >= half) return;
    const weight = strength * Math.cos(((Math.PI / 2) * across) / half) ** 2;
    for (let c = 0; c < 3; c++) pixels[i + c] = pixels[i + c]! + (255 - pixels[i + c]!) * weight;
  });
}

/** The light surfaces a silver border nearly matches (issue 31), and their base colours. */
export type LightSurface = 'white-paper' | 'white-desk' | 'light-wood';
export const LIGHT_SURFACE_COLOURS: Record<LightSurface, { r: number; g: number; b: number }> = {
  'white-paper': { r: 244, g: 244, b: 240 },
  'white-desk': { r: 232, g: 233, b: 230 },
  'light-wood': { r: 220, g: 198, b: 160 },
};
/** Printer paper's fibres: cells this size (mm), each a few levels lighter or darker. */
const PAPER_FIBRE_MM = 0.25;
const PAPER_FIBRE_LEVELS = 2.5;
/** Light wood's grain: pale and dark streaks along the photo's width, a few millimetres apart, wavering. */
const GRAIN_PERIOD_MM = 2.5;
const GRAIN_LEVELS = 9;

/** A light surface's own texture over the table's colour and lighting: paper's fibres, wood's grain; a desk is smooth. */
export function drawLightSurface(pixels: Uint8ClampedArray, width: number, height: number, pxPerMm: number, surface: LightSurface, random: () => number): void {
  if (surface === 'white-desk') return;
  if (surface === 'white-paper') {
    const cell = Math.max(1, Math.round(PAPER_FIBRE_MM * pxPerMm));
    const columns = Math.ceil(width / cell);
    const shades = Float32Array.from({ length: columns * Math.ceil(height / cell) }, () => (random() * 2 - 1) * PAPER_FIBRE_LEVELS);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const shade = shades[Math.floor(y / cell) * columns + Math.floor(x / cell)]!;
        const i = (y * width + x) * 3;
        for (let c = 0; c < 3; c++) pixels[i + c] = pixels[i + c]! + shade;
      }
    }
    return;
  }
  const period = GRAIN_PERIOD_MM * pxPerMm;
  const phase = random() * 2 * Math.PI;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // The grain's lines run along x, wavering slowly; two periods beat so no two streaks are alike.
      const v = y + 0.6 * period * Math.sin(x / (9 * period) + phase);
      const shade = GRAIN_LEVELS * (0.6 * Math.sin((2 * Math.PI * v) / period) + 0.4 * Math.sin((2 * Math.PI * v) / (2.7 * period) + phase));
      const i = (y * width + x) * 3;
      pixels[i] = pixels[i]! + shade;
      pixels[i + 1] = pixels[i + 1]! + 0.9 * shade;
      pixels[i + 2] = pixels[i + 2]! + 0.75 * shade;
    }
  }
}

/** The card's thickness at its cut: the surface round the outline darker by `darkening` at the cut, fading over `widthMm`. */
export function drawCutShadow(pixels: Uint8ClampedArray, width: number, height: number, quad: readonly Point[], pxPerMm: number, widthMm: number, darkening: number): void {
  const reach = Math.max(1, widthMm * pxPerMm);
  aroundQuad(pixels, width, height, quad, reach, (d, i) => {
    if (d < -1) return;
    const weight = darkening * Math.min(1, Math.max(0, 1 - d / reach));
    for (let c = 0; c < 3; c++) pixels[i + c] = pixels[i + c]! * (1 - weight);
  });
}
