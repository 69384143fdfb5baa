import type { Condition, PsaEstimate, Subgrades } from '../../contracts/grading.ts';
import type { CornerName, Defect, EdgeName, SideMeasurement } from '../../contracts/measurement.ts';

// The conditionAnalysis text: why the grade is what it is, in words, from the measurements.
// It opens with the condition, which the collection's CSV export reads back (SPEC.md §9).

const PLACE: Record<CornerName | EdgeName | 'surface', string> = {
  topLeft: 'top-left',
  topRight: 'top-right',
  bottomRight: 'bottom-right',
  bottomLeft: 'bottom-left',
  top: 'top',
  right: 'right',
  bottom: 'bottom',
  left: 'left',
  surface: 'surface',
};

const mm = (value: number): string => `${value.toFixed(1)} mm`;
const grade = (value: number | null): string => (value === null ? 'not measured' : value.toFixed(1));
const plural = (count: number, word: string, words = `${word}s`): string => `${count} ${count === 1 ? word : words}`;

function centeringText(side: SideMeasurement): string {
  const { centering } = side;
  if (!centering.measurable) return `not measurable (${centering.reason})`;
  const tilt = centering.tilted ? ', print tilted (diamond cut)' : '';
  return `${centering.horizontal.ratio} left/right, ${centering.vertical.ratio} top/bottom${tilt}`;
}

function cornersText(side: SideMeasurement): string {
  const worn = side.corners.filter((c) => c.defectMm > 0.1);
  if (worn.length === 0) return 'clean';
  return worn.map((c) => `${PLACE[c.corner]} ${mm(c.defectMm)}`).join(', ');
}

function edgesText(side: SideMeasurement): string {
  const parts: string[] = [];
  const nicks = side.edges.flatMap((e) => e.nicks.map((n) => ({ edge: e.edge, depth: n.depthMm })));
  if (nicks.length > 0) {
    const deepest = nicks.reduce((a, b) => (b.depth > a.depth ? b : a));
    parts.push(`${plural(nicks.length, 'nick')}, deepest ${mm(deepest.depth)} on the ${PLACE[deepest.edge]} edge`);
  }
  const whitened = side.edges.reduce((sum, e) => sum + (e.whitenedMm ?? 0), 0);
  if (whitened > 0) parts.push(`${mm(whitened)} whitened`);
  if (side.edges.every((e) => e.whitenedMm === null)) parts.push('whitening not visible on a white border');
  return parts.length === 0 ? 'clean' : parts.join('; ');
}

function surfaceText(side: SideMeasurement): string {
  const { surface } = side;
  const count = (kind: Defect['kind']) => side.defects.filter((d) => d.kind === kind).length;
  const parts: string[] = [];
  if (surface.crease) parts.push('crease (every grade capped at 4)');
  const scratches = count('scratch');
  if (surface.scratchLengthMm > 0) parts.push(`${plural(Math.max(1, scratches), 'scratch', 'scratches')} totalling ${mm(surface.scratchLengthMm)}`);
  if (surface.spotCount > 0) parts.push(plural(surface.spotCount, 'spot'));
  if (surface.printLine) parts.push('print line (surface capped at 9)');
  if (surface.textured) parts.push('holo or textured face, read with less certainty');
  return parts.length === 0 ? 'clean' : parts.join('; ');
}

function sideText(side: SideMeasurement): string {
  const name = side.side === 'front' ? 'Front' : 'Back';
  return `${name}: centering ${centeringText(side)}; corners ${cornersText(side)}; edges ${edgesText(side)}; surface ${surfaceText(side)}.`;
}

/** "8–9" for a range, "8" when it is one grade; half grades keep their decimal. */
export function psaRangeText(estimate: Pick<PsaEstimate, 'low' | 'high'>): string {
  const text = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
  return estimate.low === estimate.high ? text(estimate.low) : `${text(estimate.low)}–${text(estimate.high)}`;
}

function psaText(estimate: PsaEstimate): string {
  if (!estimate.canTell) return `PSA estimate: cannot tell from this photo.${estimate.reason ? ` ${estimate.reason}` : ''}`;
  return `PSA estimate: ${psaRangeText(estimate)}, most likely ${estimate.grade} (confidence ${estimate.confidence.toFixed(2)}).`;
}

export function describeCondition(condition: Condition, overall: number, grades: Subgrades, sides: readonly SideMeasurement[], psaEstimate?: PsaEstimate): string {
  const head =
    `${condition}, overall ${overall.toFixed(1)}: centering ${grade(grades.centering)}, corners ${grade(grades.corners)}, ` +
    `edges ${grade(grades.edges)}, surface ${grade(grades.surface)}.`;
  return [head, ...sides.map(sideText), ...(psaEstimate ? [psaText(psaEstimate)] : [])].join(' ');
}
