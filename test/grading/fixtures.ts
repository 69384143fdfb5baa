import type { CornerMeasurement, EdgeMeasurement, SideMeasurement, SideName } from '../../src/contracts/measurement.ts';

// Measurements as the vision layer reports them, built by hand so the grading tables can be tested exactly.

export interface SideOptions {
  side?: SideName;
  /** Larger border's share, per axis; null for a borderless card. */
  centering?: { horizontal: number; vertical: number } | null;
  corners?: Partial<Record<CornerMeasurement['corner'], number>>;
  edgeWhitening?: Partial<Record<EdgeMeasurement['edge'], number | null>>;
  nicks?: Partial<Record<EdgeMeasurement['edge'], number[]>>;
  scratchLengthMm?: number;
  spotCount?: number;
  printLine?: boolean;
  crease?: boolean;
  confidence?: number;
  hints?: string[];
}

function axis(share: number, totalMm: number) {
  const firstMm = (totalMm * share) / 100;
  const secondMm = totalMm - firstMm;
  return { firstMm, secondMm, worstShare: share, ratio: `${Math.round(share)}/${100 - Math.round(share)}` };
}

export function side(options: SideOptions = {}): SideMeasurement {
  const centering = options.centering === undefined ? { horizontal: 50, vertical: 50 } : options.centering;
  const corners = (['topLeft', 'topRight', 'bottomRight', 'bottomLeft'] as const).map((corner) => {
    const defectMm = options.corners?.[corner] ?? 0;
    return { corner, frayMm: 0, whitenedMm: defectMm, defectMm };
  });
  const edges = (['top', 'right', 'bottom', 'left'] as const).map((edge) => {
    const whitened = options.edgeWhitening?.[edge];
    return {
      edge,
      whitenedMm: whitened === undefined ? 0 : whitened,
      nicks: (options.nicks?.[edge] ?? []).map((depthMm, i) => ({ depthMm, lengthMm: 1, atMm: 10 + i * 5 })),
    };
  });
  const horizontal = centering ? axis(centering.horizontal, 6) : null;
  const vertical = centering ? axis(centering.vertical, 6) : null;
  return {
    side: options.side ?? 'front',
    image: { width: 3000, height: 4000 },
    quad: [
      { x: 500, y: 500 },
      { x: 2500, y: 500 },
      { x: 2500, y: 3300 },
      { x: 500, y: 3300 },
    ],
    cornerStyle: 'rounded',
    quality: {
      blurVariance: 500,
      glareShare: 0,
      sourcePxPerMm: 31.7,
      pxPerMm: 20,
      smallestDefectMm: 0.1,
      hints: options.hints ?? [],
    },
    centering:
      horizontal && vertical
        ? {
            measurable: true,
            leftMm: horizontal.firstMm,
            rightMm: horizontal.secondMm,
            topMm: vertical.firstMm,
            bottomMm: vertical.secondMm,
            horizontal,
            vertical,
            tilted: false,
            innerFrame: { left: horizontal.firstMm, right: 63 - horizontal.secondMm, top: vertical.firstMm, bottom: 88 - vertical.secondMm },
          }
        : { measurable: false, reason: 'borderless' },
    corners,
    edges,
    surface: {
      scratchLengthMm: options.scratchLengthMm ?? 0,
      spotCount: options.spotCount ?? 0,
      printLine: options.printLine ?? false,
      crease: options.crease ?? false,
      textured: false,
    },
    defects: [],
    confidence: options.confidence ?? 0.95,
  };
}
