import type { CardSize } from '../card-formats.ts';
import type { SyntheticSlab } from './spec.ts';

// A grader's slab as the renderer draws it round a card: a clear holder, a little larger than the card, and a label
// above the card inside it (white paper; PSA's in a red frame, in PSA's layout). Sizes follow a PSA holder (about 79 × 128 mm, the label about 73 × 21 mm); all in
// mm on the card's own axes, the card's top-left corner at (0, 0).

/** The holder's outline round a card of `size` (a vintage card's holder is as much larger than it as a modern one's). */
export function slabMm(size: CardSize) {
  return { left: -8, top: -33, right: size.widthMm + 8, bottom: size.heightMm + 7 };
}
/**
 * A listing photo's holder: the seller's crop takes the label off, the photo's top 9 mm above the card, so what is
 * left of a 63 × 88 mm card's holder is card-shaped (77 × 104 mm).
 */
function listingSlabMm(size: CardSize) {
  return { left: -7, top: -9, right: size.widthMm + 7, bottom: size.heightMm + 7 };
}
/** The part of the holder the photo shows, round a card of `size`. */
export function slabOutlineMm(slab: SyntheticSlab, size: CardSize) {
  return slab.look === 'listing' ? listingSlabMm(size) : slabMm(size);
}
/** The label: a little wider than the card, about a quarter of a 63 × 88 mm card's height, 6 mm above it. */
function slabLabelMm(size: CardSize) {
  return { left: -5, top: -27, right: size.widthMm + 5, bottom: -6 };
}
const HOLDER_CORNER_MM = 3;
/** Clear plastic over the table: a little lighter, more so along the holder's thick rim. */
const BODY_OPACITY = 0.12;
const RIM_MM = 2.5;
const RIM_OPACITY = 0.3;
/** A scanned holder: the well 2 mm round the card, its wall's two faces 1.6 mm apart outside it. */
const SCANNED_WELL_MM = 2;
const SCANNED_WALL_INNER_MM = 3.4;
const SCANNED_WALL_OUTER_MM = 5;
const SCANNED_BODY = '#6b6e72';
const SCANNED_WALL = '#9a9da1';
const SCANNED_WALL_FACE = '#50535a';
const SCANNED_WELL = '#141517';
/**
 * A listing photo's holder at 5 px/mm: clear plastic lit light grey, the wall one light ridge (its two faces a pixel
 * apart blur into one), the card in a dark well 2.5 mm larger than itself.
 */
const LISTING_BODY = '#8d9096';
const LISTING_WALL = '#dcdee1';
const LISTING_WALL_MM = 4;
const LISTING_WELL = '#2c2e33';
/** Clear plastic over a white table: the well a light grey, a little darker than the wall ridge round it. */
const LISTING_CLEAR_BODY = '#d6d8db';
const LISTING_CLEAR_WELL = '#c3c6ca';
const LISTING_WELL_MM = 2.5;

const f = (value: number) => Number(value.toFixed(4)).toString();
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');

/** PSA's label: the red frame's width round the paper, and its four lines (baselines from the paper's top, mm). */
const PSA_FRAME_MM = 1.6;
const PSA_LINE_BASELINES_MM = [4.3, 8.1, 11.9, 15.7];
const PSA_FONT_MM = 3;
const PSA_RED = '#c8202f';

/** The slab as SVG (mm user units, rendered at `pxPerMm`), transparent where the table shows through; the card is drawn over it. */
export function slabSvg(slab: SyntheticSlab, pxPerMm: number, size: CardSize): string {
  const { left, top, right, bottom } = slabOutlineMm(slab, size);
  const [width, height] = [right - left, bottom - top];
  const holder = slab.look === 'scanned' ? scannedHolder(size) : slab.look === 'listing' ? listingHolder(size, slab.well ?? 'dark') : clearHolder(size);
  const label = slab.look === 'listing' ? [] : slab.layout === 'psa' ? psaLabel(slab, size) : namedLabel(slab, size);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(width * pxPerMm)}" height="${Math.round(height * pxPerMm)}" viewBox="${f(left)} ${f(top)} ${f(width)} ${f(height)}">`,
    ...holder,
    ...label,
    '</svg>',
  ].join('\n');
}

/** Clear plastic over the table: a little lighter, more so along the holder's thick rim. */
function clearHolder(size: CardSize): string[] {
  const { left, top, right, bottom } = slabMm(size);
  const [width, height] = [right - left, bottom - top];
  return [
    `<rect x="${f(left)}" y="${f(top)}" width="${f(width)}" height="${f(height)}" rx="${HOLDER_CORNER_MM}" fill="#ffffff" fill-opacity="${BODY_OPACITY}"/>`,
    `<rect x="${f(left + RIM_MM / 2)}" y="${f(top + RIM_MM / 2)}" width="${f(width - RIM_MM)}" height="${f(height - RIM_MM)}" rx="${HOLDER_CORNER_MM}" fill="none" stroke="#ffffff" stroke-opacity="${RIM_OPACITY}" stroke-width="${RIM_MM}"/>`,
  ];
}

/**
 * As a grader's scan shows a holder: an opaque grey body, the well's wall a light ridge with two faces (its top and
 * its inner face), and the dark well the card lies in.
 */
function scannedHolder(size: CardSize): string[] {
  const { left, top, right, bottom } = slabMm(size);
  const rect = (inset: { l: number; t: number; r: number; b: number }, extra: string) =>
    `<rect x="${f(inset.l)}" y="${f(inset.t)}" width="${f(inset.r - inset.l)}" height="${f(inset.b - inset.t)}" rx="${HOLDER_CORNER_MM}" ${extra}/>`;
  const around = (mm: number) => ({ l: -mm, t: -mm, r: size.widthMm + mm, b: size.heightMm + mm });
  return [
    rect({ l: left, t: top, r: right, b: bottom }, `fill="${SCANNED_BODY}"`),
    rect(around(SCANNED_WALL_OUTER_MM), `fill="${SCANNED_WALL}"`),
    rect(around(SCANNED_WALL_INNER_MM), `fill="${SCANNED_WALL_FACE}"`),
    rect(around(SCANNED_WELL_MM), `fill="${SCANNED_WELL}"`),
  ];
}

/** What is left of a holder in a listing photo cropped below its label: light plastic, one wall ridge, the well. */
function listingHolder(size: CardSize, well: 'dark' | 'clear'): string[] {
  const { left, top, right, bottom } = listingSlabMm(size);
  const around = (mm: number) => `x="${f(-mm)}" y="${f(-mm)}" width="${f(size.widthMm + 2 * mm)}" height="${f(size.heightMm + 2 * mm)}"`;
  return [
    `<rect x="${f(left)}" y="${f(top)}" width="${f(right - left)}" height="${f(bottom - top)}" rx="${HOLDER_CORNER_MM}" fill="${well === 'dark' ? LISTING_BODY : LISTING_CLEAR_BODY}"/>`,
    `<rect ${around(LISTING_WALL_MM)} rx="${HOLDER_CORNER_MM}" fill="${LISTING_WALL}"/>`,
    `<rect ${around(LISTING_WELL_MM)} rx="${HOLDER_CORNER_MM}" fill="${well === 'dark' ? LISTING_WELL : LISTING_CLEAR_WELL}"/>`,
  ];
}

const font = 'font-family="DejaVu Sans, Liberation Sans, sans-serif"';
const text = (x: number, y: number, size: number, content: string, extra = '') =>
  `<text x="${f(x)}" y="${f(y)}" ${font} font-size="${size}" ${extra}>${escapeXml(content)}</text>`;

/** White paper with the grader's name printed large at its foot. */
function namedLabel(slab: SyntheticSlab, size: CardSize): string[] {
  const label = slabLabelMm(size);
  const labelWidth = label.right - label.left;
  return [
    `<rect x="${f(label.left)}" y="${f(label.top)}" width="${f(labelWidth)}" height="${f(label.bottom - label.top)}" fill="#fbfbf8" stroke="#9a9a9a" stroke-width="0.3"/>`,
    text(label.left + 3, label.top + 5, 2.6, slab.year ?? '', 'fill="#1a1a1a"'),
    text(label.left + 3, label.top + 9.5, 2.6, slab.name ?? '', 'fill="#1a1a1a"'),
    text(label.right - 3, label.top + 5.5, 3, slab.gradeText, 'fill="#1a1a1a" font-weight="bold" text-anchor="end"'),
    text(label.right - 3, label.top + 10, 2.6, slab.cert, 'fill="#1a1a1a" text-anchor="end"'),
    text(label.left + labelWidth / 2, label.top + 18, 5.5, slab.company, 'fill="#b01c22" font-weight="bold" text-anchor="middle"'),
  ];
}

/** PSA's layout: red frame, white paper, four lines a side, a barcode, and the logo as a graphic (no text). */
function psaLabel(slab: SyntheticSlab, size: CardSize): string[] {
  const outer = slabLabelMm(size);
  const paper = { left: outer.left + PSA_FRAME_MM, top: outer.top + PSA_FRAME_MM, right: outer.right - PSA_FRAME_MM, bottom: outer.bottom - PSA_FRAME_MM };
  const [y1, y2, y3, y4] = PSA_LINE_BASELINES_MM.map((baseline) => paper.top + baseline) as [number, number, number, number];
  const [x0, x1] = [paper.left + 1.8, paper.right - 1.8];
  const print = 'fill="#161616"';
  // The barcode: bars of seeded-free fixed widths, so the same slab always draws the same.
  const bars: string[] = [];
  for (let i = 0, x = x0; i < 22; i++) {
    const barWidth = i % 3 === 0 ? 0.5 : 0.25;
    bars.push(`<rect x="${f(x)}" y="${f(y4 - 2.4)}" width="${f(barWidth)}" height="2.6" fill="#161616"/>`);
    x += barWidth + (i % 4 === 1 ? 0.55 : 0.35);
  }
  const logo = { x: (paper.left + paper.right) / 2 - 4.5, y: y3 + 0.8, width: 9, height: 4.2 };
  return [
    `<rect x="${f(outer.left)}" y="${f(outer.top)}" width="${f(outer.right - outer.left)}" height="${f(outer.bottom - outer.top)}" fill="${PSA_RED}"/>`,
    `<rect x="${f(paper.left)}" y="${f(paper.top)}" width="${f(paper.right - paper.left)}" height="${f(paper.bottom - paper.top)}" fill="#fbfbf9"/>`,
    text(x0, y1, PSA_FONT_MM, slab.year ?? '', print),
    text(x0, y2, PSA_FONT_MM, slab.name ?? '', print),
    text(x0, y3, PSA_FONT_MM, slab.variety ?? '', print),
    text(x1, y1, PSA_FONT_MM, slab.number ?? '', `${print} text-anchor="end"`),
    text(x1, y2, PSA_FONT_MM, slab.gradeText, `${print} text-anchor="end"`),
    text(x1, y3, PSA_FONT_MM, slab.grade ?? '', `${print} text-anchor="end"`),
    text(x1, y4, PSA_FONT_MM, slab.cert, `${print} text-anchor="end"`),
    ...bars,
    // PSA's logo: a blue plate with a red swoosh and white bars: a graphic, nothing OCR reads as letters.
    `<rect x="${f(logo.x)}" y="${f(logo.y)}" width="${f(logo.width)}" height="${f(logo.height)}" rx="0.6" fill="#8fa6cf"/>`,
    `<path d="M ${f(logo.x + 0.8)} ${f(logo.y + logo.height * 0.65)} Q ${f(logo.x + logo.width / 2)} ${f(logo.y - 0.4)} ${f(logo.x + logo.width - 0.8)} ${f(logo.y + logo.height * 0.35)}" stroke="${PSA_RED}" stroke-width="0.7" fill="none"/>`,
    `<rect x="${f(logo.x + 1.5)}" y="${f(logo.y + logo.height * 0.55)}" width="${f(logo.width - 3)}" height="0.9" fill="#ffffff"/>`,
  ];
}
