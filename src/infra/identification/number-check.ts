import sharp, { type Sharp } from 'sharp';
import type { CardPicture } from './card-identifier.ts';
import { pictureCardSize } from './card-identifier.ts';

// When the collector number is printed too small or too blurred for OCR to read (a 1080p frame gives it 9 to 12
// pixels), the catalogue still narrows the card to the few bearing the name that was read; each of their printed
// numbers is then drawn and compared with the lettering found at the foot of the card. The best fit wins only when
// it fits well and clearly better than the rest; otherwise the card stays unmatched.

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export interface NumberFit {
  text: string;
  score: number;
}

/** Lettering clusters along the foot of the card, right to left: each a run of dark columns with small gaps. */
function footClusters(grey: Float32Array, width: number, height: number, pxPerMm: number): Box[] {
  let min = 255;
  let max = 0;
  for (const v of grey) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const threshold = min + 0.45 * (max - min);
  const columnDark = new Array<number>(width).fill(0);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (grey[y * width + x]! < threshold) columnDark[x]!++;
  const maxGap = Math.max(2, Math.round(0.45 * pxPerMm));
  const boxes: Box[] = [];
  let start = -1;
  let lastDark = -1;
  for (let x = 0; x <= width; x++) {
    const dark = x < width && columnDark[x]! > 0;
    if (dark) {
      if (start < 0) start = x;
      lastDark = x;
    } else if (start >= 0 && x - lastDark > maxGap) {
      boxes.push({ x0: start, x1: lastDark + 1, y0: 0, y1: height });
      start = -1;
    }
  }
  for (const box of boxes) {
    let y0 = height;
    let y1 = 0;
    for (let y = 0; y < height; y++)
      for (let x = box.x0; x < box.x1; x++)
        if (grey[y * width + x]! < threshold) {
          if (y < y0) y0 = y;
          if (y + 1 > y1) y1 = y + 1;
        }
    box.y0 = y0;
    box.y1 = y1;
  }
  // Lettering is 1 to 2.5 mm tall and wider than a dot; a rarity symbol (a filled circle, diamond or star) is
  // about as wide as tall and mostly ink, lettering is not.
  const fill = (b: Box) => {
    let dark = 0;
    for (let y = b.y0; y < b.y1; y++) for (let x = b.x0; x < b.x1; x++) if (grey[y * width + x]! < threshold) dark++;
    return dark / Math.max(1, (b.x1 - b.x0) * (b.y1 - b.y0));
  };
  const symbol = (b: Box) => {
    const aspect = (b.x1 - b.x0) / Math.max(1, b.y1 - b.y0);
    return aspect > 0.75 && aspect < 1.3 && fill(b) > 0.68;
  };
  return boxes.filter((b) => b.y1 - b.y0 >= 0.8 * pxPerMm && b.y1 - b.y0 <= 2.6 * pxPerMm && b.x1 - b.x0 >= 0.6 * pxPerMm && !symbol(b)).reverse();
}

async function greyOf(input: Sharp, width: number, height: number): Promise<Float32Array> {
  const data = await input.resize({ width, height, fit: 'fill', kernel: 'cubic' }).greyscale().raw().toBuffer();
  return Float32Array.from(data);
}

function ncc(a: Float32Array, b: Float32Array): number {
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < a.length; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= a.length;
  mb /= b.length;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]! - ma;
    const y = b[i]! - mb;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  return da === 0 || db === 0 ? 0 : num / Math.sqrt(da * db);
}

/** Of the fonts tried (Liberation Sans, its narrow cut, DejaVu Sans), DejaVu Sans Bold fits the old cards' numbers best. */
const FONT = 'DejaVu Sans';

/** Drawn numbers, kept: the same few hundred printed numbers come back card after card. */
const drawnCache = new Map<string, Promise<{ png: Buffer; aspect: number }>>();
const MAX_DRAWN = 4_000;

function drawnNumber(text: string): Promise<{ png: Buffer; aspect: number }> {
  let drawn = drawnCache.get(text);
  if (!drawn) {
    if (drawnCache.size >= MAX_DRAWN) drawnCache.delete(drawnCache.keys().next().value!);
    drawn = renderTight(text, FONT).then(async ({ image, aspect }) => ({ png: await image.png().toBuffer(), aspect }));
    drawn.catch(() => drawnCache.delete(text));
    drawnCache.set(text, drawn);
  }
  return drawn;
}

async function renderTight(text: string, font: string): Promise<{ image: Sharp; aspect: number }> {
  const size = 60;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size * text.length + 40}" height="${size * 2}"><rect width="100%" height="100%" fill="#fff"/><text x="20" y="${size * 1.4}" font-family="${font}" font-weight="bold" font-size="${size}" fill="#000">${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text></svg>`;
  const trimmed = await sharp(Buffer.from(svg)).greyscale().trim({ threshold: 60 }).toBuffer({ resolveWithObject: true });
  return { image: sharp(trimmed.data), aspect: trimmed.info.width / trimmed.info.height };
}

/**
 * How well each printed number fits the lettering at the foot of the card (0..1, normalised cross-correlation of
 * the drawn number against each cluster found, its shape's width for its height counted in). Best first.
 */
export async function fitPrintedNumbers(picture: CardPicture, texts: readonly string[]): Promise<NumberFit[]> {
  const { image } = picture;
  const { widthMm, heightMm } = pictureCardSize(picture);
  const pxPerMm = image.width / widthMm;
  const bottomMm = picture.innerFrame?.bottom ?? heightMm - 3;
  const top = Math.max(0, Math.round((bottomMm - 3.2) * pxPerMm));
  const bottom = Math.min(image.height, Math.round((bottomMm + 0.6) * pxPerMm));
  const left = Math.round(widthMm * 0.45 * pxPerMm);
  const right = Math.min(image.width, Math.round((widthMm - 1.5) * pxPerMm));
  const width = right - left;
  const height = bottom - top;
  const strip = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .extract({ left, top, width, height })
    .greyscale()
    .raw()
    .toBuffer();
  const grey = Float32Array.from(strip);
  const clusters = footClusters(grey, width, height, pxPerMm).slice(0, 3);
  if (clusters.length === 0) return [];
  const scale = 4;
  const patches = await Promise.all(
    clusters.map(async (box) => {
      const w = (box.x1 - box.x0) * scale;
      const h = (box.y1 - box.y0) * scale;
      const raw = sharp(Buffer.from(strip), { raw: { width, height, channels: 1 } }).extract({ left: box.x0, top: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0 });
      return { box, w, h, pixels: await greyOf(raw, w, h), aspect: (box.x1 - box.x0) / (box.y1 - box.y0) };
    }),
  );
  const fits = await Promise.all(
    [...new Set(texts)].map(async (text): Promise<NumberFit> => {
      const drawn = await drawnNumber(text);
      const drawnBuffer = drawn.png;
      let best = 0;
      for (const patch of patches) {
        const aspectFit = Math.min(drawn.aspect, patch.aspect) / Math.max(drawn.aspect, patch.aspect);
        if (aspectFit < 0.6) continue;
        const template = await greyOf(sharp(drawnBuffer).blur(0.4 * scale + 0.3), patch.w, patch.h);
        best = Math.max(best, ncc(template, patch.pixels) * Math.sqrt(aspectFit));
      }
      return { text, score: Math.round(best * 1000) / 1000 };
    }),
  );
  return fits.sort((a, b) => b.score - a.score);
}
