import sharp from 'sharp';
import { CARD_FORMATS, cardCornersMm } from '../card-formats.ts';
import { homographyFromPoints } from '../geometry.ts';
import type { DecodedImage } from '../image.ts';
import { Prng } from './prng.ts';
import { cardQuad, renderSyntheticCard } from './render.ts';
import type { SyntheticCardSpec } from './spec.ts';

// A tilt shot drawn (issue 31): a card held under a lamp and tilted slowly, as N frames of a short video. The lamp's
// direction sweeps half a turn over the frames; the card's gloss shows a broad sheen that wanders across it, and the
// whole card brightens and dims. Print stays as printed in every frame. A scratch's walls send the lamp back only while
// the lamp stands across it, so it glints in two or three frames; a dent's bowl lights on the side facing the lamp.
// Each frame the hand holding the card moves it a little: shifted, turned and tipped.

/** A scratch in the gloss: invisible in flat light, a fine bright line while the lamp stands across it. Positions in mm. */
export interface TiltScratch {
  x: number;
  y: number;
  lengthMm: number;
  angleDeg: number;
  /** Default 0.1 mm. */
  widthMm?: number;
}

/** A dent: a shallow bowl `diameterMm` across, centred on (x, y) mm. */
export interface TiltDent {
  x: number;
  y: number;
  diameterMm: number;
}

export interface TiltSequenceSpec {
  /** The card's print, as for a photo (its own `defects` are print-like: drawn in every frame). */
  card?: Omit<SyntheticCardSpec, 'photo' | 'pxPerMm' | 'variant'>;
  scratches?: TiltScratch[];
  dents?: TiltDent[];
  /** Default 10. */
  frames?: number;
  /** The frames' resolution over the card, pixels per mm. Default 10 (a card filling most of a 1080p frame). */
  pxPerMm?: number;
  /** How far the hand moves the card between frames, at most: shift in mm, turn in degrees. Default 1.5 and 1.5. */
  handMovement?: { shiftMm: number; rotationDeg: number };
  /** The table's colour, #rrggbb. Default a dark grey. */
  background?: string;
  /** Camera noise, standard deviation in levels. Default 2. */
  noise?: number;
}

export interface TiltSequence {
  /** The frames as a camera's stills: JPEG. */
  frames: Uint8Array[];
  /** The same frames' pixels (RGB), for a video file. */
  pixels: DecodedImage[];
}

/** The card's print is drawn once at this resolution and photographed from it in every frame. */
const PRINT_PX_PER_MM = 16;
/** The print is drawn with this much table round it. */
const PRINT_MARGIN_MM = 8;
/** The card fills this share of the frame's height. */
const CARD_SHARE_OF_FRAME = 0.78;
const FRAME_ASPECT = 0.75;
/** How strongly a scratch's walls send the lamp back at their best (levels), and over how many degrees of the lamp's turn (rough walls, no mirror). */
const SCRATCH_GLINT_LEVELS = 170;
const SCRATCH_GLINT_DEG = 30;
/** A dent's wall facing the lamp is lit, and the other shaded, by up to this many levels. */
const DENT_LIGHT_LEVELS = 80;
/** The card's gloss: a broad sheen this bright at its middle (levels) and this wide (mm, standard deviation). */
const SHEEN_LEVELS = 45;
const SHEEN_SIGMA_MM = 18;
/** A holo's foil twinkles: this many glints per cm² of art, each flashing over this many degrees of the lamp's turn. */
const TWINKLES_PER_CM2 = 0.6;
const TWINKLE_DEG = 10;
const TWINKLE_LEVELS = 150;
const TWINKLE_SEED = 0x7a11;
const JPEG_QUALITY = 88;

interface Twinkle {
  x: number;
  y: number;
  radiusMm: number;
  azimuthDeg: number;
}

/** Draws the tilt shot: the same spec and seed give the same bytes. */
export async function renderTiltSequence(spec: TiltSequenceSpec, seed: number): Promise<TiltSequence> {
  const rng = new Prng(seed);
  const card = spec.card ?? {};
  const size = CARD_FORMATS.find((f) => f.id === (card.format ?? 'standard'))!;
  const print = await renderPrint(card, spec.background ?? '#2b2f36', seed);
  const count = spec.frames ?? 10;
  const pxPerMm = spec.pxPerMm ?? 10;
  const hand = spec.handMovement ?? { shiftMm: 1.5, rotationDeg: 1.5 };
  const height = Math.round((size.heightMm * pxPerMm) / CARD_SHARE_OF_FRAME);
  const width = Math.round(height * FRAME_ASPECT);
  const twinkles = card.holo ? foilTwinkles(size, seed ^ TWINKLE_SEED) : [];
  const frames: Uint8Array[] = [];
  const pixels: DecodedImage[] = [];
  for (let f = 0; f < count; f++) {
    const t = count > 1 ? f / (count - 1) : 0.5;
    const quad = cardQuad(
      size.widthMm * pxPerMm,
      size.heightMm * pxPerMm,
      width / 2 + rng.range(-1, 1) * hand.shiftMm * pxPerMm,
      height / 2 + rng.range(-1, 1) * hand.shiftMm * pxPerMm,
      rng.range(-1, 1) * hand.rotationDeg,
      rng.range(-1, 1) * 0.015,
    );
    const lamp: Lamp = {
      azimuthDeg: 180 * t,
      gain: 0.85 + 0.2 * Math.sin(Math.PI * t),
      sheenX: -10 + (size.widthMm + 20) * t,
      sheenY: size.heightMm + 10 - (size.heightMm + 20) * t,
    };
    const frame = drawFrame({ print, size, width, height, pxPerMm, quad, lamp, scratches: spec.scratches ?? [], dents: spec.dents ?? [], twinkles, noise: spec.noise ?? 2, rng });
    pixels.push(frame);
    const jpeg = await sharp(frame.data, { raw: { width, height, channels: 3 } }).jpeg({ quality: JPEG_QUALITY }).toBuffer();
    frames.push(new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength));
  }
  return { frames, pixels };
}

interface Print {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The card's print with PRINT_MARGIN_MM of table round it, upright, at PRINT_PX_PER_MM: a photo drawn square on. */
async function renderPrint(card: NonNullable<TiltSequenceSpec['card']>, background: string, seed: number): Promise<Print> {
  const size = CARD_FORMATS.find((f) => f.id === (card.format ?? 'standard'))!;
  const width = Math.round((size.widthMm + 2 * PRINT_MARGIN_MM) * PRINT_PX_PER_MM);
  const height = Math.round((size.heightMm + 2 * PRINT_MARGIN_MM) * PRINT_PX_PER_MM);
  const photo = await renderSyntheticCard(
    { ...card, pxPerMm: PRINT_PX_PER_MM, photo: { cardScale: (size.heightMm * PRINT_PX_PER_MM) / height, aspect: width / height, background, format: 'png' } },
    seed,
  );
  const { data, info } = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** Where the foil twinkles: spots over the art (the card less 6 mm round it), each at its own angle of the lamp. */
function foilTwinkles(size: { widthMm: number; heightMm: number }, seed: number): Twinkle[] {
  const rng = new Prng(seed);
  const inset = 6;
  const count = Math.round((((size.widthMm - 2 * inset) * (size.heightMm - 2 * inset)) / 100) * TWINKLES_PER_CM2);
  return Array.from({ length: count }, () => ({
    x: rng.range(inset, size.widthMm - inset),
    y: rng.range(inset, size.heightMm - inset),
    radiusMm: rng.range(0.15, 0.45),
    azimuthDeg: rng.range(0, 180),
  }));
}

interface Lamp {
  /** Where the lamp stands round the card, degrees from the x axis. */
  azimuthDeg: number;
  /** The card's brightness in this frame, a factor. */
  gain: number;
  /** The middle of the gloss's sheen, mm on the card. */
  sheenX: number;
  sheenY: number;
}

interface FrameScene {
  print: Print;
  size: { widthMm: number; heightMm: number };
  width: number;
  height: number;
  pxPerMm: number;
  quad: ReturnType<typeof cardQuad>;
  lamp: Lamp;
  scratches: readonly TiltScratch[];
  dents: readonly TiltDent[];
  twinkles: readonly Twinkle[];
  noise: number;
  rng: Prng;
}

/** How far the lamp's direction is from `azimuthDeg`, degrees, on a half turn (a line has no front and back). */
function awayDeg(lampDeg: number, azimuthDeg: number): number {
  const d = Math.abs((((lampDeg - azimuthDeg) % 180) + 180) % 180);
  return Math.min(d, 180 - d);
}

function drawFrame(scene: FrameScene): DecodedImage {
  const { print, size, width, height, pxPerMm, lamp, rng } = scene;
  const toMm = homographyFromPoints(scene.quad, cardCornersMm(size));
  const data = new Uint8Array(width * height * 3);
  const pixelMm = 1 / pxPerMm;
  const lampRad = (lamp.azimuthDeg * Math.PI) / 180;
  const scratchLight = scene.scratches.map((s) => {
    const angle = (s.angleDeg * Math.PI) / 180;
    const strength = SCRATCH_GLINT_LEVELS * Math.exp(-((awayDeg(lamp.azimuthDeg, s.angleDeg + 90) / SCRATCH_GLINT_DEG) ** 2));
    const half = s.lengthMm / 2;
    return { s, ux: Math.cos(angle), uy: Math.sin(angle), half, strength, cover: Math.min(1, (s.widthMm ?? 0.1) / pixelMm) };
  });
  const twinkling = scene.twinkles.map((k) => ({ k, strength: TWINKLE_LEVELS * Math.exp(-((awayDeg(lamp.azimuthDeg, k.azimuthDeg) / TWINKLE_DEG) ** 2)) })).filter((k) => k.strength > 2);
  const sample = new Float64Array(3);
  const noise = noiseTable(rng, scene.noise);
  let n = rng.int(0, NOISE_TABLE_SIZE - 1);
  const h = toMm;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const w = h[6]! * x + h[7]! * y + h[8]!;
      const mx = (h[0]! * x + h[1]! * y + h[2]!) / w;
      const my = (h[3]! * x + h[4]! * y + h[5]!) / w;
      samplePrint(print, mx, my, sample);
      const o = (y * width + x) * 3;
      // The noise table is read at a stride prime to its size, so neighbouring pixels never repeat a pattern.
      n = (n + NOISE_STRIDE) % NOISE_TABLE_SIZE;
      if (!insideCard(mx, my, size)) {
        for (let c = 0; c < 3; c++) data[o + c] = clamp(sample[c]! * (0.92 + 0.08 * lamp.gain) + noise[(n + c * 977) % NOISE_TABLE_SIZE]!);
        continue;
      }
      let light = SHEEN_LEVELS * Math.exp(-((mx - lamp.sheenX) ** 2 + (my - lamp.sheenY) ** 2) / (2 * SHEEN_SIGMA_MM ** 2));
      for (const { s, ux, uy, half, strength, cover } of scratchLight) {
        const dx = mx - s.x;
        const dy = my - s.y;
        const along = Math.max(-half, Math.min(half, dx * ux + dy * uy));
        const d = Math.hypot(dx - along * ux, dy - along * uy);
        if (d < pixelMm) light += strength * cover * (1 - d / pixelMm);
      }
      for (const dent of scene.dents) {
        const r = Math.hypot(mx - dent.x, my - dent.y);
        const radius = dent.diameterMm / 2;
        if (r >= radius) continue;
        const facing = ((mx - dent.x) * Math.cos(lampRad) + (my - dent.y) * Math.sin(lampRad)) / radius;
        light += DENT_LIGHT_LEVELS * facing * Math.sin((Math.PI * r) / radius);
      }
      for (const { k, strength } of twinkling) {
        const r = Math.hypot(mx - k.x, my - k.y);
        if (r < k.radiusMm + pixelMm) light += strength * Math.min(1, (k.radiusMm + pixelMm - r) / pixelMm);
      }
      for (let c = 0; c < 3; c++) data[o + c] = clamp(sample[c]! * lamp.gain + light + noise[(n + c * 977) % NOISE_TABLE_SIZE]!);
    }
  }
  return { data, width, height, channels: 3 };
}

/** The card's outline: its rectangle less the rounded corners (3 mm). */
function insideCard(x: number, y: number, size: { widthMm: number; heightMm: number }): boolean {
  if (x < 0 || y < 0 || x > size.widthMm || y > size.heightMm) return false;
  const r = 3;
  const cx = Math.min(Math.max(x, r), size.widthMm - r);
  const cy = Math.min(Math.max(y, r), size.heightMm - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** The print's RGB at (x, y) mm on the card, bilinear, the table's colour past the drawn margin. */
function samplePrint(print: Print, xMm: number, yMm: number, out: Float64Array): void {
  const px = Math.min(print.width - 1.001, Math.max(0, (xMm + PRINT_MARGIN_MM) * PRINT_PX_PER_MM - 0.5));
  const py = Math.min(print.height - 1.001, Math.max(0, (yMm + PRINT_MARGIN_MM) * PRINT_PX_PER_MM - 0.5));
  const x0 = Math.floor(px);
  const y0 = Math.floor(py);
  const fx = px - x0;
  const fy = py - y0;
  const i = (y0 * print.width + x0) * 3;
  const j = i + print.width * 3;
  for (let c = 0; c < 3; c++) {
    out[c] = (print.data[i + c]! * (1 - fx) + print.data[i + 3 + c]! * fx) * (1 - fy) + (print.data[j + c]! * (1 - fx) + print.data[j + 3 + c]! * fx) * fy;
  }
}

/** Camera noise is drawn from a table of this many normal samples (Box–Muller for each of a million pixels is slow). */
const NOISE_TABLE_SIZE = 65_521;
const NOISE_STRIDE = 7_919;

function noiseTable(rng: Prng, sigma: number): Float32Array {
  return Float32Array.from({ length: NOISE_TABLE_SIZE }, () => rng.gaussian() * sigma);
}

const clamp = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : Math.round(value));
