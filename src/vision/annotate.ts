import sharp from 'sharp';
import { measuredCardSize } from '../contracts/measurement.ts';
import type { Defect, SideMeasurement } from '../contracts/measurement.ts';
import { PICTURE_PX_PER_MM } from './flatten.ts';
import type { DecodedImage } from './image.ts';

// The annotated picture of one graded side (PNG): the flattened card with what was measured drawn on it,
// so a person sees why the grade is what it is: the detected outline, the inner border lines with their
// widths in mm and the ratios, and a labelled box on every defect.

const CORNER_RADIUS_MM = 3;
/** Labels stacked one above another (a wrapped label's lines, a label moved a line out) lie this many letter heights apart: their chips, 1.25 high, just clear. */
const LINE_SPACING = 1.4;
/** Boxes are drawn at least this big, so a 0.3 mm defect is still visibly boxed. */
const MIN_BOX_PX = 12;

const COLOURS = { outline: '#22c55e', border: '#06b6d4', defect: '#ef4444' };

const KIND_LABEL: Record<Defect['kind'], string> = {
  'corner-fray': 'corner fray',
  'corner-whitening': 'corner whitening',
  'edge-nick': 'nick',
  'edge-whitening': 'edge whitening',
  scratch: 'scratch',
  'print-line': 'print line',
  spot: 'spot',
  crease: 'crease',
  dent: 'dent',
};

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const px = (value: number) => value.toFixed(1);

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

type Anchor = 'start' | 'middle' | 'end';

/**
 * Writes labels, leaving out one that would cover a label already written or a defect's box, so a busy card still
 * reads.
 */
function labelLayer(size: number, boxes: readonly Rect[], picture: { width: number; height: number }) {
  const taken: Rect[] = [...boxes];
  // The chip under the lettering: bold sans is about 0.68 of its size wide a character, plus a little room; kept
  // inside the picture (the text moves with it).
  const pad = size * 0.25;
  const areaOf = (x: number, y: number, text: string, anchor: Anchor): Rect & { shift: number } => {
    const textWidth = text.length * size * 0.68;
    const left = (anchor === 'start' ? x : anchor === 'end' ? x - textWidth : x - textWidth / 2) - pad;
    const width = textWidth + 2 * pad;
    const shift = left < 2 ? 2 - left : left + width > picture.width - 2 ? picture.width - 2 - (left + width) : 0;
    return { x: left + shift, y: y - size * 0.95, width, height: size * 1.25, shift };
  };
  const isFree = (area: Rect) => !taken.some((other) => overlaps(other, area));
  return {
    /** `text` in lines whose chips each fit across the picture (a word longer than that alone on its line). */
    wrap(text: string): string[] {
      const fits = (line: string) => areaOf(0, 0, line, 'start').width <= picture.width - 4;
      const lines: string[] = [];
      for (const word of text.split(' ')) {
        const last = lines.length - 1;
        if (last >= 0 && fits(`${lines[last]} ${word}`)) lines[last] = `${lines[last]} ${word}`;
        else lines.push(word);
      }
      return lines;
    },
    /** At the first of the baselines `ys` where the label covers nothing, or at the first one if it would everywhere. */
    writeFirstFree(x: number, ys: readonly number[], text: string, anchor: Anchor, colour: string): string {
      const y = ys.find((candidate) => isFree(areaOf(x, candidate, text, anchor))) ?? ys[0]!;
      return this.write(x, y, text, anchor, colour, { always: true });
    },
    /** At the first free place of `places`, or nowhere when each would cover a label or a box. */
    writeAnyFree(places: readonly { x: number; y: number; anchor: Anchor }[], text: string, colour: string): string {
      const place = places.find(({ x, y, anchor }) => isFree(areaOf(x, y, text, anchor)));
      return place ? this.write(place.x, place.y, text, place.anchor, colour) : '';
    },
    write(x: number, y: number, text: string, anchor: Anchor, colour: string, options: { always?: boolean } = {}): string {
      const area = areaOf(x, y, text, anchor);
      if (!options.always && !isFree(area)) return '';
      taken.push(area);
      x += area.shift;
      // Dark lettering on a light chip edged in the mark's colour reads on any card colour and any art (issue 18).
      return (
        `<rect x="${px(area.x)}" y="${px(area.y)}" width="${px(area.width)}" height="${px(area.height)}" rx="${px(size * 0.25)}" ` +
        `fill="#ffffff" fill-opacity="0.92" stroke="${colour}" stroke-width="2"/>` +
        `<text x="${px(x)}" y="${px(y)}" text-anchor="${anchor}" font-family="DejaVu Sans, Liberation Sans, sans-serif" ` +
        `font-size="${size}" font-weight="bold" fill="#0f172a">${escape(text)}</text>`
      );
    },
  };
}
type LabelLayer = ReturnType<typeof labelLayer>;

function centeringMarks(measurement: SideMeasurement, scale: number, width: number, height: number, size: number, labels: LabelLayer): string {
  const { centering } = measurement;
  if (!centering.measurable) {
    // A reason naming two sides is wider than the card: it is wrapped, so no line runs off it.
    // An axis whose two borders were found is still given, as the measured card's ratios are.
    const measuredAxis = centering.horizontal ? ` L/R ${centering.horizontal.ratio}` : centering.vertical ? ` T/B ${centering.vertical.ratio}` : '';
    const lines = labels.wrap(`centering not measurable (${centering.reason})${measuredAxis}`);
    const first = height / 2 - ((lines.length - 1) * size * LINE_SPACING) / 2;
    return lines.map((line, i) => labels.write(width / 2, first + i * size * LINE_SPACING, line, 'middle', COLOURS.border, { always: true })).join('');
  }
  const frame = centering.innerFrame;
  const left = frame.left * scale;
  const right = frame.right * scale;
  const top = frame.top * scale;
  const bottom = frame.bottom * scale;
  const line = (x1: number, y1: number, x2: number, y2: number) =>
    `<line x1="${px(x1)}" y1="${px(y1)}" x2="${px(x2)}" y2="${px(y2)}" stroke="${COLOURS.border}" stroke-width="2" stroke-dasharray="8 5"/>`;
  const midY = height / 2;
  const midX = width / 2;
  const always = { always: true };
  return [
    line(left, 0, left, height),
    line(right, 0, right, height),
    line(0, top, width, top),
    line(0, bottom, width, bottom),
    labels.write(left + 6, midY - size * 0.4, `${centering.leftMm.toFixed(2)} mm`, 'start', COLOURS.border, always),
    labels.write(right - 6, midY + size * LINE_SPACING, `${centering.rightMm.toFixed(2)} mm`, 'end', COLOURS.border, always),
    labels.write(midX, top + size * 1.3, `${centering.topMm.toFixed(2)} mm`, 'middle', COLOURS.border, always),
    labels.write(midX, bottom - size * 0.5, `${centering.bottomMm.toFixed(2)} mm`, 'middle', COLOURS.border, always),
  ].join('');
}

/**
 * The ratios, written after the defects' labels: in the middle of the card, or a little above or below it, clear of
 * any defect's box and label.
 */
function ratioMark(measurement: SideMeasurement, width: number, height: number, size: number, labels: LabelLayer): string {
  const { centering } = measurement;
  if (!centering.measurable) return '';
  const tilt = centering.tilted ? ' (print tilted)' : '';
  return labels.writeFirstFree(
    width / 2,
    [-0.2, 2.4, -2.8, 5, -5.4, 7.6, -8].map((lines) => height / 2 + size * lines),
    `L/R ${centering.horizontal.ratio}  T/B ${centering.vertical.ratio}${tilt}`,
    'middle',
    COLOURS.border,
  );
}

/** Where a defect's box is drawn: at least MIN_BOX_PX each way, inside the picture. */
function defectBox(defect: Defect, scale: number, width: number, height: number): Rect {
  const w = Math.min(width - 2, Math.max(MIN_BOX_PX, defect.box.width * scale));
  const h = Math.min(height - 2, Math.max(MIN_BOX_PX, defect.box.height * scale));
  const x = Math.min(Math.max(1, defect.box.x * scale - (w - defect.box.width * scale) / 2), width - 1 - w);
  const y = Math.min(Math.max(1, defect.box.y * scale - (h - defect.box.height * scale) / 2), height - 1 - h);
  return { x, y, width: w, height: h };
}

/** A box on every defect; labels largest defect first, so the ones left out for lack of room are the small ones. */
function defectMarks(defects: readonly Defect[], scale: number, width: number, height: number, size: number, labels: LabelLayer): string {
  const marks: string[] = [];
  const bySize = defects.map((defect, index) => ({ defect, index })).sort((a, b) => b.defect.sizeMm - a.defect.sizeMm || a.index - b.index);
  for (const { defect } of bySize) {
    const { x, y, width: w, height: h } = defectBox(defect, scale, width, height);
    marks.push(`<rect x="${px(x)}" y="${px(y)}" width="${px(w)}" height="${px(h)}" fill="none" stroke="${COLOURS.defect}" stroke-width="2"/>`);

    // Hundredths under a millimetre, as the result screen lists them (0.95 mm, not 0.9).
    const text = `${KIND_LABEL[defect.kind]} ${defect.sizeMm.toFixed(defect.sizeMm < 1 ? 2 : 1)} mm`;
    const above = y - size * 0.4;
    const below = y + h + size * 1.1;
    const anchor = x + w / 2 < width * 0.25 ? 'start' : x + w / 2 > width * 0.75 ? 'end' : 'middle';
    const textX = anchor === 'start' ? x : anchor === 'end' ? x + w : x + w / 2;
    // Above the box (below it at the top of the card), else the other side of it, else a line further out.
    const baselines = (above > size ? [above, below, above - size * LINE_SPACING, below + size * LINE_SPACING] : [below, below + size * LINE_SPACING]).filter((b) => b < height - size * 0.3);
    marks.push(labels.writeAnyFree(baselines.map((baseline) => ({ x: textX, y: baseline, anchor })), text, COLOURS.defect));
  }
  return marks.join('');
}

export function annotationSvg(measurement: SideMeasurement, pxPerMm = PICTURE_PX_PER_MM): string {
  const { widthMm, heightMm } = measuredCardSize(measurement);
  const width = Math.round(widthMm * pxPerMm);
  const height = Math.round(heightMm * pxPerMm);
  // 2.2 mm lettering: at least 12 px on screen wherever the picture is shown 345 px wide or more (a phone's column).
  const size = Math.max(12, Math.round(2.2 * pxPerMm));
  const radius = measurement.cornerStyle === 'rounded' ? CORNER_RADIUS_MM * pxPerMm : 0;
  const labels = labelLayer(size, measurement.defects.map((defect) => defectBox(defect, pxPerMm, width, height)), { width, height });
  const outline = `<rect x="1.5" y="1.5" width="${width - 3}" height="${height - 3}" rx="${px(radius)}" fill="none" stroke="${COLOURS.outline}" stroke-width="3"/>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    outline,
    centeringMarks(measurement, pxPerMm, width, height, size, labels),
    defectMarks(measurement.defects, pxPerMm, width, height, size, labels),
    ratioMark(measurement, width, height, size, labels),
    '</svg>',
  ].join('');
}

/**
 * PNG of a picture of the whole card other than its face (the tilt shot's reflected light) at `pxPerMm`, with a
 * labelled box on each of `defects`, drawn as on the annotated face.
 */
export async function annotateDefects(picture: DecodedImage, defects: readonly Defect[], pxPerMm = PICTURE_PX_PER_MM): Promise<Uint8Array> {
  const { width, height } = picture;
  const lettering = Math.max(12, Math.round(2.2 * pxPerMm));
  const labels = labelLayer(lettering, defects.map((defect) => defectBox(defect, pxPerMm, width, height)), { width, height });
  const radius = CORNER_RADIUS_MM * pxPerMm;
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect x="1.5" y="1.5" width="${width - 3}" height="${height - 3}" rx="${px(radius)}" fill="none" stroke="${COLOURS.outline}" stroke-width="3"/>`,
    defectMarks(defects, pxPerMm, width, height, lettering, labels),
    '</svg>',
  ].join('');
  const card = Buffer.from(picture.data);
  blendOver(card, await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer(), width);
  const png = await sharp(card, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/**
 * PNG of the flattened card (upright, the whole card of its format at any resolution; at 10 px/mm, 630 × 880 for a
 * 63 × 88 mm one, every box and label is legible) with the measurements drawn on it. Same pixels and measurements, same bytes.
 */
export async function annotateSide(flat: DecodedImage, measurement: SideMeasurement, pxPerMm = PICTURE_PX_PER_MM): Promise<Uint8Array> {
  const { widthMm, heightMm } = measuredCardSize(measurement);
  const width = Math.round(widthMm * pxPerMm);
  const height = Math.round(heightMm * pxPerMm);
  const atSize = flat.width === width && flat.height === height;
  const [card, overlay] = await Promise.all([
    // A copy either way: the overlay is blended into it.
    atSize
      ? Buffer.from(flat.data)
      : sharp(flat.data, { raw: { width: flat.width, height: flat.height, channels: flat.channels } }).resize({ width, height, fit: 'fill' }).raw().toBuffer(),
    sharp(Buffer.from(annotationSvg(measurement, pxPerMm))).ensureAlpha().raw().toBuffer(),
  ]);
  blendOver(card, overlay, width);
  // Level 1: a quarter of the time of zlib's default 6 (10 ms instead of 41 for a 12-MP photo's card), for about
  // 60% more bytes: a photo's noise hardly compresses anyway, and the picture is stored once and cached for good.
  const png = await sharp(card, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/**
 * Lays the rendered overlay (RGBA, straight alpha) over the card (RGB) in place. Most of the overlay is clear,
 * so this loop is cheaper than sharp's general compositing.
 */
function blendOver(card: Uint8Array, overlay: Uint8Array, width: number): void {
  // One call per row: V8 optimises a hot function far better than a loop it entered on the stack, and keeps it.
  for (let row = 0; row * width * 3 < card.length; row++) blendRow(card, overlay, row * width, (row + 1) * width);
}

function blendRow(card: Uint8Array, overlay: Uint8Array, from: number, to: number): void {
  for (let p = from * 3, q = from * 4; p < to * 3; p += 3, q += 4) {
    const alpha = overlay[q + 3]!;
    if (alpha === 0) continue;
    const rest = 255 - alpha;
    card[p] = (overlay[q]! * alpha + card[p]! * rest + 127) / 255;
    card[p + 1] = (overlay[q + 1]! * alpha + card[p + 1]! * rest + 127) / 255;
    card[p + 2] = (overlay[q + 2]! * alpha + card[p + 2]! * rest + 127) / 255;
  }
}
