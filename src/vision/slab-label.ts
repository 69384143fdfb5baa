import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../contracts/measurement.ts';
import type { Point } from '../contracts/measurement.ts';
import { CARD_CORNERS_MM } from './card-outline.ts';
import { CARD_FORMATS, STANDARD_FORMAT, cardCornersMm, formatOfQuad } from './card-formats.ts';
import type { CardSize, FormatSet } from './card-formats.ts';
import type { RegionMm } from './flatten.ts';
import { applyHomography, homographyFromPoints } from './geometry.ts';
import type { Homography } from './geometry.ts';
import { luma, sampleRgb } from './image.ts';
import type { DecodedImage } from './image.ts';

// A grader's slab, seen from the card it holds: the label is a band of light paper with print, about as wide as the
// card or a little wider (a PSA label is about 73 × 21 mm inside its red frame), above the card. Found on the card's
// own axes (the outline the engine found), so a tilted or turned photo is read the same; the band is handed to OCR as
// an upright grey picture of the paper alone. No band, no label: the card is read as raw.
//
// What the engine hands over as "the card" may be the card itself (the label then 6–20 mm above its top) or the
// holder's body below the label (the label then just above its top), or take in the label too; so the search reaches
// well above the outline and into its top part, and the band is picked by its own evidence: paper (light and
// colourless, unlike a red frame or a yellow border) across most of the card's width, of a label's height, closed
// above, below and at both sides by something that is not paper (the frame, the holder), with some print on it.

/** Grey pixels, rows top to bottom. */
export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** How far above the outline's top the label is looked for: a label's height plus the largest gap to the card, and room. */
const SEARCH_ABOVE_MM = 55;
/** How far into the outline: when the outline is a holder's, its top part is the label. */
const SEARCH_INTO_OUTLINE_MM = 26;
/** How far past the outline's sides: a label is a little wider than the card, and the outline may be scaled a little. */
const SEARCH_SIDE_MM = 14;
/** A band whose foot is at most this far below the outline's top still counts as above it (an outline a little high). */
const MAX_BAND_BELOW_TOP_MM = 3;
/** The search is coarse: 4 px/mm still shows a 2 mm line of print. */
const SEARCH_PX_PER_MM = 4;
/** A label's paper is 12–28 mm tall (PSA about 18–21 mm); the range allows an outline whose scale is off by a quarter. */
const LABEL_MIN_MM = 10;
const LABEL_MAX_MM = 29;
/** …and spans most of the card's width (PSA's is wider than the card). */
const LABEL_MIN_WIDTH_SHARE = 0.8;
/**
 * The label's paper is about the lightest thing round the card (the search's 98th percentile of grey), and at least
 * PAPER_MIN even in a dim room. A pixel at PAPER_SHARE of that or more, and nearly colourless (its channels within
 * PAPER_MAX_CHROMA of each other: white paper under warm light, not a red frame or a yellow card border), is paper;
 * one below PRINT_SHARE of it is print.
 */
const PAPER_MIN = 90;
const PAPER_SHARE = 0.8;
const PAPER_MAX_CHROMA = 70;
const PRINT_SHARE = 0.5;
/** A row of the label is mostly paper across the card's width (its print takes the rest)… */
const LIGHT_ROW_SHARE = 0.6;
/** …and a column of it mostly paper down the band, less where it crosses every line of print. */
const LIGHT_COLUMN_SHARE = 0.45;
/** The band runs on, past dense print, through rows with at least this much paper: the frame and the holder have none. */
const EDGE_ROW_SHARE = 0.2;
/** What closes a band (the row above and below it, the column either side) lies at least this much inside the photo. */
const MIN_IN_PHOTO_SHARE = 0.5;
/** A line of print (or the grader's logo, or a barcode) may darken rows or columns for up to this long. */
const MAX_DIP_MM = 4;
/** A label carries print, but is not mostly print. */
const MIN_PRINT_SHARE = 0.01;
const MAX_PRINT_SHARE = 0.35;
/** The band is read at this resolution: tesseract likes capitals 25–40 px tall, a label's are about 2–2.5 mm. */
const LABEL_READ_PX_PER_MM = 14;
/** The picture read stays this far inside the paper, so the frame round it does not read as a letter. */
const READ_INSET_MM = 0.4;

interface Band {
  /** mm on the card's axes: y negative above the outline's top. */
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/**
 * A slab scanned or photographed straight and filling the photo's width, as graders' and sellers' pictures are: the
 * holder (about 80 mm wide) spans the photo, the card is centred in it, and its top lies about this far below the
 * photo's top (a PSA holder: rim 4 mm, label 21 mm, well 8–20 mm). Used when the outline the engine found shows no
 * label, which happens when that outline is warped or is not the card's.
 */
const PHOTO_SLAB_WIDTH_MM = 80;
const PHOTO_CARD_TOP_MM = 40;

/** The card's outline in a photo filled by its slab's width (see PHOTO_SLAB_WIDTH_MM). */
function cardInSlabPhoto(image: DecodedImage): Point[] {
  const pxPerMm = image.width / PHOTO_SLAB_WIDTH_MM;
  const [left, top] = [((PHOTO_SLAB_WIDTH_MM - CARD_WIDTH_MM) / 2) * pxPerMm, PHOTO_CARD_TOP_MM * pxPerMm];
  const [right, bottom] = [left + CARD_WIDTH_MM * pxPerMm, top + CARD_HEIGHT_MM * pxPerMm];
  return [{ x: left, y: top }, { x: right, y: top }, { x: right, y: bottom }, { x: left, y: bottom }];
}

/**
 * The label near the card, upright and grey at LABEL_READ_PX_PER_MM (the paper alone), or null when there is none.
 * Looked for round the card's outline; failing that, where it is in a photo its slab fills.
 */
export function findSlabLabel(image: DecodedImage, quad: readonly Point[], formats: FormatSet = CARD_FORMATS): GreyImage | null {
  return findSlabLabelAbove(image, quad, formats) ?? findSlabLabelInPhoto(image);
}

/**
 * The label just above `quad` (an outline taken for the card's, in the millimetres of the format of `formats` its
 * shape says it is), or null: never a guess at where a slab would put it.
 */
export function findSlabLabelAbove(image: DecodedImage, quad: readonly Point[], formats: FormatSet = CARD_FORMATS): GreyImage | null {
  const size = formatOfQuad(quad, formats);
  const mmToPhoto = homographyFromPoints(cardCornersMm(size), quad);
  const band = findBand(image, mmToPhoto, size);
  return band === null ? null : labelPicture(image, mmToPhoto, band);
}

/**
 * A label's paper starts at least this far below the top of its holder's outline (a PSA holder's rim is about 4 mm
 * wide, other graders' wider): a light band from an outline's very top is the card's own border or print, not a label.
 */
const LABEL_BELOW_HOLDER_TOP_MM = 2;

/**
 * When `outline` is a whole holder (its label inside its top part, as a holder's outline found whole in the photo
 * has it), the part of it below the label, where the card lies: its four corners in the photo, clockwise from
 * top-left. Null when no label lies inside the outline's top. With more card formats than 63 × 88 mm, a holder's
 * own outline can have a card's shape (a 1933 Goudey's holder is the shape of a 59 × 86 mm card).
 */
export function holderBodyBelowLabel(image: DecodedImage, outline: readonly Point[], formats: FormatSet): Point[] | null {
  const size = formatOfQuad(outline, formats);
  const mmToPhoto = homographyFromPoints(cardCornersMm(size), outline);
  const band = findBand(image, mmToPhoto, size);
  if (band === null || band.top < LABEL_BELOW_HOLDER_TOP_MM) return null;
  return [
    applyHomography(mmToPhoto, 0, band.bottom),
    applyHomography(mmToPhoto, size.widthMm, band.bottom),
    applyHomography(mmToPhoto, size.widthMm, size.heightMm),
    applyHomography(mmToPhoto, 0, size.heightMm),
  ];
}

/** The label of a slab that fills the photo's width, found without a card outline (a photo the engine refused). */
export function findSlabLabelInPhoto(image: DecodedImage): GreyImage | null {
  const mmToPhoto = homographyFromPoints(CARD_CORNERS_MM, cardInSlabPhoto(image));
  const band = findBand(image, mmToPhoto, STANDARD_FORMAT);
  return band === null ? null : labelPicture(image, mmToPhoto, band);
}

function labelPicture(image: DecodedImage, mmToPhoto: Homography, band: Band): GreyImage {
  const region = { x0: band.left + READ_INSET_MM, x1: band.right - READ_INSET_MM, y0: band.top + READ_INSET_MM, y1: band.bottom - READ_INSET_MM };
  return greyRegion(image, mmToPhoto, region, LABEL_READ_PX_PER_MM).grey;
}

/**
 * The region (mm on the card's axes, y up from the card's top negative) in grey, and how colourful each pixel is
 * (its channels' spread); what lies outside the photo is black.
 */
function greyRegion(image: DecodedImage, mmToPhoto: Homography, region: RegionMm, pxPerMm: number): { grey: GreyImage; chroma: Uint8Array; inPhoto: Uint8Array } {
  const width = Math.round((region.x1 - region.x0) * pxPerMm);
  const height = Math.round((region.y1 - region.y0) * pxPerMm);
  const data = new Uint8Array(width * height);
  const chroma = new Uint8Array(width * height);
  const inPhoto = new Uint8Array(width * height);
  const rgb = new Float64Array(3);
  const h = mmToPhoto;
  for (let y = 0; y < height; y++) {
    const my = region.y0 + (y + 0.5) / pxPerMm;
    for (let x = 0; x < width; x++) {
      const mx = region.x0 + (x + 0.5) / pxPerMm;
      const w = h[6]! * mx + h[7]! * my + h[8]!;
      const px = (h[0]! * mx + h[1]! * my + h[2]!) / w;
      const py = (h[3]! * mx + h[4]! * my + h[5]!) / w;
      if (px < 0 || py < 0 || px > image.width - 1 || py > image.height - 1) continue;
      sampleRgb(image, px, py, rgb);
      inPhoto[y * width + x] = 1;
      data[y * width + x] = Math.round(luma(rgb[0]!, rgb[1]!, rgb[2]!));
      chroma[y * width + x] = Math.round(Math.max(rgb[0]!, rgb[1]!, rgb[2]!) - Math.min(rgb[0]!, rgb[1]!, rgb[2]!));
    }
  }
  return { grey: { data, width, height }, chroma, inPhoto };
}

/** Runs of true (gaps up to maxGap bridged), as [first, last] indices. */
function runsOf(flags: readonly boolean[], maxGap: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let start = -1;
  let last = -1;
  for (let i = 0; i < flags.length; i++) {
    if (!flags[i]) continue;
    if (start >= 0 && i - last - 1 <= maxGap) last = i;
    else {
      if (start >= 0) runs.push([start, last]);
      start = i;
      last = i;
    }
  }
  if (start >= 0) runs.push([start, last]);
  return runs;
}

/**
 * The label's paper (mm on the card's axes), or null. Of the bands that look like a label, the nearest above the
 * outline's top wins (a label sits above its card); one inside the outline's top only when there is none above.
 */
function findBand(image: DecodedImage, mmToPhoto: Homography, size: CardSize): Band | null {
  const area = { x0: -SEARCH_SIDE_MM, x1: size.widthMm + SEARCH_SIDE_MM, y0: -SEARCH_ABOVE_MM, y1: SEARCH_INTO_OUTLINE_MM };
  const { grey, chroma, inPhoto } = greyRegion(image, mmToPhoto, area, SEARCH_PX_PER_MM);
  // A band must be closed by something in the photo (a frame, the holder): the photo's own edge closes a light table too.
  const closedInPhoto = (lineExists: boolean, first: number, step: number, count: number) => {
    if (!lineExists) return false;
    let inside = 0;
    for (let k = 0; k < count; k++) inside += inPhoto[first + k * step]!;
    return inside >= MIN_IN_PHOTO_SHARE * count;
  };
  const { data, width, height } = grey;
  const paperLevel = percentile(data, 0.98);
  if (paperLevel < PAPER_MIN) return null;
  const isPaper = (i: number) => data[i]! >= PAPER_SHARE * paperLevel && chroma[i]! <= PAPER_MAX_CHROMA;
  // Rows are judged across the card's own width: the band must span it.
  const [cardX0, cardX1] = [Math.round(SEARCH_SIDE_MM * SEARCH_PX_PER_MM), Math.round((SEARCH_SIDE_MM + size.widthMm) * SEARCH_PX_PER_MM)];
  const maxDip = Math.round(MAX_DIP_MM * SEARCH_PX_PER_MM);
  const toMmY = (row: number) => area.y0 + row / SEARCH_PX_PER_MM;
  const toMmX = (column: number) => area.x0 + column / SEARCH_PX_PER_MM;
  const bands: Band[] = [];
  const rowPaperShare = (y: number) => {
    let paper = 0;
    for (let x = cardX0; x < cardX1; x++) if (isPaper(y * width + x)) paper++;
    return paper / (cardX1 - cardX0);
  };
  const lightRow = Array.from({ length: height }, (_, y) => rowPaperShare(y) >= LIGHT_ROW_SHARE);
  const seen = new Set<string>();
  for (const [lightTop, lightBottom] of runsOf(lightRow, maxDip)) {
    // The band's ends are where its paper ends (the frame, the holder), not where print is dense: a line with a
    // barcode, a logo and the cert may have less paper than a light row, and is still the label.
    let [top, bottom] = [lightTop, lightBottom];
    while (top > 0 && rowPaperShare(top - 1) >= EDGE_ROW_SHARE) top--;
    while (bottom < height - 1 && rowPaperShare(bottom + 1) >= EDGE_ROW_SHARE) bottom++;
    if (seen.has(`${top}:${bottom}`)) continue;
    seen.add(`${top}:${bottom}`);
    const cardColumns = cardX1 - cardX0;
    if (!closedInPhoto(top > 0, (top - 1) * width + cardX0, 1, cardColumns) || !closedInPhoto(bottom < height - 1, (bottom + 1) * width + cardX0, 1, cardColumns)) continue;
    // A band reaching the search's edge has no edge of its own there: a light table or paper, not a label.
    if (top <= maxDip || bottom >= height - 1 - maxDip) continue;
    const heightMm = (bottom - top + 1) / SEARCH_PX_PER_MM;
    if (heightMm < LABEL_MIN_MM || heightMm > LABEL_MAX_MM) continue;
    // Its sides: the columns that are mostly paper down the band, from the card's middle out; closed on both sides.
    const lightColumn = Array.from({ length: width }, (_, x) => {
      let paper = 0;
      for (let y = top; y <= bottom; y++) if (isPaper(y * width + x)) paper++;
      return paper >= LIGHT_COLUMN_SHARE * (bottom - top + 1);
    });
    const middle = Math.round(width / 2);
    const side = runsOf(lightColumn, maxDip).find(([first, last]) => first <= middle && last >= middle);
    if (side === undefined || side[0] <= maxDip || side[1] >= width - 1 - maxDip) continue;
    const rows = bottom - top + 1;
    if (!closedInPhoto(side[0] > 0, top * width + side[0] - 1, width, rows) || !closedInPhoto(side[1] < width - 1, top * width + side[1] + 1, width, rows)) continue;
    if ((side[1] - side[0] + 1) / SEARCH_PX_PER_MM < LABEL_MIN_WIDTH_SHARE * size.widthMm) continue;
    let dark = 0;
    for (let y = top; y <= bottom; y++) for (let x = side[0]; x <= side[1]; x++) if (data[y * width + x]! < PRINT_SHARE * paperLevel) dark++;
    const print = dark / ((bottom - top + 1) * (side[1] - side[0] + 1));
    if (print < MIN_PRINT_SHARE || print > MAX_PRINT_SHARE) continue;
    bands.push({ top: toMmY(top), bottom: toMmY(bottom + 1), left: toMmX(side[0]), right: toMmX(side[1] + 1) });
  }
  // Bands come top to bottom: the last above the outline is the nearest; failing that, the first inside it.
  const above = bands.filter((band) => band.bottom <= MAX_BAND_BELOW_TOP_MM);
  return above.at(-1) ?? bands[0] ?? null;
}

/** The value below which `share` of the grey levels lie. */
function percentile(data: Uint8Array, share: number): number {
  const histogram = new Uint32Array(256);
  for (const v of data) histogram[v]!++;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= share * data.length) return v;
  }
  return 255;
}
