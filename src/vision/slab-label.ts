import { CARD_HEIGHT_MM, CARD_WIDTH_MM } from '../contracts/measurement.ts';
import type { Point } from '../contracts/measurement.ts';
import { CARD_CORNERS_MM } from './card-outline.ts';
import type { RegionMm } from './flatten.ts';
import { homographyFromPoints } from './geometry.ts';
import type { Homography } from './geometry.ts';
import { luma, sampleRgb } from './image.ts';
import type { DecodedImage } from './image.ts';

// A grader's slab, seen from the card it holds: the label is a light band with dark print directly above the card,
// about as wide as the card and 15–30% of its height (a PSA label is about 73 × 21 mm, 6 mm above the card). Found
// on the card's own axes (the outline the engine found), so a tilted or turned photo is read the same; the band
// is handed to OCR as an upright grey picture. No band, no label: the card is read as raw.

/** Grey pixels, rows top to bottom. */
export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** How far above the card's top edge the label is looked for, and how far past its sides. */
const SEARCH_ABOVE_MM = 40;
const SEARCH_SIDE_MM = 6;
/** The search is coarse: 4 px/mm still shows a 2 mm line of print. */
const SEARCH_PX_PER_MM = 4;
/** A label's height: 15–30% of the card's, with a little room for how the band's ends are read. */
const LABEL_MIN_MM = 0.12 * CARD_HEIGHT_MM;
const LABEL_MAX_MM = 0.33 * CARD_HEIGHT_MM;
/** The label's foot lies at most this far above the card's top (a holder's well and rim). */
const MAX_GAP_MM = 15;
/**
 * The label's paper is the lightest thing above the card (its 98th percentile of grey), and at least PAPER_MIN even
 * in a dim room. Shares of it, so they hold whatever the light: a pixel at PAPER_SHARE of it or more is paper (the
 * plastic over a table is darker), one below PRINT_SHARE of it is print.
 */
const PAPER_MIN = 90;
const PAPER_SHARE = 0.8;
const PRINT_SHARE = 0.5;
/** A row of the label is mostly light across the card's width (its print takes the rest)… */
const LIGHT_ROW_SHARE = 0.6;
/** …and a line of print (a long one, or the grader's logo) may darken it for up to this long. */
const MAX_DIP_MM = 4;
/** A label carries print, but is not mostly print. */
const MIN_PRINT_SHARE = 0.01;
const MAX_PRINT_SHARE = 0.35;
/** The band is read at this resolution: tesseract likes capitals 20–40 px tall, a label's are about 2 mm. */
const LABEL_READ_PX_PER_MM = 14;
/** Margin round the band when it is read, so the print at its edges is whole. */
const READ_MARGIN_MM = 1;

/** The label above the card, upright and grey at LABEL_READ_PX_PER_MM, or null when there is none. */
export function findSlabLabel(image: DecodedImage, quad: readonly Point[]): GreyImage | null {
  const mmToPhoto = homographyFromPoints(CARD_CORNERS_MM, quad);
  const band = findBand(image, mmToPhoto);
  if (band === null) return null;
  return greyRegion(image, mmToPhoto, { x0: -SEARCH_SIDE_MM, x1: CARD_WIDTH_MM + SEARCH_SIDE_MM, y0: band.top - READ_MARGIN_MM, y1: band.bottom + READ_MARGIN_MM }, LABEL_READ_PX_PER_MM);
}

/** The region (mm on the card's axes, y up from the card's top negative) in grey; 0 marks what lies outside the photo. */
function greyRegion(image: DecodedImage, mmToPhoto: Homography, region: RegionMm, pxPerMm: number): GreyImage {
  const width = Math.round((region.x1 - region.x0) * pxPerMm);
  const height = Math.round((region.y1 - region.y0) * pxPerMm);
  const data = new Uint8Array(width * height);
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
      data[y * width + x] = Math.round(luma(rgb[0]!, rgb[1]!, rgb[2]!));
    }
  }
  return { data, width, height };
}

/** The light band with print nearest above the card (mm, negative: above its top), or null. */
function findBand(image: DecodedImage, mmToPhoto: Homography): { top: number; bottom: number } | null {
  // Only the card's own width is judged: the band must span it; past its sides the holder's rim may show.
  const search = greyRegion(image, mmToPhoto, { x0: 0, x1: CARD_WIDTH_MM, y0: -SEARCH_ABOVE_MM, y1: 0 }, SEARCH_PX_PER_MM);
  const { data, width, height } = search;
  const paper = percentile(data, 0.98);
  if (paper < PAPER_MIN) return null;
  const lightLevel = PAPER_SHARE * paper;
  const lightRow = Array.from({ length: height }, (_, y) => {
    let light = 0;
    for (let x = 0; x < width; x++) if (data[y * width + x]! >= lightLevel) light++;
    return light >= LIGHT_ROW_SHARE * width;
  });
  // From the card up: the first run of light rows (short dips for print bridged) is the label, if it is one.
  const maxDip = Math.round(MAX_DIP_MM * SEARCH_PX_PER_MM);
  let bottom = height - 1;
  while (bottom >= 0 && !lightRow[bottom]) bottom--;
  if (bottom < 0 || (height - 1 - bottom) / SEARCH_PX_PER_MM > MAX_GAP_MM) return null;
  let top = bottom;
  for (let y = bottom - 1; y >= 0; y--) {
    if (lightRow[y]) top = y;
    else if (top - y > maxDip) break;
  }
  // A band reaching the top of the search is a light table or paper, not a label with an edge.
  if (top <= maxDip) return null;
  const heightMm = (bottom - top + 1) / SEARCH_PX_PER_MM;
  if (heightMm < LABEL_MIN_MM || heightMm > LABEL_MAX_MM) return null;
  let dark = 0;
  for (let i = top * width; i < (bottom + 1) * width; i++) if (data[i]! < PRINT_SHARE * paper) dark++;
  const print = dark / ((bottom - top + 1) * width);
  if (print < MIN_PRINT_SHARE || print > MAX_PRINT_SHARE) return null;
  return { top: -SEARCH_ABOVE_MM + top / SEARCH_PX_PER_MM, bottom: -SEARCH_ABOVE_MM + (bottom + 1) / SEARCH_PX_PER_MM };
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
