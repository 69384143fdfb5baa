import type { Defect, InnerFrame, SurfaceMeasurement } from '../contracts/measurement.ts';
import type { CardSize } from './card-formats.ts';
import type { DecodedImage } from './image.ts';
import { round } from './geometry.ts';
import { growRegion } from './regions.ts';

/** GRADING.md §1.8: inside a 1.5 mm inset, away from the rim. */
const INSET_MM = 1.5;
/**
 * Local contrasts that an edge of the art does not produce, so the art's own shapes are not taken for defects:
 * a line is lighter (darker) than BOTH its neighbours LINE_REACH_MM away on either side across it; a spot is
 * darker than ALL eight points of a ring SPOT_REACH_MM round it. An edge has one side like the pixel.
 * A scratch is also sharp: half its contrast already shows at half the reach, which a soft valley between two
 * shapes of the art does not.
 */
const LINE_REACH_MM = 0.4;
const LINE_SHARPNESS = 0.5;
const SPOT_REACH_MM = 1;
/** Glare: near-white and unsaturated. */
const GLARE_LIGHTNESS = 250;
const GLARE_CHROMA = 12;
/** Contrast thresholds: this many noise deviations, and never below the floor (8-bit levels). */
const NOISE_FACTOR = 6;
const CONTRAST_FLOOR = 10;
/** Contrasts below this cannot reach even the hysteresis's lower threshold and are not kept. */
const MIN_CONTRAST = CONTRAST_FLOOR / 2;
/** Pixel noise above this (levels) means a holo or heavily textured face. */
const TEXTURED_NOISE = 3;
/**
 * Shorter light lines are the art's own: the thin gap where two shapes nearly meet, a stroke of lettering. A scratch
 * this short costs little more than half a grade (GRADING.md §2: 2 mm is 9.5), so little is lost by not counting it.
 */
const MIN_SCRATCH_MM = 2.5;
const MIN_SCRATCH_TEXTURED_MM = 4;
const MIN_SPOT_MM = 0.3;
/**
 * Printed lettering: thin dark strokes (darker than both sides across them) cover at least this share of the face
 * round a mark; a clean face, art included, has almost none (under 0.5%), text 1.5–17%. The gap between two strokes
 * of a letter is a light line and a letter's dot a dark spot: among lettering they are print, not damage. Round a line
 * the strokes are looked for within TEXT_LINE_REACH_MM; round a spot, from TEXT_SPOT_CLEAR_MM out to TEXT_SPOT_REACH_MM.
 */
const TEXT_STROKE_SHARE = 0.01;
const TEXT_LINE_REACH_MM = 1;
const TEXT_SPOT_REACH_MM = 2;
const TEXT_SPOT_CLEAR_MM = 0.4;
/**
 * Spots this wide (px radius at half contrast) or wider must be flat-topped: half-way out from their middle, still
 * this share of their contrast. A drop of ink or a speck of dirt is; a soft patch of the art peaks and fades.
 */
const FLAT_TOP_MIN_RADIUS_PX = 3;
const FLAT_TOP_SHARE = 0.85;
/**
 * A spot is a mark on its own: grown out to ISOLATION_SEARCH times the ring's radius at half its contrast, it
 * reaches no further than ISOLATION_EXTENT times it. A part of a printed letter runs on into the glyph.
 */
const ISOLATION_SEARCH = 2;
const ISOLATION_EXTENT = 1.25;
/** A spot also stands out from most of the face 2 and 3 ring radii round it (see standsOutFromWiderSurround). */
const WIDER_SURROUND_REACHES = [2, 3];
/** A spot is compact: not more than this many times longer than wide. */
const SPOT_ELONGATION = 2.5;
/** Long and thin: at least this many times longer than wide. */
const LINE_ELONGATION = 4;
/** Print lines run along an axis (within this many degrees) for at least this share of the face. */
const PRINT_LINE_ANGLE_DEG = 2;
const PRINT_LINE_SHARE = 0.5;
/**
 * Sharpening and JPEG ringing draw faint lines of the opposite shade along and round the ends of a strong one: a
 * line lying wholly within HALO_DISTANCE_MM of one at least 1 / HALO_SHARE as strong is its halo, not a defect.
 */
const HALO_SHARE = 0.5;
const HALO_DISTANCE_MM = 0.8;
/**
 * A line along the border's inner edge, within this of it, is the print's own frame (most cards outline their art),
 * not a print line or a scratch: those run across the face wherever the roller or the damage put them.
 */
const FRAME_LINE_MM = 0.8;
/** A crease shows as a light and a dark line of similar strength side by side, each at least this long. */
const CREASE_MIN_MM = 15;
/**
 * Printed name bars, text boxes and rules run along the card's axes (within this, the print's own tilt) and show the
 * same light-and-dark pair along their edges: such a pair is a crease only when it runs across WHOLE_FACE_SHARE of
 * the face, through the print's shapes; a fold across the card at any other angle is one at CREASE_MIN_MM.
 */
const PRINT_AXIS_DEG = 3;
const WHOLE_FACE_SHARE = 0.9;
/**
 * Such a pair along an axis within this of the card's parallel edge is an edge seen inside the outline, not a fold:
 * the card's own cut where the outline was found a few millimetres outside it (a holder's well), or the holder's
 * wall. A fold that near the edge and that straight across the whole card is not how cards crease.
 */
const AXIS_CREASE_EDGE_CLEAR_MM = 10;
/**
 * A card's layout (its bars, rules and boxes) is printed inside the border, from one inner edge of it to the other; a
 * fold or a roller's missing ink runs on through the border towards the cut. A line along an axis whose ends both
 * stop within this of the border's inner edges (issue 31: a foil bar over a dark rule across a holo's lower face, a
 * light and a dark line side by side as a fold's two faces are) is the layout's, not a crease; nor, with a dark rule
 * beside it, a print line (a print line alone, a roller's missing ink, may stop at the frame too).
 */
const PAST_FRAME_MM = 0.4;
/**
 * The print is read this far either side of a light-and-dark pair (clear of both lines and their halos), at this
 * many places along it; a printed shape's edge differs across it by at least PRINT_EDGE_STEP levels on average.
 */
const PRINT_EDGE_SIDE_MM = 1.2;
/**
 * A foil's ridged lines (a cosmos or reverse holo's, a refractor's) and a printed linen or screen texture are many lines
 * side by side at one angle across the face, each ridge a light and a dark line like a fold's two faces. A pair is one
 * of such a pattern, print, where PATTERN_MIN_LINES or more other lines run within PATTERN_ANGLE_DEG of its angle, each
 * at least PATTERN_LINE_MM long and PATTERN_OFFSET_MM or more off its line (not its own pieces, its partner or their
 * halos): a card is folded once or twice, never in half a dozen parallel folds. Against a pair off the card's axes, lines
 * along an axis (the print's rules, frames and lettering) are not counted: they are the print's own, not a pattern at
 * the pair's angle.
 */
const PATTERN_ANGLE_DEG = 3;
const PATTERN_LINE_MM = 3;
const PATTERN_OFFSET_MM = 2;
const PATTERN_MIN_LINES = 6;
const PRINT_EDGE_SAMPLES = 40;
/**
 * The strokes of a card's art (a lock of hair's strands, hatching, the lines of a cape's folds) are drawn side by side,
 * flowing together: a light line with at least ART_STROKE_NEIGHBOURS other lines (light or dark, each
 * ART_STROKE_MIN_MM or longer) running within ART_STROKE_ANGLE_DEG of its direction beside it (within ART_STROKE_REACH_MM
 * across it, overlapping it along it) is one of them, not a scratch (issue 31: a One Piece full-art's hair read as
 * 6–10 mm scratches). A scratch is a stroke of its own across the print, whatever direction the print's strokes take.
 */
const ART_STROKE_NEIGHBOURS = 3;
const ART_STROKE_MIN_MM = 2;
const ART_STROKE_ANGLE_DEG = 15;
const ART_STROKE_REACH_MM = 6;
/**
 * A fold's dark face lies this far from its light one (a drawn or real fold's faces are some 0.35 mm apart, centre
 * to centre), read against the print FOLD_FACE_REFERENCE_MM out, over the middle FOLD_FACE_SPAN of the light line;
 * seen on FOLD_FACE_SHARE of it, the fold's dark face is there (see darkFaceBeside).
 */
const FOLD_FACE_FROM_MM = 0.2;
const FOLD_FACE_TO_MM = 0.7;
const FOLD_FACE_GAP_MM = 0.4;
const FOLD_FACE_REFERENCE_MM = 1.2;
const FOLD_FACE_SPAN = 0.9;
const FOLD_FACE_SHARE = 0.6;
const PRINT_EDGE_STEP = 20;

export interface SurfaceReport {
  surface: SurfaceMeasurement;
  defects: Defect[];
  /** Share of the face that is glare (photo quality). */
  glareShare: number;
}

/** The card's face at half the flattened resolution: lightness, and which pixels are glare. */
/** The face of a card of its format's size (widthMm × heightMm). */
export interface SurfaceGrid extends CardSize {
  lightness: Uint8Array;
  glare: Uint8Array;
  width: number;
  height: number;
  pxPerMm: number;
}

/** A connected stretch of residual: light (positive) or dark (negative). */
interface Blob {
  light: boolean;
  pixels: number;
  /** The strongest contrast in the region (levels). */
  peak: number;
  /** End points along the main axis, and the box, in mm. */
  a: { x: number; y: number };
  b: { x: number; y: number };
  box: { x0: number; y0: number; x1: number; y1: number };
  lengthMm: number;
  widthMm: number;
  /** √(λ1 / λ2) of the second moments: 1 for a disc, large for a line. */
  elongation: number;
  angleDeg: number;
}

/**
 * GRADING.md §1.8 inside a 1.5 mm inset, glare excluded: thin lines and small spots found by local contrasts an
 * edge of the art cannot make, each measured against the local median around it; connected regions are scratches
 * (long, thin), print lines (long, along an axis), spots (small, compact) or a crease (a light and a dark line side
 * by side). A textured face raises the scratch threshold and is reported so confidence drops. A scratch catches
 * the light: only a light line is one; a spot is a dark mark, never a light one (a holo's sparkle). Printed lettering is print, not damage: the gaps between its strokes and its
 * dots and bowls are left out (see TEXT_STROKE_SHARE, isIsolated, standsOutFromWiderSurround).
 */
export function measureSurface(grid: SurfaceGrid, innerFrame?: InnerFrame): SurfaceReport {
  const { width, height, pxPerMm } = grid;
  const inset = Math.round(INSET_MM * pxPerMm);
  const noise = pixelNoise(grid, inset);
  const textured = noise > TEXTURED_NOISE;
  const threshold = Math.max(CONTRAST_FLOOR, NOISE_FACTOR * noise);
  const lineContrasts = localContrasts(grid, inset, threshold);
  const regions = new RegionScratch(width * height);

  const isLine = (blob: Blob) => blob.lengthMm >= 1 && blob.lengthMm >= LINE_ELONGATION * blob.widthMm && blob.elongation >= LINE_ELONGATION;
  const lines = withoutHalos(
    mergeCollinear(
      [
        ...findBlobs(lineContrasts.light, lineContrasts.lightSeeds, width, height, threshold, true, pxPerMm, regions),
        ...findBlobs(lineContrasts.dark, lineContrasts.darkSeeds, width, height, threshold, false, pxPerMm, regions),
      ].filter(isLine),
    ),
  );
  const half = halfGrid(grid);
  const ring = ringContrasts(half, Math.round(INSET_MM * half.pxPerMm), threshold);
  const halfRegions = new RegionScratch(half.width * half.height);
  // Only a mark darker than the print round it is a spot: ink, marker, dirt. A small mark lighter than all round it
  // is a holo's sparkle, a printed star or a glint of light on the face, which a grader reads as print (issue 9).
  const spots = findSpots(grid, half, ring.dark, ring.darkSeeds, threshold, false, halfRegions, regions);
  const defects: Defect[] = [];
  const creased = new Set<Blob>();
  const layoutLine = (line: Blob) => innerFrame !== undefined && isAxisAligned(line, PRINT_AXIS_DEG) && withinFrame(line, innerFrame);
  const creaseLike = (line: Blob) =>
    line.lengthMm >= CREASE_MIN_MM &&
    (!isAxisAligned(line, PRINT_AXIS_DEG) ||
      (line.lengthMm >= WHOLE_FACE_SHARE * faceLengthAlong(grid, line) && distanceFromParallelEdge(grid, line) >= AXIS_CREASE_EDGE_CLEAR_MM && !layoutLine(line)));
  for (const light of lines.filter((line) => line.light && creaseLike(line))) {
    for (const dark of lines.filter((line) => !line.light && creaseLike(line) && !creased.has(line))) {
      const alike = Math.min(light.peak, dark.peak) >= HALO_SHARE * Math.max(light.peak, dark.peak);
      if (alike && angleBetween(light.angleDeg, dark.angleDeg) <= 5 && distanceToLine(centre(dark), light) <= 1.5 && !isPrintedEdge(grid, light, dark) && !inLinePattern(light, lines)) {
        creased.add(light).add(dark);
        const box = unionBox(light.box, dark.box);
        const length = Math.max(light.lengthMm, dark.lengthMm);
        defects.push({ kind: 'crease', location: 'surface', box: toBox(box), sizeMm: round(length), lengthMm: round(length), angleDeg: reportedAngle(light.angleDeg) });
        break;
      }
    }
  }
  // A fold across printed bars and rules: where its dark face crosses a dark rule the two are one region, which runs
  // along neither, so the pair above is not found. Its dark face is then read beside the light one directly.
  for (const light of lines.filter((line) => line.light && !creased.has(line) && creaseLike(line) && !isAxisAligned(line, PRINT_AXIS_DEG))) {
    const dark = darkFaceBeside(grid, light, threshold);
    if (dark === null || isPrintedEdge(grid, light, dark) || inLinePattern(light, lines)) continue;
    creased.add(light);
    defects.push({ kind: 'crease', location: 'surface', box: toBox(light.box), sizeMm: round(light.lengthMm), lengthMm: round(light.lengthMm), angleDeg: reportedAngle(light.angleDeg) });
  }
  const amongLettering = (box: Blob['box'], reachMm: number, clearMm: number) =>
    darkStrokeShare(lineContrasts.dark, width, height, pxPerMm, threshold, box, reachMm, clearMm) >= TEXT_STROKE_SHARE;
  let scratchLength = 0;
  let printLine = false;
  const minScratch = textured ? MIN_SCRATCH_TEXTURED_MM : MIN_SCRATCH_MM;
  for (const line of lines) {
    if (creased.has(line) || (innerFrame && alongFrame(line, innerFrame))) continue;
    const axisAligned = isAxisAligned(line, PRINT_LINE_ANGLE_DEG);
    // Ink missing along the roller's path is lighter than the print round it; a dark line along an axis is a rule
    // the card was printed with (under attacks, round text boxes), not a defect.
    if (axisAligned && !line.light) continue;
    // A light rule with a dark one beside it, both stopping at the border's inner edges: the layout's foil bar.
    if (axisAligned && layoutLine(line) && lines.some((dark) => !dark.light && layoutLine(dark) && dark.lengthMm >= 0.8 * line.lengthMm && distanceToLine(centre(dark), line) <= 1.5)) continue;
    const kind = axisAligned && line.lengthMm >= PRINT_LINE_SHARE * faceLengthAlong(grid, line) ? 'print-line' : line.light && line.lengthMm >= minScratch ? 'scratch' : null;
    if (kind === null) continue;
    if (kind === 'scratch' && (amongLettering(line.box, TEXT_LINE_REACH_MM, 0) || amongArtStrokes(line, lines))) continue;
    if (kind === 'print-line') printLine = true;
    else scratchLength += round(line.lengthMm);
    defects.push({ kind, location: 'surface', box: toBox(line.box), sizeMm: round(line.lengthMm), lengthMm: round(line.lengthMm), angleDeg: reportedAngle(line.angleDeg) });
  }
  let spotCount = 0;
  for (const spot of spots) {
    if (spot.diameterMm < MIN_SPOT_MM) continue;
    if (amongLettering(spot.box, TEXT_SPOT_REACH_MM, TEXT_SPOT_CLEAR_MM)) continue;
    spotCount++;
    defects.push({ kind: 'spot', location: 'surface', box: toBox(spot.box), sizeMm: round(spot.diameterMm) });
  }
  return {
    surface: { scratchLengthMm: round(scratchLength), spotCount, printLine, crease: creased.size > 0, textured },
    defects,
    glareShare: lineContrasts.glareShare,
  };
}

function isAxisAligned(line: Blob, toleranceDeg: number): boolean {
  return angleBetween(line.angleDeg, 0) <= toleranceDeg || angleBetween(line.angleDeg, 90) <= toleranceDeg;
}

/**
 * Whether a light-and-dark pair is the edge of a printed shape (a strand of hair, the rim of a highlight, a box's
 * side), sharpened into a halo on each side: the print then differs across the pair the same way all along it. A fold
 * runs through the print, so beyond its two faces the print is alike on both sides, as much lighter on one side as
 * on the other over its length.
 */
function isPrintedEdge(grid: SurfaceGrid, light: Blob, dark: Blob): boolean {
  const { lightness, width, height, pxPerMm } = grid;
  const angle = (light.angleDeg * Math.PI) / 180;
  const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
  // Across the pair, from the light line's side to the dark line's.
  const towardsDark = (centre(dark).x - centre(light).x) * -uy + (centre(dark).y - centre(light).y) * ux >= 0 ? 1 : -1;
  const [nx, ny] = [-uy * towardsDark, ux * towardsDark];
  const mid = { x: (centre(light).x + centre(dark).x) / 2, y: (centre(light).y + centre(dark).y) / 2 };
  const length = Math.min(light.lengthMm, dark.lengthMm);
  let sum = 0;
  let count = 0;
  for (let k = 0; k < PRINT_EDGE_SAMPLES; k++) {
    const t = (k / (PRINT_EDGE_SAMPLES - 1) - 0.5) * length;
    const at = (side: number) => {
      const x = Math.round((mid.x + ux * t + nx * side * PRINT_EDGE_SIDE_MM) * pxPerMm);
      const y = Math.round((mid.y + uy * t + ny * side * PRINT_EDGE_SIDE_MM) * pxPerMm);
      return x < 0 || y < 0 || x >= width || y >= height ? null : lightness[y * width + x]!;
    };
    const before = at(-1);
    const after = at(1);
    if (before === null || after === null) continue;
    sum += before - after;
    count++;
  }
  return count > 0 && Math.abs(sum / count) >= PRINT_EDGE_STEP;
}

/**
 * A fold's dark face beside its light one: along the light line, on one side of it and FOLD_FACE_FROM_MM to
 * FOLD_FACE_TO_MM away, a pixel darker by the line threshold than the print a little further out on that side, over
 * FOLD_FACE_SHARE of the line's length. Returned as the light line moved to that side (a stand-in for the dark line).
 */
function darkFaceBeside(grid: SurfaceGrid, light: Blob, threshold: number): Blob | null {
  const { lightness, width, height, pxPerMm } = grid;
  const angle = (light.angleDeg * Math.PI) / 180;
  const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
  const mid = centre(light);
  const at = (along: number, across: number) => {
    const x = Math.round((mid.x + ux * along - uy * across) * pxPerMm);
    const y = Math.round((mid.y + uy * along + ux * across) * pxPerMm);
    return x < 0 || y < 0 || x >= width || y >= height ? null : lightness[y * width + x]!;
  };
  const step = 1 / pxPerMm;
  for (const side of [-1, 1]) {
    let seen = 0;
    for (let k = 0; k < PRINT_EDGE_SAMPLES; k++) {
      const along = (k / (PRINT_EDGE_SAMPLES - 1) - 0.5) * FOLD_FACE_SPAN * light.lengthMm;
      const reference = at(along, side * FOLD_FACE_REFERENCE_MM);
      if (reference === null) continue;
      let darkest = 255;
      for (let d = FOLD_FACE_FROM_MM; d <= FOLD_FACE_TO_MM; d += step) darkest = Math.min(darkest, at(along, side * d) ?? 255);
      if (reference - darkest >= threshold) seen++;
    }
    if (seen >= FOLD_FACE_SHARE * PRINT_EDGE_SAMPLES) {
      const shift = (p: { x: number; y: number }) => ({ x: p.x - uy * side * FOLD_FACE_GAP_MM, y: p.y + ux * side * FOLD_FACE_GAP_MM });
      return { ...light, light: false, a: shift(light.a), b: shift(light.b) };
    }
  }
  return null;
}

/** Whether the line is one of the art's strokes flowing side by side (see ART_STROKE_NEIGHBOURS). */
function amongArtStrokes(line: Blob, lines: readonly Blob[]): boolean {
  const angle = (line.angleDeg * Math.PI) / 180;
  const middle = centre(line);
  const neighbours = lines.filter((other) => {
    if (other === line || other.lengthMm < ART_STROKE_MIN_MM || angleBetween(other.angleDeg, line.angleDeg) > ART_STROKE_ANGLE_DEG) return false;
    // Beside it: within reach across its direction, and overlapping it along that direction.
    const along = Math.abs((centre(other).x - middle.x) * Math.cos(angle) + (centre(other).y - middle.y) * Math.sin(angle));
    return distanceToLine(centre(other), line) <= ART_STROKE_REACH_MM && along <= (line.lengthMm + other.lengthMm) / 2;
  });
  return neighbours.length >= ART_STROKE_NEIGHBOURS;
}

/** Whether the line is one of a pattern of lines side by side at its angle (see PATTERN_MIN_LINES). */
function inLinePattern(line: Blob, lines: readonly Blob[]): boolean {
  const offAxis = !isAxisAligned(line, PRINT_AXIS_DEG);
  let parallel = 0;
  for (const other of lines) {
    if (other === line || other.lengthMm < PATTERN_LINE_MM || angleBetween(other.angleDeg, line.angleDeg) > PATTERN_ANGLE_DEG) continue;
    if (offAxis && isAxisAligned(other, PRINT_AXIS_DEG)) continue;
    if (distanceToLine(centre(other), line) < PATTERN_OFFSET_MM) continue;
    if (++parallel >= PATTERN_MIN_LINES) return true;
  }
  return false;
}

/** How far the line's middle lies from the nearer card edge parallel to it (mm). */
function distanceFromParallelEdge(size: CardSize, line: Blob): number {
  const { x, y } = centre(line);
  return angleBetween(line.angleDeg, 0) <= 45 ? Math.min(y, size.heightMm - y) : Math.min(x, size.widthMm - x);
}

/** The length of the face (inside the inset) in the direction the line runs. */
function faceLengthAlong(size: CardSize, line: Blob): number {
  return angleBetween(line.angleDeg, 0) <= 45 ? size.widthMm - 2 * INSET_MM : size.heightMm - 2 * INSET_MM;
}

/**
 * Share of the pixels round a box (out to `reachMm`, leaving out those within `clearMm` of it) that are dark
 * strokes: darker than both sides across them by at least the threshold. Printed lettering is a dense cluster of them.
 */
function darkStrokeShare(lineDark: Int16Array, width: number, height: number, pxPerMm: number, threshold: number, box: Blob['box'], reachMm: number, clearMm: number): number {
  const x0 = Math.max(0, Math.floor((box.x0 - reachMm) * pxPerMm));
  const y0 = Math.max(0, Math.floor((box.y0 - reachMm) * pxPerMm));
  const x1 = Math.min(width, Math.ceil((box.x1 + reachMm) * pxPerMm));
  const y1 = Math.min(height, Math.ceil((box.y1 + reachMm) * pxPerMm));
  const cx0 = (box.x0 - clearMm) * pxPerMm;
  const cy0 = (box.y0 - clearMm) * pxPerMm;
  const cx1 = (box.x1 + clearMm) * pxPerMm;
  const cy1 = (box.y1 + clearMm) * pxPerMm;
  let strokes = 0;
  let examined = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (clearMm > 0 && x >= cx0 && x < cx1 && y >= cy0 && y < cy1) continue;
      examined++;
      if (lineDark[y * width + x]! >= threshold) strokes++;
    }
  }
  return examined === 0 ? 0 : strokes / examined;
}

/**
 * Light and dark contrasts of each pixel, and the pixels where either reaches the threshold (the seeds regions
 * grow from), in ascending order: finding them while the contrasts are computed saves scanning the face for them.
 */
interface Contrasts {
  light: Int16Array;
  dark: Int16Array;
  lightSeeds: IndexList;
  darkSeeds: IndexList;
}


/** A growing list of pixel indices. */
class IndexList {
  private data = new Int32Array(256);
  length = 0;

  push(index: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = index;
  }

  values(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

/** One pass over the face inside the inset: each pixel's line contrasts, light and dark; glare left at 0. */
function localContrasts(grid: SurfaceGrid, inset: number, seedContrast: number): Contrasts & { glareShare: number } {
  const { width, height, pxPerMm } = grid;
  const size = width * height;
  const out: Contrasts = { light: new Int16Array(size), dark: new Int16Array(size), lightSeeds: new IndexList(), darkSeeds: new IndexList() };
  // Neighbour offsets across a line in four directions, at the full reach and at about half of it.
  const d = Math.round(LINE_REACH_MM * pxPerMm);
  const dd = Math.round((LINE_REACH_MM * pxPerMm) / Math.SQRT2);
  const h = Math.max(1, Math.round(d / 2));
  const hh = Math.max(1, Math.round(dd / 2));
  const offsets: LineOffsets = {
    far: Int32Array.of(d, d * width, dd * width + dd, dd * width - dd),
    near: Int32Array.of(h, h * width, hh * width + hh, hh * width - hh),
  };
  let glarePixels = 0;
  // One call per row: V8 optimises a hot function far better than an inner loop it entered on the stack.
  for (let y = inset; y < height - inset; y++) {
    glarePixels += lineContrastRow(grid, offsets, y * width + inset, (y + 1) * width - inset, seedContrast, out);
  }
  const insetPixels = (width - 2 * inset) * (height - 2 * inset);
  return { ...out, glareShare: insetPixels <= 0 ? 0 : glarePixels / insetPixels };
}

interface LineOffsets {
  far: Int32Array;
  near: Int32Array;
}

/** Line contrasts of pixels [from, to) of one row; returns how many of them are glare (left at 0). */
function lineContrastRow(grid: SurfaceGrid, { far, near }: LineOffsets, from: number, to: number, seedContrast: number, out: Contrasts): number {
  const { lightness: l, glare } = grid;
  const across = far[0]!;
  const down = far[1]!;
  const settled = MIN_CONTRAST / 2;
  let glarePixels = 0;
  for (let p = from; p < to; p++) {
    if (glare[p] === 1) {
      glarePixels++;
      continue;
    }
    const v = l[p]!;
    // A line at any angle is straddled by the horizontal or the vertical pair well enough to show at least half its
    // contrast there: most pixels are settled by those four reads.
    const h0 = l[p + across]!;
    const h1 = l[p - across]!;
    const v0 = l[p + down]!;
    const v1 = l[p - down]!;
    if (
      v - (h0 > h1 ? h0 : h1) < settled &&
      v - (v0 > v1 ? v0 : v1) < settled &&
      (h0 < h1 ? h0 : h1) - v < settled &&
      (v0 < v1 ? v0 : v1) - v < settled
    ) {
      continue;
    }
    let light = 0;
    let dark = 0;
    for (let k = 0; k < 4; k++) {
      const a = l[p + far[k]!]!;
      const b = l[p - far[k]!]!;
      const lighter = v - (a > b ? a : b);
      const darker = (a < b ? a : b) - v;
      // The sharpness check reads two more pixels, only for what could matter.
      if (lighter > light && lighter >= MIN_CONTRAST) {
        const an = l[p + near[k]!]!;
        const bn = l[p - near[k]!]!;
        if (v - (an > bn ? an : bn) >= LINE_SHARPNESS * lighter) light = lighter;
      }
      if (darker > dark && darker >= MIN_CONTRAST) {
        const an = l[p + near[k]!]!;
        const bn = l[p - near[k]!]!;
        if ((an < bn ? an : bn) - v >= LINE_SHARPNESS * darker) dark = darker;
      }
    }
    if (light > 0) out.light[p] = light;
    if (dark > 0) out.dark[p] = dark;
    if (light >= seedContrast) out.lightSeeds.push(p);
    if (dark >= seedContrast) out.darkSeeds.push(p);
  }
  return glarePixels;
}

/** Pixel noise of the face: the robust spread of each pixel against the mean of its left and right neighbours. */
function pixelNoise(grid: SurfaceGrid, inset: number): number {
  const { width, height } = grid;
  const histogram = new Uint32Array(511);
  for (let y = inset; y < height - inset; y += 2) noiseRow(grid.lightness, y * width + inset, (y + 1) * width - inset, histogram);
  // For independent noise of deviation σ, 2a − b − c has deviation √6 σ; its median absolute value is 0.674 of that.
  return histogramMedian(histogram) / 0.6745 / Math.sqrt(6);
}

function noiseRow(l: Uint8Array, from: number, to: number, histogram: Uint32Array): void {
  for (let p = from; p < to; p++) histogram[Math.abs(2 * l[p]! - l[p - 1]! - l[p + 1]!)]!++;
}

interface Spot {
  diameterMm: number;
  box: Blob['box'];
}

/** The face at half the surface resolution (5 px/mm), where spots are first looked for. */
function halfGrid(grid: SurfaceGrid): SurfaceGrid {
  const width = grid.width >> 1;
  const height = grid.height >> 1;
  const lightness = new Uint8Array(width * height);
  const glare = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) halfRow(grid, y, width, lightness, glare);
  return { lightness, glare, width, height, pxPerMm: grid.pxPerMm / 2, widthMm: grid.widthMm, heightMm: grid.heightMm };
}

function halfRow(grid: SurfaceGrid, y: number, width: number, lightness: Uint8Array, glare: Uint8Array): void {
  const { lightness: l, glare: g } = grid;
  for (let x = 0, p = y * width, i = 2 * y * grid.width; x < width; x++, p++, i += 2) {
    const j = i + grid.width;
    lightness[p] = (l[i]! + l[i + 1]! + l[j]! + l[j + 1]! + 2) >> 2;
    glare[p] = g[i]! | g[i + 1]! | g[j]! | g[j + 1]!;
  }
}

/** Per pixel, how much lighter (darker) it is than every one of eight points on a ring SPOT_REACH_MM round it. */
function ringContrasts(grid: SurfaceGrid, inset: number, seedContrast: number): Contrasts {
  const { width, height } = grid;
  const ring = ringOffsets(grid);
  const size = width * height;
  const out: Contrasts = { light: new Int16Array(size), dark: new Int16Array(size), lightSeeds: new IndexList(), darkSeeds: new IndexList() };
  for (let y = inset; y < height - inset; y++) ringContrastRow(grid, ring, y * width + inset, (y + 1) * width - inset, seedContrast, out);
  return out;
}

function ringOffsets(grid: SurfaceGrid): Int32Array {
  const r = Math.round(SPOT_REACH_MM * grid.pxPerMm);
  const rr = Math.round((SPOT_REACH_MM * grid.pxPerMm) / Math.SQRT2);
  const w = grid.width;
  return Int32Array.of(r, -r, r * w, -r * w, rr * w + rr, rr * w - rr, -rr * w + rr, -rr * w - rr);
}

function ringContrastRow(grid: SurfaceGrid, ring: Int32Array, from: number, to: number, seedContrast: number, out: Contrasts): void {
  const { lightness: l, glare } = grid;
  for (let p = from; p < to; p++) {
    if (glare[p] === 1) continue;
    const v = l[p]!;
    let ringMax = 0;
    let ringMin = 255;
    for (let k = 0; k < 8; k++) {
      const a = l[p + ring[k]!]!;
      if (a > ringMax) ringMax = a;
      if (a < ringMin) ringMin = a;
    }
    if (v > ringMax) {
      out.light[p] = v - ringMax;
      if (v - ringMax >= seedContrast) out.lightSeeds.push(p);
    }
    if (v < ringMin) {
      out.dark[p] = ringMin - v;
      if (ringMin - v >= seedContrast) out.darkSeeds.push(p);
    }
  }
}

/**
 * Spots: found on the half-resolution face by the ring contrast, then each measured on the full face against the
 * local median of the ring round its strongest pixel: its extent is where it differs from that median by at least
 * half its own contrast. A line crossing the ring between its points also stands out from all of them, so only
 * a compact region is a spot.
 */
function findSpots(
  grid: SurfaceGrid,
  half: SurfaceGrid,
  contrast: Int16Array,
  seeds: IndexList,
  threshold: number,
  light: boolean,
  halfRegions: RegionScratch,
  regions: RegionScratch,
): Spot[] {
  const { lightness: l, width, height, pxPerMm } = grid;
  const sign = light ? 1 : -1;
  const ring = ringOffsets(grid);
  const r = Math.round(SPOT_REACH_MM * pxPerMm);
  const spots: Spot[] = [];
  for (const component of hysteresisRegions(contrast, seeds, half.width, half.height, threshold, halfRegions)) {
    let strongest = component[0]!;
    for (const p of component) if (contrast[p]! > contrast[strongest]!) strongest = p;
    // The half-resolution pixel covers a 2 × 2 block: the spot's centre is the block's most extreme pixel (or next to it).
    const hx = strongest % half.width;
    const hy = (strongest - hx) / half.width;
    let centre = 2 * hy * width + 2 * hx;
    for (let y = 2 * hy - 1; y <= 2 * hy + 2; y++) {
      for (let x = 2 * hx - 1; x <= 2 * hx + 2; x++) if (sign * l[y * width + x]! > sign * l[centre]!) centre = y * width + x;
    }
    const background = medianOf(Array.from(ring, (o) => l[centre + o]!));
    const halfContrast = (sign * (l[centre]! - background)) / 2;
    const cx = centre % width;
    const cy = (centre - cx) / width;
    const within: DiscAtLevel = { lightness: l, width, cx, cy, radiusSquared: r * r, sign, reference: background, level: halfContrast };
    // Against the lightest point of the ring: a glyph's own strokes crossing the ring must not set the level.
    const surround = sign > 0 ? Math.min(...Array.from(ring, (o) => l[centre + o]!)) : Math.max(...Array.from(ring, (o) => l[centre + o]!));
    const darkerThanLevel: DiscAtLevel = {
      ...within,
      radiusSquared: (ISOLATION_SEARCH * r) ** 2,
      reference: surround,
      level: (sign * (l[centre]! - surround)) / 2,
    };
    if (!isIsolated(grid, centre, r, darkerThanLevel, regions)) continue;
    if (!standsOutFromWiderSurround(grid, cx, cy, r, sign, threshold)) continue;
    const size = growRegion(centre, width, height, 8, isInDiscAtLevel, within, regions.visitedFresh(), regions.members);
    const shape = describeBlob(regions.members.subarray(0, size), width, light, pxPerMm, new Int16Array(0));
    if (shape.lengthMm > SPOT_ELONGATION * shape.widthMm) continue;
    let sumX = 0;
    let sumY = 0;
    for (let i = 0; i < size; i++) {
      const q = regions.members[i]!;
      sumX += q % width;
      sumY += Math.floor(q / width);
    }
    if (!isFlatTopped(grid, sumX / size, sumY / size, Math.sqrt(size / Math.PI), background, 2 * halfContrast * sign)) continue;
    spots.push({ diameterMm: (2 * Math.sqrt(size / Math.PI)) / pxPerMm, box: shape.box });
  }
  return spots;
}

/** Pixels within a disc round (cx, cy) whose lightness differs from `reference` by `level` or more, towards `sign`. */
interface DiscAtLevel {
  lightness: Uint8Array;
  width: number;
  cx: number;
  cy: number;
  radiusSquared: number;
  sign: number;
  reference: number;
  level: number;
}

function isInDiscAtLevel(q: number, disc: DiscAtLevel): boolean {
  const qx = q % disc.width;
  const qy = (q - qx) / disc.width;
  return (qx - disc.cx) ** 2 + (qy - disc.cy) ** 2 <= disc.radiusSquared && disc.sign * (disc.lightness[q]! - disc.reference) >= disc.level;
}

/**
 * Whether a spot ends inside its ring: grown further out, it stays within ISOLATION_EXTENT of the ring's radius. A
 * part of a printed letter (a bowl, a junction of strokes) goes on into the rest of the glyph.
 */
function isIsolated(grid: SurfaceGrid, centre: number, radius: number, extent: DiscAtLevel, regions: RegionScratch): boolean {
  const { width, height } = grid;
  const size = growRegion(centre, width, height, 8, isInDiscAtLevel, extent, regions.visitedFresh(), regions.members);
  const cx = centre % width;
  const cy = (centre - cx) / width;
  const limit = (ISOLATION_EXTENT * radius) ** 2;
  for (let i = 0; i < size; i++) {
    const q = regions.members[i]!;
    const qx = q % width;
    if ((qx - cx) ** 2 + ((q - qx) / width - cy) ** 2 > limit) return false;
  }
  return true;
}

/**
 * Whether a spot is lighter (darker) by the threshold than most of the face further out too: than the upper (lower)
 * quartile of rings WIDER_SURROUND_REACHES times the ring's radius round it. The counter of a printed letter stands
 * out from the ink round it but is only the paper of the band showing through.
 */
function standsOutFromWiderSurround(grid: SurfaceGrid, cx: number, cy: number, radius: number, sign: number, threshold: number): boolean {
  const { lightness: l, width, height } = grid;
  const values: number[] = [];
  for (const reach of WIDER_SURROUND_REACHES) {
    for (let k = 0; k < 16; k++) {
      const angle = (k * Math.PI) / 8;
      const x = Math.round(cx + reach * radius * Math.cos(angle));
      const y = Math.round(cy + reach * radius * Math.sin(angle));
      if (x >= 0 && y >= 0 && x < width && y < height) values.push(sign * l[y * width + x]!);
    }
  }
  values.sort((a, b) => a - b);
  const upperQuartile = values[Math.floor(0.75 * (values.length - 1))]!;
  return sign * l[cy * width + cx]! - upperQuartile >= threshold;
}

/** Whether a spot is flat-topped (see FLAT_TOP_SHARE); spots too small for the photo to show it pass on contrast alone. */
function isFlatTopped(grid: SurfaceGrid, cx: number, cy: number, radius: number, background: number, contrast: number): boolean {
  if (radius < FLAT_TOP_MIN_RADIUS_PX) return true;
  const share = (r: number) => {
    let sum = 0;
    for (let k = 0; k < 16; k++) {
      const angle = (k * Math.PI) / 8;
      const x = Math.round(cx + r * Math.cos(angle));
      const y = Math.round(cy + r * Math.sin(angle));
      sum += (grid.lightness[y * grid.width + x]! - background) / contrast;
    }
    return sum / 16;
  };
  return share(0.5 * radius) >= FLAT_TOP_SHARE;
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Lightness of the face, and whether each pixel is glare, read off the picture of the card (PICTURE_PX_PER_MM:
 * half the measuring resolution, fine enough for 0.15 mm lines and four times cheaper).
 */
export function surfaceGrid(face: DecodedImage, size: CardSize): SurfaceGrid {
  const { width, height } = face;
  const pxPerMm = width / size.widthMm;
  const lightness = new Uint8Array(width * height);
  const glare = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) lightnessRow(face.data, y * width, (y + 1) * width, lightness, glare);
  return { lightness, glare, width, height, pxPerMm, widthMm: size.widthMm, heightMm: size.heightMm };
}

function lightnessRow(data: Uint8Array, from: number, to: number, lightness: Uint8Array, glare: Uint8Array): void {
  for (let p = from, i = from * 3; p < to; p++, i += 3) {
    const r = data[i]!;
    const g = data[i + 1]!;
    const b = data[i + 2]!;
    const l = 0.299 * r + 0.587 * g + 0.114 * b;
    lightness[p] = l + 0.5;
    // `glare` starts all 0: only glare is written.
    if (l >= GLARE_LIGHTNESS && Math.max(r, g, b) - Math.min(r, g, b) <= GLARE_CHROMA) glare[p] = 1;
  }
}

function histogramMedian(histogram: Uint32Array): number {
  let total = 0;
  for (const count of histogram) total += count;
  let seen = 0;
  for (let v = 0; v < histogram.length; v++) {
    seen += histogram[v]!;
    if (seen * 2 >= total) return v;
  }
  return 0;
}

/** Reusable buffers for region growing over the grid. */
class RegionScratch {
  readonly visited: Uint8Array;
  readonly members: Int32Array;

  constructor(size: number) {
    this.visited = new Uint8Array(size);
    this.members = new Int32Array(size);
  }

  visitedFresh(): Uint8Array {
    this.visited.fill(0);
    return this.visited;
  }
}

/**
 * Connected regions (8-neighbours) of contrast at least `high`, grown down to half of it (hysteresis), so a faint
 * end of a scratch stays attached without noise starting regions of its own. Regions of fewer than 3 pixels are noise.
 * `seeds`: the pixels of contrast at least `high`, in ascending order.
 */
function hysteresisRegions(contrast: Int16Array, seeds: IndexList, width: number, height: number, high: number, regions: RegionScratch): Int32Array[] {
  const visited = regions.visitedFresh();
  const beyondLow = { contrast, low: high / 2 };
  const found: Int32Array[] = [];
  for (const start of seeds.values()) {
    if (visited[start] === 1) continue;
    const size = growRegion(start, width, height, 8, isAtLeast, beyondLow, visited, regions.members);
    if (size >= 3) found.push(regions.members.slice(0, size));
  }
  return found;
}

const isAtLeast = (pixel: number, { contrast, low }: { contrast: Int16Array; low: number }) => contrast[pixel]! >= low;

function findBlobs(contrast: Int16Array, seeds: IndexList, width: number, height: number, high: number, light: boolean, pxPerMm: number, regions: RegionScratch): Blob[] {
  return hysteresisRegions(contrast, seeds, width, height, high, regions).map((pixels) => describeBlob(pixels, width, light, pxPerMm, contrast));
}

/** Main axis by second moments; length as the extent along it, width as area over length. */
function describeBlob(pixels: Int32Array, width: number, light: boolean, pxPerMm: number, contrast: Int16Array): Blob {
  let sx = 0;
  let sy = 0;
  let peak = 0;
  for (const p of pixels) {
    peak = Math.max(peak, contrast[p]!);
    sx += p % width;
    sy += Math.floor(p / width);
  }
  const n = pixels.length;
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const p of pixels) {
    const x = p % width;
    const y = Math.floor(p / width);
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
    syy += (y - my) ** 2;
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const spread = Math.sqrt((sxx - syy) ** 2 + 4 * sxy * sxy);
  const major = (sxx + syy + spread) / 2;
  const minor = Math.max((sxx + syy - spread) / 2, n / 12); // a one-pixel-wide line still has a pixel's width
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  // The ends are where the contrast is still half the region's typical contrast: the faint tails the hysteresis
  // keeps attached would otherwise make a line look longer in a softer photo.
  const strong = contrast.length === 0 ? 0 : medianContrast(pixels, contrast) / 2;
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of pixels) {
    if (contrast.length > 0 && contrast[p]! < strong) continue;
    const t = ((p % width) - mx) * ux + (Math.floor(p / width) - my) * uy;
    lo = Math.min(lo, t);
    hi = Math.max(hi, t);
  }
  // Pixel centres: a run of k pixels along the axis spans k pixel widths.
  const lengthPx = hi - lo + 1;
  const toMm = (v: number) => (v + 0.5) / pxPerMm;
  return {
    light,
    pixels: n,
    peak,
    a: { x: toMm(mx + lo * ux), y: toMm(my + lo * uy) },
    b: { x: toMm(mx + hi * ux), y: toMm(my + hi * uy) },
    box: { x0: x0 / pxPerMm, y0: y0 / pxPerMm, x1: (x1 + 1) / pxPerMm, y1: (y1 + 1) / pxPerMm },
    lengthMm: lengthPx / pxPerMm,
    widthMm: n / lengthPx / pxPerMm,
    elongation: Math.sqrt(major / minor),
    angleDeg: normaliseAngle((angle * 180) / Math.PI),
  };
}

/** Whether the line stops at the border's inner edges, its ends no more than PAST_FRAME_MM past them (see PAST_FRAME_MM). */
function withinFrame(line: Blob, frame: InnerFrame): boolean {
  const inside = (p: { x: number; y: number }) =>
    p.x >= frame.left - PAST_FRAME_MM && p.x <= frame.right + PAST_FRAME_MM && p.y >= frame.top - PAST_FRAME_MM && p.y <= frame.bottom + PAST_FRAME_MM;
  return inside(line.a) && inside(line.b);
}

/** Whether both ends of the line lie within FRAME_LINE_MM of the same inner edge of the border. */
function alongFrame(line: Blob, frame: InnerFrame): boolean {
  const near = (a: number, b: number, edge: number) => Math.abs(a - edge) <= FRAME_LINE_MM && Math.abs(b - edge) <= FRAME_LINE_MM;
  return (
    near(line.a.x, line.b.x, frame.left) || near(line.a.x, line.b.x, frame.right) || near(line.a.y, line.b.y, frame.top) || near(line.a.y, line.b.y, frame.bottom)
  );
}

function withoutHalos(lines: Blob[]): Blob[] {
  return lines.filter(
    (line) =>
      !lines.some(
        (strong) =>
          strong.light !== line.light &&
          line.peak < HALO_SHARE * strong.peak &&
          distanceToSegment(line.a, strong) <= HALO_DISTANCE_MM &&
          distanceToSegment(line.b, strong) <= HALO_DISTANCE_MM,
      ),
  );
}

function distanceToSegment(point: { x: number; y: number }, line: Blob): number {
  const dx = line.b.x - line.a.x;
  const dy = line.b.y - line.a.y;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((point.x - line.a.x) * dx + (point.y - line.a.y) * dy) / lengthSquared));
  return Math.hypot(point.x - (line.a.x + t * dx), point.y - (line.a.y + t * dy));
}

function medianContrast(pixels: Int32Array, contrast: Int16Array): number {
  const values = Int16Array.from(pixels, (p) => contrast[p]!).sort();
  return values[values.length >> 1]!;
}

/**
 * Pieces of one line broken by the threshold (a scratch over lighter art) joined again: the first pair in the list's
 * order that lies on one line is joined, over and over until no pair does. Scanned in one pass: rows before the
 * current one had no pair that joins, and a join changes only the current row's line, so only it is checked against
 * them again (a holo face gives thousands of pieces; rescanning every pair after each join was a tenth of a side's
 * measuring).
 */
function mergeCollinear(lines: Blob[]): Blob[] {
  const result = [...lines];
  let i = 0;
  while (i < result.length) {
    let j = i + 1;
    while (j < result.length && !onOneLine(result[i]!, result[j]!)) j++;
    if (j === result.length) {
      i++;
      continue;
    }
    result[i] = joinLines(result[i]!, result[j]!);
    result.splice(j, 1);
    // The first earlier row the joined line now continues, else this row again (its line has changed).
    let earlier = 0;
    while (earlier < i && !onOneLine(result[earlier]!, result[i]!)) earlier++;
    i = earlier;
  }
  return result;
}

/** Whether `b` continues `a`: the same kind of line, at the same angle, on it and near its ends. */
function onOneLine(a: Blob, b: Blob): boolean {
  return a.light === b.light && angleBetween(a.angleDeg, b.angleDeg) <= 5 && distanceToLine(b.a, a) <= 0.6 && distanceToLine(b.b, a) <= 0.6 && gapAlong(a, b) <= 3;
}

function joinLines(a: Blob, b: Blob): Blob {
  const ends = [a.a, a.b, b.a, b.b];
  let best: [{ x: number; y: number }, { x: number; y: number }] = [a.a, a.b];
  let bestLength = -1;
  for (let i = 0; i < ends.length; i++) {
    for (let j = i + 1; j < ends.length; j++) {
      const length = Math.hypot(ends[i]!.x - ends[j]!.x, ends[i]!.y - ends[j]!.y);
      if (length > bestLength) { bestLength = length; best = [ends[i]!, ends[j]!]; }
    }
  }
  // End points are pixel centres: add one pixel's width back, as for a single blob.
  const pixelMm = a.lengthMm - Math.hypot(a.a.x - a.b.x, a.a.y - a.b.y);
  const lengthMm = bestLength + pixelMm;
  return {
    light: a.light,
    pixels: a.pixels + b.pixels,
    peak: Math.max(a.peak, b.peak),
    a: best[0],
    b: best[1],
    box: unionBox(a.box, b.box),
    lengthMm,
    widthMm: (a.widthMm * a.lengthMm + b.widthMm * b.lengthMm) / lengthMm,
    elongation: Math.max(a.elongation, b.elongation),
    angleDeg: normaliseAngle((Math.atan2(best[1].y - best[0].y, best[1].x - best[0].x) * 180) / Math.PI),
  };
}

function gapAlong(a: Blob, b: Blob): number {
  const length = Math.hypot(a.b.x - a.a.x, a.b.y - a.a.y) || 1;
  const ux = (a.b.x - a.a.x) / length;
  const uy = (a.b.y - a.a.y) / length;
  const t1 = (b.a.x - a.a.x) * ux + (b.a.y - a.a.y) * uy;
  const t2 = (b.b.x - a.a.x) * ux + (b.b.y - a.a.y) * uy;
  const lo = Math.min(t1, t2);
  const hi = Math.max(t1, t2);
  return Math.max(0, lo - length, -hi);
}

function distanceToLine(point: { x: number; y: number }, line: Blob): number {
  const dx = line.b.x - line.a.x;
  const dy = line.b.y - line.a.y;
  const length = Math.hypot(dx, dy);
  if (length === 0) return Math.hypot(point.x - line.a.x, point.y - line.a.y);
  return Math.abs((point.x - line.a.x) * dy - (point.y - line.a.y) * dx) / length;
}

function centre(blob: Blob) {
  return { x: (blob.a.x + blob.b.x) / 2, y: (blob.a.y + blob.b.y) / 2 };
}

/** Degrees to 0.1, in [0, 180): 179.97 is reported as 0, not 180. */
function reportedAngle(degrees: number): number {
  const rounded = round(normaliseAngle(degrees), 0.1);
  return rounded >= 180 ? 0 : rounded;
}

/** Degrees in [0, 180). */
function normaliseAngle(degrees: number): number {
  const a = degrees % 180;
  return a < 0 ? a + 180 : a;
}

function angleBetween(a: number, b: number): number {
  const d = Math.abs(normaliseAngle(a) - normaliseAngle(b));
  return Math.min(d, 180 - d);
}

function unionBox(a: Blob['box'], b: Blob['box']): Blob['box'] {
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

function toBox(box: Blob['box']) {
  return { x: round(box.x0), y: round(box.y0), width: round(box.x1 - box.x0), height: round(box.y1 - box.y0) };
}
