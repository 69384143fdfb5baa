import type { Defect, Point } from '../contracts/measurement.ts';
import { round } from './geometry.ts';
import type { ReflectedLight } from './tilt-light.ts';

// The tilt shot's third stage: the points that caught the light, gathered into what caught it. A long thin glint is a
// scratch (its walls catch the lamp along its whole length in the same frames), a compact one a dent (the side of its
// bowl facing the lamp). Sizes are of the glint as the frames show it, in mm of the card.

/** The outline wavers by a pixel or two between frames: this band inside the cut is left out. */
const INSET_MM = 1.5;
/**
 * A glint starts where the light makes a point rise or fall this many levels beyond what it and its neighbours usually
 * show: a scratch's wall facing the lamp sends back several times more (a tenth of a millimetre of near-white in a
 * pixel of a tenth), a camera's noise over a dozen frames stays under it. Real photos relit and turned, the print
 * misregistered by a few tenths, reach it nowhere (seven development photos, three copies each).
 */
const GLINT_LEVELS = 25;
/** And spreads over its neighbours down to this: a scratch's glint fades towards its ends. */
const GLINT_EDGE_LEVELS = 12;
/** Pieces of one scratch: within this many degrees of each other, this far apart at most, this far off each other's line. */
const PIECES_ANGLE_DEG = 12;
const PIECES_GAP_MM = 1.5;
const PIECES_OFFSET_MM = 0.3;
/** A scratch: a glint at least this long, and at least SCRATCH_ELONGATION times longer than wide. */
const SCRATCH_MIN_LENGTH_MM = 1.5;
const SCRATCH_ELONGATION = 3;
/** A dent's lit wall can show as a crescent broken in pieces: compact glints this close together are one. */
const DENT_PIECES_MM = 0.5;
/** A dent: a compact glint at least this wide across (a millimetre's dent shows a crescent about this size). */
const DENT_MIN_MM = 0.8;
/**
 * A holo's foil twinkles: its sparkle catches the light frame by frame, a scatter of compact glints all over the art.
 * More than this many compact glints per cm² of face is foil, not dents (a card is dented in a place or two).
 */
const FOIL_GLINTS_PER_CM2 = 0.1;

export interface TiltDefects {
  defects: Defect[];
  /** The face twinkles all over (a holo's foil): its compact glints are read as foil, not as dents. */
  foil: boolean;
}

interface Glint {
  pixels: number;
  lengthPx: number;
  widthPx: number;
  angleDeg: number;
  box: { x0: number; y0: number; x1: number; y1: number };
  /** The ends along its main axis, pixels. */
  ends: [Point, Point];
}

/** The scratches and dents the reflected light shows, each with its length and width in mm. */
export function findTiltDefects(light: ReflectedLight): TiltDefects {
  const { pxPerMm, width, height } = light;
  const mm = (px: number) => px / pxPerMm;
  const glints = connectedGlints(light);
  const lines = joinedLines(glints.filter((g) => g.lengthPx >= SCRATCH_ELONGATION * g.widthPx), pxPerMm);
  const scratches = lines.filter((g) => mm(g.lengthPx) >= SCRATCH_MIN_LENGTH_MM);
  // A short thin glint (a print edge the registration missed by a pixel along a stretch) is neither.
  const compact = mergeNear(glints.filter((g) => g.lengthPx < SCRATCH_ELONGATION * g.widthPx), DENT_PIECES_MM * pxPerMm).filter((g) => mm(diameterPx(g)) >= DENT_MIN_MM);
  const faceCm2 = (mm(width) * mm(height)) / 100;
  const foil = compact.length > FOIL_GLINTS_PER_CM2 * faceCm2;
  const boxOf = (g: Glint) => ({ x: round(mm(g.box.x0)), y: round(mm(g.box.y0)), width: round(mm(g.box.x1 - g.box.x0 + 1)), height: round(mm(g.box.y1 - g.box.y0 + 1)) });
  const defects: Defect[] = [
    ...scratches.map((g): Defect => ({ kind: 'scratch', location: 'surface', box: boxOf(g), sizeMm: round(mm(g.lengthPx)), lengthMm: round(mm(g.lengthPx)), widthMm: round(mm(g.widthPx)), angleDeg: g.angleDeg, seenIn: 'reflected-light' })),
    ...(foil ? [] : compact.map((g): Defect => ({ kind: 'dent', location: 'surface', box: boxOf(g), sizeMm: round(mm(diameterPx(g))), lengthMm: round(mm(g.lengthPx)), widthMm: round(mm(g.widthPx)), seenIn: 'reflected-light' }))),
  ];
  return { defects, foil };
}

/**
 * A scratch crossing print, or fading along its length, glints in pieces: line-like glints at one angle, in line with
 * each other and a little apart, are one scratch.
 */
function joinedLines(lines: readonly Glint[], pxPerMm: number): Glint[] {
  const joined = [...lines];
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < joined.length && !merged; i++) {
      for (let j = i + 1; j < joined.length && !merged; j++) {
        if (!inLine(joined[i]!, joined[j]!, pxPerMm)) continue;
        joined[i] = joinedLine(joined[i]!, joined[j]!);
        joined.splice(j, 1);
        merged = true;
      }
    }
  }
  return joined;
}

/** Pieces of one scratch: at one angle (PIECES_ANGLE_DEG), the gap between their nearest ends at most PIECES_GAP_MM, each end of one on the other's line (PIECES_OFFSET_MM). */
function inLine(a: Glint, b: Glint, pxPerMm: number): boolean {
  const turn = Math.abs(a.angleDeg - b.angleDeg);
  if (Math.min(turn, 180 - turn) > PIECES_ANGLE_DEG) return false;
  const gap = Math.min(...a.ends.flatMap((p) => b.ends.map((q) => Math.hypot(p.x - q.x, p.y - q.y))));
  if (gap > PIECES_GAP_MM * pxPerMm) return false;
  const offLine = (line: Glint, p: Point) => {
    const [u, v] = line.ends;
    const length = Math.hypot(v.x - u.x, v.y - u.y) || 1;
    return Math.abs((v.x - u.x) * (u.y - p.y) - (u.x - p.x) * (v.y - u.y)) / length;
  };
  const longer = a.lengthPx >= b.lengthPx ? a : b;
  const shorter = longer === a ? b : a;
  return shorter.ends.every((p) => offLine(longer, p) <= PIECES_OFFSET_MM * pxPerMm);
}

/** Two pieces as one: from the farthest pair of their ends, their area and box together. */
function joinedLine(a: Glint, b: Glint): Glint {
  const ends = [...a.ends, ...b.ends];
  let far: [Point, Point] = a.ends;
  for (const p of ends) for (const q of ends) if (Math.hypot(p.x - q.x, p.y - q.y) > Math.hypot(far[0].x - far[1].x, far[0].y - far[1].y)) far = [p, q];
  const lengthPx = Math.hypot(far[1].x - far[0].x, far[1].y - far[0].y) + 1;
  const box = { x0: Math.min(a.box.x0, b.box.x0), y0: Math.min(a.box.y0, b.box.y0), x1: Math.max(a.box.x1, b.box.x1), y1: Math.max(a.box.y1, b.box.y1) };
  const widthPx = (a.widthPx * a.lengthPx + b.widthPx * b.lengthPx) / (a.lengthPx + b.lengthPx);
  return { pixels: a.pixels + b.pixels, lengthPx, widthPx, angleDeg: angleOf(far[1].x - far[0].x, far[1].y - far[0].y), box, ends: far };
}

/** Degrees from the x axis (y down), 0 ≤ angle < 180 once rounded as reported (179.97° is 0°). */
function angleOf(dx: number, dy: number): number {
  const rounded = Number((((((Math.atan2(dy, dx) * 180) / Math.PI) % 180) + 180) % 180).toFixed(1));
  return rounded >= 180 ? 0 : rounded;
}

/** Compact glints whose boxes come within `gapPx` of each other, joined into one (its box, its area, its extent). */
function mergeNear(glints: readonly Glint[], gapPx: number): Glint[] {
  const merged: Glint[] = [];
  for (const glint of glints) {
    const near = merged.findIndex((m) => m.box.x0 - gapPx <= glint.box.x1 && glint.box.x0 - gapPx <= m.box.x1 && m.box.y0 - gapPx <= glint.box.y1 && glint.box.y0 - gapPx <= m.box.y1);
    if (near < 0) {
      merged.push(glint);
      continue;
    }
    const m = merged[near]!;
    const box = { x0: Math.min(m.box.x0, glint.box.x0), y0: Math.min(m.box.y0, glint.box.y0), x1: Math.max(m.box.x1, glint.box.x1), y1: Math.max(m.box.y1, glint.box.y1) };
    const across = [box.x1 - box.x0 + 1, box.y1 - box.y0 + 1];
    merged[near] = { pixels: m.pixels + glint.pixels, lengthPx: Math.max(...across), widthPx: Math.min(...across), angleDeg: m.angleDeg, box, ends: m.ends };
  }
  return merged;
}

/** A compact glint's size across: the diameter of a disc of its area. */
function diameterPx(glint: Glint): number {
  return Math.max(glint.lengthPx, 2 * Math.sqrt(glint.pixels / Math.PI));
}

/** Hysteresis: glints seeded at GLINT_LEVELS, grown through 8-neighbours down to GLINT_EDGE_LEVELS, measured by their moments. */
function connectedGlints(light: ReflectedLight): Glint[] {
  const { glint, width, height, pxPerMm } = light;
  const inset = Math.ceil(INSET_MM * pxPerMm);
  const seen = new Uint8Array(width * height);
  const glints: Glint[] = [];
  const stack: number[] = [];
  const members: number[] = [];
  for (let y = inset; y < height - inset; y++) {
    for (let x = inset; x < width - inset; x++) {
      const start = y * width + x;
      if (seen[start] || glint[start]! < GLINT_LEVELS) continue;
      seen[start] = 1;
      stack.push(start);
      members.length = 0;
      while (stack.length > 0) {
        const p = stack.pop()!;
        members.push(p);
        const px = p % width;
        const py = (p - px) / width;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const nx = px + dx;
            const ny = py + dy;
            if (nx < inset || ny < inset || nx >= width - inset || ny >= height - inset) continue;
            const q = ny * width + nx;
            if (seen[q] || glint[q]! < GLINT_EDGE_LEVELS) continue;
            seen[q] = 1;
            stack.push(q);
          }
        }
      }
      glints.push(measureGlint(members, width));
    }
  }
  return glints;
}

/** Length along the main axis (end to end, a pixel's width included), width as area over length, angle from x (y down). */
function measureGlint(members: readonly number[], width: number): Glint {
  let sx = 0;
  let sy = 0;
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const p of members) {
    const x = p % width;
    const y = (p - x) / width;
    sx += x;
    sy += y;
    box.x0 = Math.min(box.x0, x);
    box.y0 = Math.min(box.y0, y);
    box.x1 = Math.max(box.x1, x);
    box.y1 = Math.max(box.y1, y);
  }
  const n = members.length;
  const cx = sx / n;
  const cy = sy / n;
  let xx = 0;
  let yy = 0;
  let xy = 0;
  for (const p of members) {
    const x = (p % width) - cx;
    const y = Math.floor(p / width) - cy;
    xx += x * x;
    yy += y * y;
    xy += x * y;
  }
  const angle = 0.5 * Math.atan2(2 * xy, xx - yy);
  const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
  let low = Infinity;
  let high = -Infinity;
  for (const p of members) {
    const t = ((p % width) - cx) * ux + (Math.floor(p / width) - cy) * uy;
    low = Math.min(low, t);
    high = Math.max(high, t);
  }
  const lengthPx = high - low + 1;
  const ends: [Point, Point] = [
    { x: cx + low * ux, y: cy + low * uy },
    { x: cx + high * ux, y: cy + high * uy },
  ];
  return { pixels: n, lengthPx, widthPx: n / lengthPx, angleDeg: angleOf(ux, uy), box, ends };
}
