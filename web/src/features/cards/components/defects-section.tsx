import type { CardResult } from '@contracts/cards';
import type { Defect, SideMeasurement } from '@contracts/measurement';
import { CircleCheck, ScanSearch } from 'lucide-react';
import { defectName, formatMm, placeName } from '../grade-format';
import { CardMap } from './card-map';
import { ResultSection } from './section';

/** Every defect the engine found, with its kind, size and place, numbered as on the map of the card beside it. */
export function DefectsSection({ result }: { result: CardResult }) {
  const sides = [result.measurements.front, result.measurements.back].filter((side): side is SideMeasurement => side !== undefined);
  return (
    <ResultSection title="Condition Analysis" icon={ScanSearch} description={result.conditionAnalysis}>
      <div className="grid gap-6">
        {sides.map((side) => (
          <SideDefects key={side.side} side={side} />
        ))}
      </div>
    </ResultSection>
  );
}

/** "52.4 × 79.4 mm": a card's size to a tenth of a millimetre, whole millimetres without a decimal. */
function sizeText({ widthMm, heightMm }: { widthMm: number; heightMm: number }): string {
  return `${Number(widthMm.toFixed(1))} × ${Number(heightMm.toFixed(1))} mm`;
}

function SideDefects({ side }: { side: SideMeasurement }) {
  const title = side.side === 'front' ? 'Front' : 'Back';
  const { quality } = side;
  return (
    <section aria-label={`${title} defects`} className="grid gap-4 sm:grid-cols-[15rem_minmax(0,1fr)]" data-testid={`defects-${side.side}`}>
      <div className="grid content-start gap-2">
        <h3 className="text-sm font-semibold">{title}</h3>
        <CardMap side={side} />
      </div>
      <div className="grid content-start gap-3">
        {side.defects.length === 0 ? (
          <p className="flex items-center gap-2 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
            <CircleCheck className="size-4 shrink-0" aria-hidden />
            No defects found on the {side.side}.
          </p>
        ) : (
          <ol className="grid gap-2" aria-label={`${title} defects found`}>
            {side.defects.map((defect, index) => (
              <li key={`${defect.kind}-${index}`} className="flex gap-3 rounded-md border px-3 py-2 text-sm">
                <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-red-50 text-xs font-bold text-red-700" aria-hidden>
                  {index + 1}
                </span>
                <span className="grid gap-0.5">
                  <span className="font-medium">
                    <span className="sr-only">{index + 1}. </span>
                    {defectName(defect.kind)} · {defectSize(defect)}
                  </span>
                  <span className="text-muted-foreground">{defectDetail(defect)}</span>
                </span>
              </li>
            ))}
          </ol>
        )}
        <p className="text-xs text-muted-foreground">
          {side.cardFormat ? `Card format: ${side.cardFormat.name}, ${sizeText(side.cardFormat)}. ` : ''}
          Measured at {quality.pxPerMm.toFixed(0)} px/mm; the smallest defect this photo shows is {formatMm(quality.smallestDefectMm)}.
          {side.surface.textured ? ' Holo or textured surface: scratches are read with less certainty.' : ''}
          {tiltText(side)}
        </p>
        <UnseenNotes side={side} />
      </div>
    </section>
  );
}

/** What the tilt shot was, when there was one (issue 31). */
function tiltText(side: SideMeasurement): string {
  const tilt = side.surface.tiltShot;
  if (!tilt?.read) return '';
  const foil = tilt.foil ? ' The foil twinkles in it: its small glints are foil, not dents.' : '';
  return ` Surface also read from a tilt shot: the card found in ${tilt.framesRegistered} of ${tilt.framesSent} frames.${foil}`;
}

/** What the photos could not show (SPEC.md §7): the one-photo surface note, a tilt shot not read. */
function UnseenNotes({ side }: { side: SideMeasurement }) {
  const notes = side.quality.subgradeLimits?.surface.notes ?? [];
  if (notes.length === 0) return null;
  return (
    <ul className="grid gap-1 text-xs text-muted-foreground" aria-label={`What the ${side.side} photos could not show`}>
      {notes.map((note) => (
        <li key={note}>{note}</li>
      ))}
    </ul>
  );
}

/** The size that grades the defect, said as what it is (GRADING.md §1). */
export function defectSize(defect: Defect): string {
  const size = formatMm(defect.sizeMm);
  switch (defect.kind) {
    case 'edge-nick':
      return `${size} deep`;
    case 'spot':
    case 'dent':
      return `${size} across`;
    case 'corner-fray':
    case 'corner-whitening':
      return size;
    default:
      return `${size} long`;
  }
}

function defectDetail(defect: Defect): string {
  const parts = [placeName(defect.location)];
  if (defect.kind === 'edge-nick' && defect.lengthMm !== undefined) parts.push(`${formatMm(defect.lengthMm)} wide`);
  if (defect.kind === 'scratch' && defect.widthMm !== undefined) parts.push(`${formatMm(defect.widthMm)} wide`);
  if (defect.seenIn === 'reflected-light') parts.push('seen in reflected light');
  if (defect.angleDeg !== undefined) parts.push(`at ${Math.round(defect.angleDeg)}°`);
  return parts.join(', ');
}
