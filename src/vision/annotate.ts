import sharp from 'sharp';
import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../contracts/measurement.ts';
import type { Defect, SideMeasurement } from '../contracts/measurement.ts';
import type { DecodedImage } from './image.ts';

// The annotated picture of one graded side (PNG): the flattened card with what was measured drawn on it,
// so a person sees why the grade is what it is: the detected outline, the inner border lines with their
// widths in mm and the ratios, and a labelled box on every defect.

/** 10 px/mm (630 × 880): every box and label is legible, and the PNG stays small and quick to encode. */
export const ANNOTATED_PX_PER_MM = 10;
const CORNER_RADIUS_MM = 3;
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
};

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const px = (value: number) => value.toFixed(1);

function label(x: number, y: number, text: string, anchor: 'start' | 'middle' | 'end', colour: string, size: number): string {
  // A dark halo under light lettering reads on any card colour.
  return (
    `<text x="${px(x)}" y="${px(y)}" text-anchor="${anchor}" font-family="DejaVu Sans, Liberation Sans, sans-serif" ` +
    `font-size="${size}" font-weight="bold" fill="${colour}" stroke="#000000" stroke-width="3" paint-order="stroke">${escape(text)}</text>`
  );
}

function centeringMarks(measurement: SideMeasurement, scale: number, width: number, height: number, size: number): string {
  const { centering } = measurement;
  if (!centering.measurable) {
    return label(width / 2, height / 2, `centering not measurable (${centering.reason})`, 'middle', COLOURS.border, size);
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
  const tilt = centering.tilted ? ' (print tilted)' : '';
  return [
    line(left, 0, left, height),
    line(right, 0, right, height),
    line(0, top, width, top),
    line(0, bottom, width, bottom),
    label(left + 6, midY - size * 0.4, `${centering.leftMm.toFixed(2)} mm`, 'start', COLOURS.border, size),
    label(right - 6, midY + size * 1.4, `${centering.rightMm.toFixed(2)} mm`, 'end', COLOURS.border, size),
    label(midX, top + size * 1.3, `${centering.topMm.toFixed(2)} mm`, 'middle', COLOURS.border, size),
    label(midX, bottom - size * 0.5, `${centering.bottomMm.toFixed(2)} mm`, 'middle', COLOURS.border, size),
    label(midX, midY - size * 0.2, `L/R ${centering.horizontal.ratio}  T/B ${centering.vertical.ratio}${tilt}`, 'middle', COLOURS.border, size),
  ].join('');
}

function defectBox(defect: Defect, scale: number, width: number, height: number, size: number): string {
  let w = Math.max(MIN_BOX_PX, defect.box.width * scale);
  let h = Math.max(MIN_BOX_PX, defect.box.height * scale);
  let x = defect.box.x * scale - (w - defect.box.width * scale) / 2;
  let y = defect.box.y * scale - (h - defect.box.height * scale) / 2;
  x = Math.min(Math.max(1, x), width - 1 - Math.min(w, width - 2));
  y = Math.min(Math.max(1, y), height - 1 - Math.min(h, height - 2));
  w = Math.min(w, width - 2);
  h = Math.min(h, height - 2);
  const text = `${KIND_LABEL[defect.kind]} ${defect.sizeMm.toFixed(1)} mm`;
  // The label sits above the box, or below it when the box is at the top of the card; inside the picture either way.
  const above = y - size * 0.4 > size;
  const textY = above ? y - size * 0.4 : y + h + size * 1.1;
  const anchor = x + w / 2 < width * 0.25 ? 'start' : x + w / 2 > width * 0.75 ? 'end' : 'middle';
  const textX = anchor === 'start' ? x : anchor === 'end' ? x + w : x + w / 2;
  return (
    `<rect x="${px(x)}" y="${px(y)}" width="${px(w)}" height="${px(h)}" fill="none" stroke="${COLOURS.defect}" stroke-width="2"/>` +
    label(textX, textY, text, anchor, COLOURS.defect, size)
  );
}

export function annotationSvg(measurement: SideMeasurement, pxPerMm = ANNOTATED_PX_PER_MM): string {
  const width = Math.round(CARD_WIDTH_MM * pxPerMm);
  const height = Math.round(CARD_HEIGHT_MM * pxPerMm);
  const size = Math.max(10, Math.round(1.4 * pxPerMm));
  const radius = measurement.cornerStyle === 'rounded' ? CORNER_RADIUS_MM * pxPerMm : 0;
  const outline = `<rect x="1.5" y="1.5" width="${width - 3}" height="${height - 3}" rx="${px(radius)}" fill="none" stroke="${COLOURS.outline}" stroke-width="3"/>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    outline,
    centeringMarks(measurement, pxPerMm, width, height, size),
    ...measurement.defects.map((defect) => defectBox(defect, pxPerMm, width, height, size)),
    '</svg>',
  ].join('');
}

/**
 * PNG of the flattened card (upright, the whole 63 × 88 mm at any resolution) with the measurements drawn on it.
 * Same pixels and measurements, same bytes.
 */
export async function annotateSide(flat: DecodedImage, measurement: SideMeasurement, pxPerMm = ANNOTATED_PX_PER_MM): Promise<Uint8Array> {
  const width = Math.round(CARD_WIDTH_MM * pxPerMm);
  const height = Math.round(CARD_HEIGHT_MM * pxPerMm);
  const png = await sharp(flat.data, { raw: { width: flat.width, height: flat.height, channels: flat.channels } })
    .resize({ width, height, fit: 'fill' })
    .composite([{ input: Buffer.from(annotationSvg(measurement, pxPerMm)), top: 0, left: 0 }])
    .png({ compressionLevel: 6 })
    .toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
