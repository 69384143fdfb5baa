import type { CornerName, EdgeName } from '../../contracts/measurement.ts';
import type { CardSize } from '../card-formats.ts';
import { cornerOutline } from '../card-outline.ts';
import { luma } from '../image.ts';
import { fullArtEdgeSvg, type FullArtEdge } from './full-art.ts';
import { foilBorderSvg, innerFrameSvg, type BorderFinish } from './foil-border.ts';
import { hairLockSvg, layoutBarsSvg } from './layout-print.ts';
import { holoLinesSvg, holoSparkleSvg } from './holo.ts';
import { Prng } from './prng.ts';
import type { SyntheticBorders, SyntheticCardSpec, SyntheticDefect, SyntheticLettering } from './spec.ts';

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface CardDrawing {
  borders: SyntheticBorders | null;
  printTiltDeg: number;
  borderColor: Rgb;
  cornerRadiusMm: number;
  defects: readonly SyntheticDefect[];
  lettering: SyntheticLettering | null;
  nextCardPrint: SyntheticCardSpec['nextCardPrint'] | null;
  /** See SyntheticCardSpec.paleRimMm; 0 or absent: none. */
  paleRimMm?: number;
  /** See SyntheticCardSpec.edgeRoughnessMm, with the seed the bites are taken by; absent: none. */
  edgeRoughness?: { depthMm: number; seed: number };
  /** A holo face's sparkle (holo.ts), drawn from this seed; absent: none. */
  holoSeed?: number;
  /** With the sparkle, a foil of ridged lines (holo.ts) from the same seed. */
  holoLines?: boolean;
  /** A full-art's print at the cut (full-art.ts), of this kind, drawn from this seed; absent: none. */
  fullArtEdge?: { kind: FullArtEdge; seed: number };
  /** See SyntheticCardSpec.artStrokes; absent: none. */
  artStrokes?: SyntheticCardSpec['artStrokes'];
  /** See SyntheticCardSpec.borderFinish, innerFrame, layoutBars; absent: a flat border, no frame, no bars. */
  borderFinish?: BorderFinish;
  innerFrame?: SyntheticCardSpec['innerFrame'];
  layoutBars?: boolean;
  /** See SyntheticCardSpec.hair, with the seed the strands are drawn from; absent: none. */
  hair?: { locks: NonNullable<SyntheticCardSpec['hair']>; seed: number };
  pxPerMm: number;
  /** The card's format's size (63 × 88 mm for the common one). */
  size: CardSize;
}

/** How deep whitening reaches in from the edge, well inside the 0.6 mm rim the engine inspects. */
/** A drawn crease: its light and dark faces, each this wide, this far apart (centre to centre). */
const CREASE_FACE_WIDTH_MM = 0.25;
const CREASE_FACE_GAP_MM = 0.35;
/** A drawn art stroke: the printed shape on each side of its edge is this wide. */
const ART_STROKE_BAND_MM = 2;
const WHITENING_DEPTH_MM = 0.35;
const WHITENING_COLOR = '#f4f4f0';

export function parseHex(hex: string): Rgb {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  return { r: parseInt(match[1]!, 16), g: parseInt(match[2]!, 16), b: parseInt(match[3]!, 16) };
}

export function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0')).join('')}`;
}

export function colourDistance(a: Rgb, b: Rgb): number {
  return Math.hypot(a.r - b.r, a.g - b.g, a.b - b.b);
}

/** A mid-tone colour at least `minDistance` from every colour in `avoid`. */
export function contrastingColour(rng: Prng, avoid: readonly Rgb[], minDistance: number): Rgb {
  for (let attempt = 0; ; attempt++) {
    const colour = { r: rng.int(45, 205), g: rng.int(45, 205), b: rng.int(45, 205) };
    if (avoid.every((other) => colourDistance(colour, other) >= minDistance) || attempt > 500) return colour;
  }
}

const f = (value: number) => Number(value.toFixed(4)).toString();

/** The art is drawn at this resolution and scaled up: it is soft anyway, and blurring it at full size is slow. */
const ART_PX_PER_MM = 8;

function artWindow(card: CardDrawing) {
  const borders = card.borders ?? { leftMm: 0, rightMm: 0, topMm: 0, bottomMm: 0 };
  return {
    x: borders.leftMm,
    y: borders.topMm,
    width: card.size.widthMm - borders.leftMm - borders.rightMm,
    height: card.size.heightMm - borders.topMm - borders.bottomMm,
  };
}

/**
 * Random soft art for the window inside the borders, as SVG in millimetres of that window: a gradient and blurred
 * ellipses, every colour well away from the border's, so the border's inner edge is a real edge.
 */
export function artSvg(card: CardDrawing, rng: Prng): string {
  const { width: artWidth, height: artHeight } = artWindow(card);
  const first = contrastingColour(rng, [card.borderColor], 95);
  const second = contrastingColour(rng, [card.borderColor, { r: 255 - first.r, g: 255 - first.g, b: 255 - first.b }], 95);
  const gradientAngle = rng.range(0, Math.PI);
  const blobs: string[] = [];
  const blobCount = rng.int(5, 9);
  for (let i = 0; i < blobCount; i++) {
    const rx = rng.range(4, Math.min(14, artWidth / 3));
    const ry = rng.range(4, Math.min(14, artHeight / 3));
    const reach = Math.max(rx, ry) + 2;
    const cx = rng.range(reach, Math.max(reach, artWidth - reach));
    const cy = rng.range(reach, Math.max(reach, artHeight - reach));
    const colour = contrastingColour(rng, [card.borderColor], 60);
    blobs.push(
      `<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(ry)}" transform="rotate(${f(rng.range(0, 180))} ${f(cx)} ${f(cy)})" fill="${toHex(colour)}"/>`,
    );
  }
  const gx = Math.cos(gradientAngle) / 2;
  const gy = Math.sin(gradientAngle) / 2;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(artWidth * ART_PX_PER_MM)}" height="${Math.round(artHeight * ART_PX_PER_MM)}" viewBox="0 0 ${f(artWidth)} ${f(artHeight)}" preserveAspectRatio="none">`,
    '<defs>',
    '<filter id="soft" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="0.7"/></filter>',
    `<linearGradient id="art-background" x1="${f(0.5 - gx)}" y1="${f(0.5 - gy)}" x2="${f(0.5 + gx)}" y2="${f(0.5 + gy)}">`,
    `<stop offset="0" stop-color="${toHex(first)}"/><stop offset="1" stop-color="${toHex(second)}"/></linearGradient>`,
    '</defs>',
    `<rect width="${f(artWidth)}" height="${f(artHeight)}" fill="url(#art-background)"/>`,
    `<g filter="url(#soft)">${blobs.join('')}</g>`,
    '</svg>',
  ].join('\n');
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');

/**
 * A thin frame round the art (dark, or light on a dark border, so the border still ends where it does), the name on a
 * light band across its top, and any number on one at its foot.
 */
function letteringSvg(lettering: SyntheticLettering, art: { x: number; y: number; width: number; height: number }, border: Rgb): string {
  const font = 'font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="bold"';
  const frame = 0.4;
  const frameColour = luma(border.r, border.g, border.b) < 110 ? '#d8d4c8' : '#2a2a2a';
  const inside = { x: art.x + frame, y: art.y + frame, width: art.width - 2 * frame, height: art.height - 2 * frame };
  return [
    `<rect x="${f(art.x + frame / 2)}" y="${f(art.y + frame / 2)}" width="${f(art.width - frame)}" height="${f(art.height - frame)}" fill="none" stroke="${frameColour}" stroke-width="${frame}"/>`,
    `<rect x="${f(inside.x)}" y="${f(inside.y)}" width="${f(inside.width)}" height="7.5" fill="#f6f1de"/>`,
    `<text x="${f(inside.x + 2)}" y="${f(inside.y + 5.6)}" ${font} font-size="4.4" fill="#141414">${escapeXml(lettering.name)}</text>`,
    ...(lettering.number === undefined
      ? []
      : [
          `<rect x="${f(inside.x)}" y="${f(inside.y + inside.height - 3.8)}" width="${f(inside.width)}" height="3.8" fill="#f6f1de"/>`,
          `<text x="${f(inside.x + inside.width - 2)}" y="${f(inside.y + inside.height - 1)}" text-anchor="end" ${font} font-size="2.4" fill="#1a1a1a">${escapeXml(lettering.number)}</text>`,
        ]),
  ].join('\n');
}

/** A printed shape's edge, sharpened: a dark band beside a light one, each edged with its halo line along the edge. */
function artStrokeSvg(stroke: NonNullable<SyntheticCardSpec['artStrokes']>[number]): string {
  const angle = (stroke.angleDeg * Math.PI) / 180;
  const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
  const [nx, ny] = [-uy, ux];
  const band = (from: number, to: number, colour: string) => {
    const corners = [-0.5, 0.5].flatMap((t) => [from, to].map((d): [number, number] => [stroke.x + ux * t * stroke.lengthMm + nx * d, stroke.y + uy * t * stroke.lengthMm + ny * d]));
    const [a, b, c, d] = corners as [[number, number], [number, number], [number, number], [number, number]];
    return `<polygon points="${points([a, b, d, c])}" fill="${colour}"/>`;
  };
  return [band(-ART_STROKE_BAND_MM, 0, '#a39c92'), band(0, ART_STROKE_BAND_MM, '#4c4652'), band(-CREASE_FACE_GAP_MM, -CREASE_FACE_GAP_MM + CREASE_FACE_WIDTH_MM, '#ffffff'), band(CREASE_FACE_GAP_MM - CREASE_FACE_WIDTH_MM, CREASE_FACE_GAP_MM, '#101010')].join('');
}

/**
 * The card as SVG in millimetre user units, rendered at `pxPerMm`: border, the art (a PNG of artSvg, scaled into the
 * window) with any holo sparkle, any lettering, then the defects.
 */
export function cardSvg(card: CardDrawing, artPng: Uint8Array): string {
  const radii = cornerRadii(card);
  const { size } = card;
  const { widthMm: cardWidthMm, heightMm: cardHeightMm } = size;
  const art = artWindow(card);
  const notches = card.defects.filter((d) => d.kind === 'nick').map((d) => `<polygon points="${points(nickPolygon(size, d))}" fill="#000"/>`);
  const marks = card.defects.map((d) => defectMark(size, d, radii, art)).filter((mark) => mark !== '');
  const width = Math.round(cardWidthMm * card.pxPerMm);
  const height = Math.round(cardHeightMm * card.pxPerMm);
  const artHref = `data:image/png;base64,${Buffer.from(artPng).toString('base64')}`;

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${cardWidthMm} ${cardHeightMm}">`,
    '<defs>',
    `<clipPath id="art"><rect x="${f(art.x)}" y="${f(art.y)}" width="${f(art.width)}" height="${f(art.height)}"/></clipPath>`,
    `<mask id="card" maskUnits="userSpaceOnUse" x="-1" y="-1" width="${cardWidthMm + 2}" height="${cardHeightMm + 2}">`,
    `<path d="${outlinePath(size, radii)}" fill="#fff"/>`,
    ...notches,
    ...(card.edgeRoughness ? [raggedCut(size, radii, card.edgeRoughness)] : []),
    '</mask>',
    '</defs>',
    '<g mask="url(#card)">',
    `<rect x="-1" y="-1" width="${cardWidthMm + 2}" height="${cardHeightMm + 2}" fill="${toHex(card.borderColor)}"/>`,
    foilBorderSvg(card.borderFinish ?? 'flat', size),
    ...(card.paleRimMm ? [paleRim(outlinePath(size, radii), card.paleRimMm)] : []),
    `<g transform="rotate(${f(card.printTiltDeg)} ${cardWidthMm / 2} ${cardHeightMm / 2})">`,
    '<g clip-path="url(#art)">',
    `<image x="${f(art.x)}" y="${f(art.y)}" width="${f(art.width)}" height="${f(art.height)}" preserveAspectRatio="none" xlink:href="${artHref}"/>`,
    card.holoSeed === undefined ? '' : holoSparkleSvg(art, card.holoSeed),
    card.holoSeed === undefined || !card.holoLines ? '' : holoLinesSvg(art, card.holoSeed),
    card.lettering ? letteringSvg(card.lettering, art, card.borderColor) : '',
    ...(card.artStrokes ?? []).map(artStrokeSvg),
    ...(card.hair?.locks ?? []).map((lock, i) => hairLockSvg(lock.x, lock.y, lock.angleDeg, card.hair!.seed + i)),
    card.layoutBars ? layoutBarsSvg(art) : '',
    card.innerFrame ? innerFrameSvg(art, card.innerFrame.widthMm, card.innerFrame.color ?? '#24242a') : '',
    '</g>',
    '</g>',
    card.fullArtEdge === undefined ? '' : fullArtEdgeSvg(card.fullArtEdge.seed, card.fullArtEdge.kind, size),
    card.nextCardPrint ? nextCardStrip(size, card.nextCardPrint) : '',
    ...marks,
    '</g>',
    '</svg>',
  ].join('\n');
}

/**
 * A pale rim as layers of the card stock's white along the outline, each reaching a little further in: at the cut
 * edge all of them (1 - (1 - 0.5 / 8)^8, some 40% of the way to white), none from `widthMm` in.
 */
const PALE_RIM_LAYERS = 8;
const PALE_RIM_EDGE_SHARE = 0.5;

function paleRim(outline: string, widthMm: number): string {
  const opacity = PALE_RIM_EDGE_SHARE / PALE_RIM_LAYERS;
  // A stroke is centred on the outline: twice the depth it reaches inside the card (the outer half is masked off).
  return Array.from(
    { length: PALE_RIM_LAYERS },
    (_, i) => `<path d="${outline}" fill="none" stroke="${WHITENING_COLOR}" stroke-opacity="${f(opacity)}" stroke-width="${f((2 * widthMm * (i + 1)) / PALE_RIM_LAYERS)}"/>`,
  ).join('');
}

/** A ragged cut's bites are centred on the outline this far apart (mm). */
const BITE_SPACING_MM = 0.2;

/** Bites out of the card's edge, as the mask's black discs centred on the nominal outline, each of a random depth. */
function raggedCut(size: CardSize, radii: Record<CornerName, number>, { depthMm, seed }: { depthMm: number; seed: number }): string {
  const rng = new Prng(seed);
  const w = size.widthMm;
  const h = size.heightMm;
  const centres: Array<[number, number]> = [];
  const straight = (x0: number, y0: number, x1: number, y1: number) => {
    const count = Math.max(1, Math.round(Math.hypot(x1 - x0, y1 - y0) / BITE_SPACING_MM));
    for (let i = 0; i < count; i++) centres.push([x0 + ((x1 - x0) * i) / count, y0 + ((y1 - y0) * i) / count]);
  };
  const arc = (corner: CornerName) => {
    for (const p of cornerOutline(corner, radii[corner], radii[corner], BITE_SPACING_MM, size)) centres.push([p.x, p.y]);
  };
  straight(radii.topLeft, 0, w - radii.topRight, 0);
  arc('topRight');
  straight(w, radii.topRight, w, h - radii.bottomRight);
  arc('bottomRight');
  straight(w - radii.bottomRight, h, radii.bottomLeft, h);
  arc('bottomLeft');
  straight(0, h - radii.bottomLeft, 0, radii.topLeft);
  arc('topLeft');
  return centres.map(([x, y]) => `<circle cx="${f(x)}" cy="${f(y)}" r="${f(rng.range(0, depthMm))}" fill="#000"/>`).join('');
}

/** The next card's print along one edge, beyond this card's border (a miscut). */
function nextCardStrip(size: CardSize, { edge, widthMm, color }: NonNullable<CardDrawing['nextCardPrint']>): string {
  const { widthMm: cardWidthMm, heightMm: cardHeightMm } = size;
  const w = cardWidthMm + 2;
  const h = cardHeightMm + 2;
  const rect = {
    top: { x: -1, y: -1, width: w, height: widthMm + 1 },
    bottom: { x: -1, y: cardHeightMm - widthMm, width: w, height: widthMm + 1 },
    left: { x: -1, y: -1, width: widthMm + 1, height: h },
    right: { x: cardWidthMm - widthMm, y: -1, width: widthMm + 1, height: h },
  }[edge];
  return `<rect x="${f(rect.x)}" y="${f(rect.y)}" width="${f(rect.width)}" height="${f(rect.height)}" fill="${color}"/>`;
}

function cornerRadii(card: CardDrawing): Record<CornerName, number> {
  const radii: Record<CornerName, number> = {
    topLeft: card.cornerRadiusMm,
    topRight: card.cornerRadiusMm,
    bottomRight: card.cornerRadiusMm,
    bottomLeft: card.cornerRadiusMm,
  };
  for (const defect of card.defects) if (defect.kind === 'worn-corner') radii[defect.corner] = defect.radiusMm;
  return radii;
}

function outlinePath(size: CardSize, r: Record<CornerName, number>): string {
  const w = size.widthMm;
  const h = size.heightMm;
  const arc = (radius: number, x: number, y: number) => (radius > 0 ? `A${f(radius)} ${f(radius)} 0 0 1 ${f(x)} ${f(y)}` : `L${f(x)} ${f(y)}`);
  return [
    `M${f(r.topLeft)} 0`,
    `H${f(w - r.topRight)}`,
    arc(r.topRight, w, r.topRight),
    `V${f(h - r.bottomRight)}`,
    arc(r.bottomRight, w - r.bottomRight, h),
    `H${f(r.bottomLeft)}`,
    arc(r.bottomLeft, 0, h - r.bottomLeft),
    `V${f(r.topLeft)}`,
    arc(r.topLeft, r.topLeft, 0),
    'Z',
  ].join(' ');
}

/** A point at `along` mm along an edge (from its left or top end) and `depth` mm in from it. */
function edgePoint(size: CardSize, edge: EdgeName, along: number, depth: number): [number, number] {
  switch (edge) {
    case 'top':
      return [along, depth];
    case 'bottom':
      return [along, size.heightMm - depth];
    case 'left':
      return [depth, along];
    case 'right':
      return [size.widthMm - depth, along];
  }
}

const points = (list: Array<[number, number]>) => list.map(([x, y]) => `${f(x)},${f(y)}`).join(' ');

/** A notch with a flat bottom: `depth` deep, `length` wide at the edge. */
function nickPolygon(size: CardSize, nick: Extract<SyntheticDefect, { kind: 'nick' }>): Array<[number, number]> {
  const length = nick.lengthMm ?? Math.max(1, 2 * nick.depthMm);
  const a = nick.atMm;
  return [
    edgePoint(size, nick.edge, a - length / 2, -0.5),
    edgePoint(size, nick.edge, a + length / 2, -0.5),
    edgePoint(size, nick.edge, a + length / 2, 0),
    edgePoint(size, nick.edge, a + 0.15 * length, nick.depthMm),
    edgePoint(size, nick.edge, a - 0.15 * length, nick.depthMm),
    edgePoint(size, nick.edge, a - length / 2, 0),
  ];
}

function defectMark(size: CardSize, defect: SyntheticDefect, radii: Record<CornerName, number>, art: { x: number; y: number; width: number; height: number }): string {
  switch (defect.kind) {
    case 'whitened-corner': {
      // A light band along the outline, `lengthMm` long, centred on the middle of the corner.
      const outline = cornerOutline(defect.corner, radii[defect.corner], 8, 0.02, size).filter((p) => Math.abs(p.s) <= defect.lengthMm / 2);
      const outer = outline.map((p): [number, number] => [p.x - 0.3 * p.nx, p.y - 0.3 * p.ny]);
      const inner = outline.map((p): [number, number] => [p.x + WHITENING_DEPTH_MM * p.nx, p.y + WHITENING_DEPTH_MM * p.ny]).reverse();
      return `<polygon points="${points([...outer, ...inner])}" fill="${WHITENING_COLOR}"/>`;
    }
    case 'whitened-edge': {
      const from = defect.atMm - defect.lengthMm / 2;
      const to = defect.atMm + defect.lengthMm / 2;
      const band = [edgePoint(size, defect.edge, from, -0.3), edgePoint(size, defect.edge, to, -0.3), edgePoint(size, defect.edge, to, WHITENING_DEPTH_MM), edgePoint(size, defect.edge, from, WHITENING_DEPTH_MM)];
      return `<polygon points="${points(band)}" fill="${WHITENING_COLOR}"/>`;
    }
    case 'scratch': {
      const angle = (defect.angleDeg * Math.PI) / 180;
      const dx = (Math.cos(angle) * defect.lengthMm) / 2;
      const dy = (Math.sin(angle) * defect.lengthMm) / 2;
      return `<line x1="${f(defect.x - dx)}" y1="${f(defect.y - dy)}" x2="${f(defect.x + dx)}" y2="${f(defect.y + dy)}" stroke="#fafaf6" stroke-opacity="0.9" stroke-width="${f(defect.widthMm ?? 0.15)}" stroke-linecap="butt"/>`;
    }
    case 'crease': {
      // The fold's two faces catch the light differently: a light line and, a few tenths of a millimetre beside it,
      // a dark one, both running through the print whatever lies under them.
      const angle = (defect.angleDeg * Math.PI) / 180;
      const dx = (Math.cos(angle) * defect.lengthMm) / 2;
      const dy = (Math.sin(angle) * defect.lengthMm) / 2;
      const [nx, ny] = [-Math.sin(angle) * CREASE_FACE_GAP_MM, Math.cos(angle) * CREASE_FACE_GAP_MM];
      const face = (offset: number, colour: string, opacity: number) =>
        `<line x1="${f(defect.x - dx + offset * nx)}" y1="${f(defect.y - dy + offset * ny)}" x2="${f(defect.x + dx + offset * nx)}" y2="${f(defect.y + dy + offset * ny)}" stroke="${colour}" stroke-opacity="${opacity}" stroke-width="${f(CREASE_FACE_WIDTH_MM)}" stroke-linecap="butt"/>`;
      return face(-0.5, '#ffffff', 0.6) + face(0.5, '#000000', 0.45);
    }
    case 'print-line': {
      // A faint line across the art, as a clogged print head leaves it.
      const width = f(defect.widthMm ?? 0.2);
      const style = `stroke="#ffffff" stroke-opacity="0.35" stroke-width="${width}"`;
      return defect.orientation === 'horizontal'
        ? `<line x1="${f(art.x)}" y1="${f(defect.atMm)}" x2="${f(art.x + art.width)}" y2="${f(defect.atMm)}" ${style}/>`
        : `<line x1="${f(defect.atMm)}" y1="${f(art.y)}" x2="${f(defect.atMm)}" y2="${f(art.y + art.height)}" ${style}/>`;
    }
    case 'spot':
      return `<circle cx="${f(defect.x)}" cy="${f(defect.y)}" r="${f(defect.diameterMm / 2)}" fill="#202020" fill-opacity="0.85"/>`;
    case 'ink-mark': {
      // Ragged outline (radius varying round the mark) and three light strokes where the pen skipped.
      const radius = defect.sizeMm / 2;
      const outline = Array.from({ length: 16 }, (_, k): [number, number] => {
        const angle = (k / 16) * 2 * Math.PI;
        const r = radius * (k % 3 === 0 ? 1 : k % 3 === 1 ? 0.86 : 0.93);
        return [defect.x + r * Math.cos(angle), defect.y + r * Math.sin(angle)];
      });
      const gaps = [-0.4, 0, 0.4]
        .map((t) => `<line x1="${f(defect.x - radius * 0.6)}" y1="${f(defect.y + t * radius)}" x2="${f(defect.x + radius * 0.6)}" y2="${f(defect.y + t * radius + 0.2 * radius)}" stroke="#8a8a86" stroke-width="${f(0.12)}"/>`)
        .join('');
      return `<polygon points="${points(outline)}" fill="#2e2e30" fill-opacity="0.92"/>${gaps}`;
    }
    case 'nick':
    case 'worn-corner':
      return ''; // part of the card's outline (mask), not a mark on it
  }
}
