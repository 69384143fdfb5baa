import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../../contracts/measurement.ts';
import type { SyntheticSlab } from './spec.ts';

// A grader's slab as the renderer draws it round a card: a clear holder, a little larger than the card, and a white
// label above the card inside it. Sizes follow a PSA holder (about 79 × 128 mm, the label about 73 × 21 mm); all in
// mm on the card's own axes, the card's top-left corner at (0, 0).

/** The holder's outline round the card. */
export const SLAB_MM = { left: -8, top: -33, right: CARD_WIDTH_MM + 8, bottom: CARD_HEIGHT_MM + 7 };
/** The label: a little wider than the card, about a quarter of its height, 6 mm above it. */
export const SLAB_LABEL_MM = { left: -5, top: -27, right: CARD_WIDTH_MM + 5, bottom: -6 };
const HOLDER_CORNER_MM = 3;
/** Clear plastic over the table: a little lighter, more so along the holder's thick rim. */
const BODY_OPACITY = 0.12;
const RIM_MM = 2.5;
const RIM_OPACITY = 0.3;

const f = (value: number) => Number(value.toFixed(4)).toString();
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');

/** The slab as SVG (mm user units, rendered at `pxPerMm`), transparent where the table shows through; the card is drawn over it. */
export function slabSvg(slab: SyntheticSlab, pxPerMm: number): string {
  const { left, top, right, bottom } = SLAB_MM;
  const [width, height] = [right - left, bottom - top];
  const label = SLAB_LABEL_MM;
  const labelWidth = label.right - label.left;
  const font = 'font-family="DejaVu Sans, Liberation Sans, sans-serif"';
  const text = (x: number, y: number, size: number, content: string, extra = '') =>
    `<text x="${f(x)}" y="${f(y)}" ${font} font-size="${size}" ${extra}>${escapeXml(content)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(width * pxPerMm)}" height="${Math.round(height * pxPerMm)}" viewBox="${f(left)} ${f(top)} ${f(width)} ${f(height)}">`,
    `<rect x="${f(left)}" y="${f(top)}" width="${f(width)}" height="${f(height)}" rx="${HOLDER_CORNER_MM}" fill="#ffffff" fill-opacity="${BODY_OPACITY}"/>`,
    `<rect x="${f(left + RIM_MM / 2)}" y="${f(top + RIM_MM / 2)}" width="${f(width - RIM_MM)}" height="${f(height - RIM_MM)}" rx="${HOLDER_CORNER_MM}" fill="none" stroke="#ffffff" stroke-opacity="${RIM_OPACITY}" stroke-width="${RIM_MM}"/>`,
    `<rect x="${f(label.left)}" y="${f(label.top)}" width="${f(labelWidth)}" height="${f(label.bottom - label.top)}" fill="#fbfbf8" stroke="#9a9a9a" stroke-width="0.3"/>`,
    text(label.left + 3, label.top + 5, 2.6, slab.year ?? '', 'fill="#1a1a1a"'),
    text(label.left + 3, label.top + 9.5, 2.6, slab.name ?? '', 'fill="#1a1a1a"'),
    text(label.right - 3, label.top + 5.5, 3, slab.gradeText, 'fill="#1a1a1a" font-weight="bold" text-anchor="end"'),
    text(label.right - 3, label.top + 10, 2.6, slab.cert, 'fill="#1a1a1a" text-anchor="end"'),
    text(label.left + labelWidth / 2, label.top + 18, 5.5, slab.company, 'fill="#b01c22" font-weight="bold" text-anchor="middle"'),
    '</svg>',
  ].join('\n');
}
