import sharp from 'sharp';
import type { Point } from '../../contracts/measurement.ts';
import { CARD_FORMATS, cardCornersMm } from '../card-formats.ts';
import type { CardSize } from '../card-formats.ts';
import { applyHomography, homographyFromPoints } from '../geometry.ts';
import { artSvg, cardSvg, colourDistance, contrastingColour, parseHex } from './card-svg.ts';
import type { Rgb } from './card-svg.ts';
import { Prng } from './prng.ts';
import type { SyntheticCardSpec } from './spec.ts';
import { slabOutlineMm, slabSvg } from './slab.ts';
import { LIGHT_SURFACE_COLOURS, drawCastShadow, drawCutShadow, drawLightSurface, drawSleeveGlare, drawSoftShadow, tintInside } from './surroundings.ts';
import type { LightSurface } from './surroundings.ts';

const BORDER_COLOURS = ['#e8c33a', '#f2f2ee', '#1d3f8f', '#b8bcc2', '#b0282a', '#1c1c1c', '#2f7a45'].map(parseHex);
const BACKGROUNDS = ['#2b2f36', '#3b3226', '#4a5a4a', '#6a6f7a', '#8c7a5c', '#9aa3ad', '#3c2a3e'].map(parseHex);

/** Mixed into the card's seed for a ragged cut's bites, a holo face's sparkle and a full-art's print at the cut. */
const RAGGED_SEED = 0x3b1d;
const HOLO_SEED = 0x51a7;
const FULL_ART_SEED = 0x7e4d;
const HAIR_SEED = 0x4a1c;
const PAPER = parseHex('#f3f3ee');
const PLAYMAT = parseHex('#1e2024');
/** A notebook's rulings: 7 mm apart, a fifth of a millimetre thick, pale blue; a red margin line. */
const RULING_SPACING_MM = 7;
const RULING_MM = 0.2;
const RULING_COLOUR = parseHex('#9db4d8');
const MARGIN_COLOUR = parseHex('#d98a8a');
/** A slabbed card fills less of the photo by default, so the whole holder fits in it. */
const SLAB_CARD_SCALE = 0.58;
/** A penny sleeve's edge: a thin light line, half transparent. */
const SLEEVE_LINE_MM = 0.25;
const SLEEVE_COLOUR = parseHex('#e6e8ec');
const SLEEVE_OPACITY = 0.6;

/**
 * Draws a card of known geometry and defects and photographs it: placed, rotated and keystoned in a larger photo
 * on a background, with noise and JPEG compression. The same spec and seed give the same bytes.
 */
export async function renderSyntheticCard(spec: SyntheticCardSpec, seed: number): Promise<Uint8Array> {
  const rng = new Prng(seed);
  const photo = spec.photo ?? {};
  const variant = spec.variant ?? 'card';
  const pxPerMm = spec.pxPerMm ?? 20;
  const size: CardSize = CARD_FORMATS.find((f) => f.id === (spec.format ?? 'standard'))!;
  const cardScale = photo.cardScale ?? (photo.slab ? SLAB_CARD_SCALE : 0.75);
  const height = Math.round((size.heightMm * pxPerMm) / cardScale);
  const width = Math.round(height * (photo.aspect ?? 0.8));
  const lightSurface = isLightSurface(photo.surface) ? photo.surface : null;
  const borderColor = spec.borderColor !== undefined ? parseHex(spec.borderColor) : rng.pick(BORDER_COLOURS);
  const background =
    photo.background !== undefined
      ? parseHex(photo.background)
      : photo.surface === 'lined-paper'
        ? PAPER
        : photo.surface === 'playmat'
          ? PLAYMAT
          : lightSurface !== null
            ? LIGHT_SURFACE_COLOURS[lightSurface]
      : rng.pick(BACKGROUNDS.filter((colour) => colourDistance(colour, borderColor) >= 90 && colourDistance(colour, parseHex('#f4f4f0')) >= 90));

  const pixels = variant === 'blank' ? flatPhoto(width, height, background) : backgroundPhoto(width, height, background, rng);
  if (variant !== 'blank' && photo.surface === 'lined-paper') drawRulings(pixels, width, height, pxPerMm);
  if (variant !== 'blank' && photo.surface === 'playmat') drawMatTexture(pixels, width, height, pxPerMm, rng);
  if (variant !== 'blank' && lightSurface !== null) drawLightSurface(pixels, width, height, pxPerMm, lightSurface, () => rng.next());
  if (variant === 'card' || variant === 'cut-off') {
    const drawing = {
      borders: spec.borders === undefined ? { leftMm: 3, rightMm: 3, topMm: 3, bottomMm: 3 } : spec.borders,
      borderColor,
      printTiltDeg: spec.printTiltDeg ?? 0,
      cornerRadiusMm: spec.cornerRadiusMm ?? 3,
      defects: spec.defects ?? [],
      lettering: spec.lettering ?? null,
      nextCardPrint: spec.nextCardPrint ?? null,
      paleRimMm: spec.paleRimMm ?? 0,
      // Bitten by a generator of their own, so a card drawn without them draws as it always did.
      ...(spec.edgeRoughnessMm ? { edgeRoughness: { depthMm: spec.edgeRoughnessMm, seed: seed ^ RAGGED_SEED } } : {}),
      // Sparkle from a generator of its own, so a card drawn without it draws as it always did.
      ...(spec.holo ? { holoSeed: seed ^ HOLO_SEED, holoLines: spec.holo === 'lines' } : {}),
      ...(spec.fullArtEdge ? { fullArtEdge: { kind: spec.fullArtEdge === true ? ('strokes' as const) : spec.fullArtEdge, seed: seed ^ FULL_ART_SEED } } : {}),
      ...(spec.artStrokes ? { artStrokes: spec.artStrokes } : {}),
      ...(spec.borderFinish ? { borderFinish: spec.borderFinish } : {}),
      ...(spec.innerFrame ? { innerFrame: spec.innerFrame } : {}),
      ...(spec.layoutBars ? { layoutBars: true } : {}),
      ...(spec.hair ? { hair: { locks: spec.hair, seed: seed ^ HAIR_SEED } } : {}),
      pxPerMm,
      size,
    };
    const art = await sharp(Buffer.from(artSvg(drawing, rng))).png().toBuffer();
    const svg = cardSvg(drawing, art);
    const card = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const cardHeight = size.heightMm * pxPerMm;
    const cardWidth = size.widthMm * pxPerMm;
    const centerX = photo.centerX ?? (variant === 'cut-off' ? (width - 0.35 * cardWidth) / width : 0.5);
    // In a slab the card sits below the holder's middle: by default the holder, not the card, is centred.
    const slabMm = photo.slab ? slabOutlineMm(photo.slab, size) : null;
    const slabShiftMm = slabMm ? size.heightMm / 2 - (slabMm.top + slabMm.bottom) / 2 : 0;
    const centerY = photo.centerY ?? 0.5 + (slabShiftMm * pxPerMm) / height;
    const quad = cardQuad(cardWidth, cardHeight, centerX * width, centerY * height, photo.rotationDeg ?? 0, photo.keystone ?? 0);
    const corners = [
      { x: 0, y: 0 },
      { x: card.info.width, y: 0 },
      { x: card.info.width, y: card.info.height },
      { x: 0, y: card.info.height },
    ];
    if (photo.shadowMm !== undefined) drawSoftShadow(pixels, width, height, quad, pxPerMm, photo.shadowMm);
    if (photo.cutShadow !== undefined) drawCutShadow(pixels, width, height, quad, pxPerMm, photo.cutShadow.widthMm, photo.cutShadow.darkening);
    if (photo.castShadow !== undefined) drawCastShadow(pixels, width, height, quad, pxPerMm, photo.castShadow.offsetMm, photo.castShadow.penumbraMm);
    const sleeve =
      photo.sleeveGapMm === undefined
        ? null
        : cardQuad(cardWidth + 2 * photo.sleeveGapMm * pxPerMm, cardHeight + 2 * photo.sleeveGapMm * pxPerMm, centerX * width, centerY * height, (photo.rotationDeg ?? 0) + (photo.sleeveTiltDeg ?? 0), photo.keystone ?? 0);
    if (sleeve !== null && photo.sleeveTint !== undefined) tintInside(pixels, width, height, sleeve, photo.sleeveTint);
    if (photo.slab) await placeSlab(pixels, width, height, slabSvg(photo.slab, pxPerMm, size), slabOutlineMm(photo.slab, size), size, quad);
    placeCard(pixels, width, height, new Uint8Array(card.data.buffer, card.data.byteOffset, card.data.byteLength), card.info.width, card.info.height, corners, quad);
    if (sleeve !== null) drawOutline(pixels, width, height, sleeve, SLEEVE_LINE_MM * pxPerMm, SLEEVE_COLOUR, SLEEVE_OPACITY);
    if (sleeve !== null && photo.sleeveGlare !== undefined) drawSleeveGlare(pixels, width, height, sleeve, pxPerMm, photo.sleeveGlare);
  } else if (variant === 'no-card') {
    drawClutter(pixels, width, height, background, rng);
  }
  const photographed = photo.blur !== undefined && photo.blur > 0 ? await blurred(pixels, width, height, photo.blur) : pixels;
  dim(photographed, photo.light ?? 1);
  addNoise(photographed, photo.noise ?? 0, rng);

  const image = sharp(photographed, { raw: { width, height, channels: 3 } });
  const encoded = photo.format === 'png' ? await image.png().toBuffer() : await image.jpeg({ quality: photo.jpegQuality ?? 85 }).toBuffer();
  return new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength);
}

function isLightSurface(surface: NonNullable<SyntheticCardSpec['photo']>['surface']): surface is LightSurface {
  return surface !== undefined && surface in LIGHT_SURFACE_COLOURS;
}

/**
 * Where the card's corners land in the photo: upright and centred, its top edge narrowed by `keystone` and its
 * bottom widened as much (a camera tilted towards the card's top), then rotated about its centre.
 */
export function cardQuad(cardWidth: number, cardHeight: number, cx: number, cy: number, rotationDeg: number, keystone: number): Point[] {
  const top = (cardWidth / 2) * (1 - keystone / 2);
  const bottom = (cardWidth / 2) * (1 + keystone / 2);
  const h = cardHeight / 2;
  const angle = (rotationDeg * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return [
    { x: -top, y: -h },
    { x: top, y: -h },
    { x: bottom, y: h },
    { x: -bottom, y: h },
  ].map(({ x, y }) => ({ x: cx + x * cos - y * sin, y: cy + x * sin + y * cos }));
}

async function blurred(pixels: Uint8ClampedArray, width: number, height: number, sigma: number): Promise<Uint8ClampedArray> {
  const data = await sharp(pixels, { raw: { width, height, channels: 3 } }).blur(Math.max(0.3, sigma)).raw().toBuffer();
  return new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength);
}

function flatPhoto(width: number, height: number, colour: Rgb): Uint8ClampedArray {
  const pixels = new Uint8ClampedArray(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) {
    pixels[i] = colour.r;
    pixels[i + 1] = colour.g;
    pixels[i + 2] = colour.b;
  }
  return pixels;
}

/** A table top: the base colour with a gentle lighting gradient across the photo. */
function backgroundPhoto(width: number, height: number, colour: Rgb, rng: Prng): Uint8ClampedArray {
  const pixels = new Uint8ClampedArray(width * height * 3);
  const angle = rng.range(0, 2 * Math.PI);
  const strength = rng.range(8, 18);
  const dx = Math.cos(angle) / width;
  const dy = Math.sin(angle) / height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const shade = strength * ((x - width / 2) * dx + (y - height / 2) * dy) * 2;
      const i = (y * width + x) * 3;
      pixels[i] = colour.r + shade;
      pixels[i + 1] = colour.g + shade;
      pixels[i + 2] = colour.b + shade;
    }
  }
  return pixels;
}

/** Lined notebook paper: rulings across the whole photo and a margin line down it, as real paper runs past the frame. */
function drawRulings(pixels: Uint8ClampedArray, width: number, height: number, pxPerMm: number): void {
  const spacing = RULING_SPACING_MM * pxPerMm;
  const half = Math.max(0.5, (RULING_MM * pxPerMm) / 2);
  for (let y = 0; y < height; y++) {
    const offset = y % spacing;
    const distance = Math.min(offset, spacing - offset);
    if (distance > half + 0.5) continue;
    const weight = Math.min(1, half + 0.5 - distance);
    for (let x = 0; x < width; x++) blend(pixels, (y * width + x) * 3, RULING_COLOUR, 0.8 * weight);
  }
  const margin = Math.round(0.08 * width);
  for (let y = 0; y < height; y++) for (let x = margin; x < margin + Math.max(1, Math.round(2 * half)); x++) blend(pixels, (y * width + x) * 3, MARGIN_COLOUR, 0.7);
}

/** A playmat: dark cloth with a soft mottled texture of a few millimetres. */
function drawMatTexture(pixels: Uint8ClampedArray, width: number, height: number, pxPerMm: number, rng: Prng): void {
  const cell = Math.max(2, Math.round(3 * pxPerMm));
  const columns = Math.ceil(width / cell) + 1;
  const rows = Math.ceil(height / cell) + 1;
  const shades = Float32Array.from({ length: columns * rows }, () => rng.range(-10, 10));
  for (let y = 0; y < height; y++) {
    const gy = y / cell;
    const y0 = Math.floor(gy);
    const fy = gy - y0;
    for (let x = 0; x < width; x++) {
      const gx = x / cell;
      const x0 = Math.floor(gx);
      const fx = gx - x0;
      const at = (cx: number, cy: number) => shades[cy * columns + cx]!;
      const shade = (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
      const i = (y * width + x) * 3;
      pixels[i]! += shade;
      pixels[i + 1]! += shade;
      pixels[i + 2]! += shade;
    }
  }
}

/** A closed outline through the quad's corners, `thickness` pixels wide. */
function drawOutline(pixels: Uint8ClampedArray, width: number, height: number, quad: Point[], thickness: number, colour: Rgb, opacity: number): void {
  const half = Math.max(0.5, thickness / 2);
  for (let k = 0; k < 4; k++) {
    const a = quad[k]!;
    const b = quad[(k + 1) % 4]!;
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    const ux = (b.x - a.x) / length;
    const uy = (b.y - a.y) / length;
    const minX = Math.max(0, Math.floor(Math.min(a.x, b.x) - half - 1));
    const maxX = Math.min(width - 1, Math.ceil(Math.max(a.x, b.x) + half + 1));
    const minY = Math.max(0, Math.floor(Math.min(a.y, b.y) - half - 1));
    const maxY = Math.min(height - 1, Math.ceil(Math.max(a.y, b.y) + half + 1));
    for (let y = minY; y <= maxY; y++) {
      for (let x = minX; x <= maxX; x++) {
        const t = (x + 0.5 - a.x) * ux + (y + 0.5 - a.y) * uy;
        if (t < -half || t > length + half) continue;
        const distance = Math.abs((x + 0.5 - a.x) * uy - (y + 0.5 - a.y) * ux);
        const weight = Math.min(1, half + 0.5 - distance);
        if (weight > 0) blend(pixels, (y * width + x) * 3, colour, opacity * weight);
      }
    }
  }
}

function blend(pixels: Uint8ClampedArray, i: number, colour: Rgb, weight: number): void {
  pixels[i] = pixels[i]! * (1 - weight) + colour.r * weight;
  pixels[i + 1] = pixels[i + 1]! * (1 - weight) + colour.g * weight;
  pixels[i + 2] = pixels[i + 2]! * (1 - weight) + colour.b * weight;
}

/** Small objects on the table (coins, dice): something to see, nothing card-sized. */
function drawClutter(pixels: Uint8ClampedArray, width: number, height: number, background: Rgb, rng: Prng): void {
  const size = Math.min(width, height);
  for (let n = 0; n < 3; n++) {
    const colour = contrastingColour(rng, [background], 80);
    const radius = rng.range(0.03, 0.06) * size;
    const cx = rng.range(radius + 4, width - radius - 4);
    const cy = rng.range(radius + 4, height - radius - 4);
    for (let y = Math.floor(cy - radius); y <= Math.ceil(cy + radius); y++) {
      for (let x = Math.floor(cx - radius); x <= Math.ceil(cx + radius); x++) {
        const coverage = Math.min(1, Math.max(0, radius + 0.5 - Math.hypot(x + 0.5 - cx, y + 0.5 - cy)));
        if (coverage <= 0) continue;
        const i = (y * width + x) * 3;
        pixels[i] = pixels[i]! + (colour.r - pixels[i]!) * coverage;
        pixels[i + 1] = pixels[i + 1]! + (colour.g - pixels[i + 1]!) * coverage;
        pixels[i + 2] = pixels[i + 2]! + (colour.b - pixels[i + 2]!) * coverage;
      }
    }
  }
}

/** The slab (holder and label, drawn round the card's mm) warped onto the photo the way the card is: the card goes on top. */
async function placeSlab(
  pixels: Uint8ClampedArray,
  width: number,
  height: number,
  svg: string,
  { left, top, right, bottom }: { left: number; top: number; right: number; bottom: number },
  size: CardSize,
  cardQuadInPhoto: Point[],
): Promise<void> {
  const slab = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const mmToPhoto = homographyFromPoints(cardCornersMm(size), cardQuadInPhoto);
  const corners = [
    { x: 0, y: 0 },
    { x: slab.info.width, y: 0 },
    { x: slab.info.width, y: slab.info.height },
    { x: 0, y: slab.info.height },
  ];
  const inPhoto = [applyHomography(mmToPhoto, left, top), applyHomography(mmToPhoto, right, top), applyHomography(mmToPhoto, right, bottom), applyHomography(mmToPhoto, left, bottom)];
  placeCard(pixels, width, height, new Uint8Array(slab.data.buffer, slab.data.byteOffset, slab.data.byteLength), slab.info.width, slab.info.height, corners, inPhoto);
}

/** Warps the rendered card (RGBA) onto the photo so its corners land on `quad` (perspective, bilinear, alpha-blended). */
function placeCard(
  pixels: Uint8ClampedArray,
  width: number,
  height: number,
  card: Uint8Array,
  cardWidth: number,
  cardHeight: number,
  cardCorners: Point[],
  quad: Point[],
): void {
  const toCard = homographyFromPoints(quad, cardCorners);
  const minX = Math.max(0, Math.floor(Math.min(...quad.map((p) => p.x))) - 1);
  const maxX = Math.min(width - 1, Math.ceil(Math.max(...quad.map((p) => p.x))) + 1);
  const minY = Math.max(0, Math.floor(Math.min(...quad.map((p) => p.y))) - 1);
  const maxY = Math.min(height - 1, Math.ceil(Math.max(...quad.map((p) => p.y))) + 1);
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      // Pixel centres sit at +0.5 in both images' continuous coordinates.
      const w = toCard[6]! * (x + 0.5) + toCard[7]! * (y + 0.5) + toCard[8]!;
      const u = (toCard[0]! * (x + 0.5) + toCard[1]! * (y + 0.5) + toCard[2]!) / w - 0.5;
      const v = (toCard[3]! * (x + 0.5) + toCard[4]! * (y + 0.5) + toCard[5]!) / w - 0.5;
      if (u < -1 || v < -1 || u > cardWidth || v > cardHeight) continue;
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      const fx = u - x0;
      const fy = v - y0;
      let alpha = 0;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < 4; k++) {
        const sx = x0 + (k & 1);
        const sy = y0 + (k >> 1);
        if (sx < 0 || sy < 0 || sx >= cardWidth || sy >= cardHeight) continue;
        const weight = ((k & 1) === 1 ? fx : 1 - fx) * ((k >> 1) === 1 ? fy : 1 - fy);
        const j = (sy * cardWidth + sx) * 4;
        const a = (card[j + 3]! / 255) * weight;
        alpha += a;
        r += card[j]! * a;
        g += card[j + 1]! * a;
        b += card[j + 2]! * a;
      }
      if (alpha <= 0) continue;
      const i = (y * width + x) * 3;
      pixels[i] = r + pixels[i]! * (1 - alpha);
      pixels[i + 1] = g + pixels[i + 1]! * (1 - alpha);
      pixels[i + 2] = b + pixels[i + 2]! * (1 - alpha);
    }
  }
}

/** A scene in less light: every level scaled down, as a camera that did not raise its exposure records it. */
function dim(pixels: Uint8ClampedArray, light: number): void {
  if (light >= 1) return;
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.round(pixels[i]! * light);
}

/** Gaussian noise from a table of normal quantiles: the same distribution as Box–Muller, many times faster. */
function addNoise(pixels: Uint8ClampedArray, sigma: number, rng: Prng): void {
  if (sigma <= 0) return;
  const table = normalQuantiles(4096).map((z) => z * sigma);
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.round(pixels[i]! + table[(rng.next() * 4096) | 0]!);
}

function normalQuantiles(count: number): Float64Array {
  // Inverse normal CDF by bisection on erf-free logistic-corrected approximation is overkill: use Box–Muller
  // draws from a fixed seed, sorted, which converge on the quantiles.
  const draws = new Float64Array(count * 16);
  const rng = new Prng(12345);
  for (let i = 0; i < draws.length; i++) draws[i] = rng.gaussian();
  draws.sort();
  const table = new Float64Array(count);
  for (let k = 0; k < count; k++) table[k] = draws[k * 16 + 8]!;
  return table;
}
