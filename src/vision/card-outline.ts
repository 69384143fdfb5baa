import type { CornerName, Point } from '../contracts/measurement.ts';
import { STANDARD_FORMAT, cardCornersMm } from './card-formats.ts';
import type { CardSize } from './card-formats.ts';
/** GRADING.md §1.2, shared with the camera's guide: below this many photo pixels per millimetre the card is too coarse to measure. */
export { MIN_PX_PER_MM } from '../contracts/measurement.ts';

/** The common 63 × 88 mm card's corners in mm, clockwise from top-left (other formats: cardCornersMm). */
export const CARD_CORNERS_MM: readonly Point[] = cardCornersMm(STANDARD_FORMAT);

/** Corner radius of trading-card-game cards. */
export const CARD_CORNER_RADIUS_MM = 3;
/** A corner owns the outline up to this far from its virtual corner along each side; edges own the rest. */
export const CORNER_ZONE_MM = 5;

export const CORNER_NAMES: readonly CornerName[] = ['topLeft', 'topRight', 'bottomRight', 'bottomLeft'];

/** A point of the nominal outline near a corner (mm on the upright card) and the inward normal there. */
export interface OutlineSample {
  x: number;
  y: number;
  nx: number;
  ny: number;
  /** Arc length from the middle of the corner (negative on the vertical side). */
  s: number;
}

/**
 * The nominal outline around one corner of a card of `size`, from `zoneMm` down the vertical side, round the arc of
 * `radiusMm` (a square corner when 0), to `zoneMm` along the horizontal side, every `stepMm`.
 */
export function cornerOutline(corner: CornerName, radiusMm: number, zoneMm: number, stepMm: number, size: CardSize): OutlineSample[] {
  const r = Math.max(0, Math.min(radiusMm, zoneMm));
  const straight = zoneMm - r;
  const arc = (Math.PI / 2) * r;
  const half = straight + arc / 2;
  const samples: OutlineSample[] = [];
  const count = Math.round((2 * half) / stepMm);
  for (let i = 0; i <= count; i++) {
    const s = -half + i * stepMm;
    samples.push(mirror(corner, topLeftOutlineAt(s + half, r, straight, arc), s, size));
  }
  return samples;
}

/** The top-left corner's outline at distance `along` from (0, zone) going up the left side, round, then right. */
function topLeftOutlineAt(along: number, r: number, straight: number, arc: number): Omit<OutlineSample, 's'> {
  if (along <= straight) return { x: 0, y: r + straight - along, nx: 1, ny: 0 };
  if (along >= straight + arc) return { x: r + (along - straight - arc), y: 0, nx: 0, ny: 1 };
  if (r === 0) return { x: 0, y: 0, nx: Math.SQRT1_2, ny: Math.SQRT1_2 };
  const angle = Math.PI + (along - straight) / r; // 180° (left) to 270° (top), y down
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return { x: r + r * cos, y: r + r * sin, nx: -cos, ny: -sin };
}

function mirror(corner: CornerName, p: Omit<OutlineSample, 's'>, s: number, size: CardSize): OutlineSample {
  const flipX = corner === 'topRight' || corner === 'bottomRight';
  const flipY = corner === 'bottomLeft' || corner === 'bottomRight';
  return {
    x: flipX ? size.widthMm - p.x : p.x,
    y: flipY ? size.heightMm - p.y : p.y,
    nx: flipX ? -p.nx : p.nx,
    ny: flipY ? -p.ny : p.ny,
    s,
  };
}
