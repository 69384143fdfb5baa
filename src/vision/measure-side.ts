import type { SideMeasurement, SideName } from '../contracts/measurement.ts';
import { centeringRegions, measureCentering } from './centering.ts';
import { measureCorners } from './corners.ts';
import { measureEdges } from './edges.ts';
import { findCard } from './find-card.ts';
import { warpCard } from './flatten.ts';
import { round } from './geometry.ts';
import type { DecodedImage } from './image.ts';
import { measureQuality } from './quality.ts';
import { backgroundNoise, outlineRiseMm, rimRegions, rimStartMm } from './rim.ts';
import { measureSurface, surfaceGrid } from './surface.ts';

/** The flattened card keeps this much of the surroundings, so the outline can be seen against the background. */
const MARGIN_MM = 1;
/** Holo and textured faces hide small scratches. */
const TEXTURED_CONFIDENCE = 0.8;

/**
 * Finds the card in the photo and measures it (GRADING.md §1); throws ImageMeasurementError when it cannot.
 * Pure and synchronous: the same pixels always give the same result, numbers rounded so the JSON is identical.
 */
export function measureSide(image: DecodedImage, side: SideName): SideMeasurement {
  if (image.channels !== 3 || image.data.length !== image.width * image.height * 3) {
    throw new Error(`measureSide needs interleaved RGB: ${image.width} × ${image.height} × 3 ≠ ${image.data.length} bytes`);
  }
  const quad = findCard(image);
  const flat = warpCard(image, quad, MARGIN_MM, [...rimRegions(), ...centeringRegions()]);
  const centering = measureCentering(flat);
  const outlineRise = outlineRiseMm(flat);
  const noise = backgroundNoise(flat);
  const corners = measureCorners(flat, rimStartMm(outlineRise), noise);
  const edges = measureEdges(flat, rimStartMm(outlineRise), noise);
  const grid = surfaceGrid(image, quad);
  const surface = measureSurface(grid);
  const { quality, confidenceFactor } = measureQuality(flat, grid, quad, surface.glareShare, outlineRise);
  const confidence = confidenceFactor * (surface.surface.textured ? TEXTURED_CONFIDENCE : 1);
  return {
    side,
    image: { width: image.width, height: image.height },
    quad: quad.map((p) => ({ x: round(p.x), y: round(p.y) })),
    cornerStyle: corners.cornerStyle,
    quality,
    centering,
    corners: corners.corners,
    edges: edges.edges,
    surface: surface.surface,
    defects: [...corners.defects, ...edges.defects, ...surface.defects],
    confidence: round(Math.min(1, Math.max(0, confidence))),
  };
}
