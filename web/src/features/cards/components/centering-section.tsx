import type { CardResult } from '@contracts/cards';
import type { CenteringCeiling } from '@contracts/grading';
import type { Centering, SideMeasurement } from '@contracts/measurement';
import { Crosshair, TriangleAlert } from 'lucide-react';
import { ResultSection } from './section';

/**
 * Centering as measured: each side's border widths in mm and the ratio per axis, and the best grade PSA, BGS and
 * CGC would allow for those ratios, so a collector sees what a slab could get before paying for one.
 */
export function CenteringSection({ result }: { result: CardResult }) {
  const sides = [result.measurements.front, result.measurements.back].filter((side): side is SideMeasurement => side !== undefined);
  const { centeringCeilings } = result;
  return (
    <ResultSection title="Centering" icon={Crosshair} description="Border widths measured on the flattened card; each ratio gives the left (or top) border’s share first, as PSA writes it.">
      <div className="grid gap-5">
        <div className="grid grid-cols-[minmax(0,1fr)] gap-4 sm:grid-cols-2">
          {sides.map((side) => (
            <SideCentering key={side.side} side={side.side} centering={side.centering} />
          ))}
        </div>

        <div className="grid gap-2">
          <h3 className="text-sm font-semibold">Centering ceilings</h3>
          <ul className="grid grid-cols-3 gap-2" aria-label="Best grade each grader's centering rules allow">
            {[centeringCeilings.psa, centeringCeilings.bgs, centeringCeilings.cgc].map((ceiling) => (
              <CeilingTile key={ceiling.grader} ceiling={ceiling} />
            ))}
          </ul>
          <p className="text-xs text-muted-foreground">
            {centeringCeilings.basis === 'front'
              ? 'From the front only: with no back photo, the back’s limits are unchecked, so these are upper bounds.'
              : centeringCeilings.basis === 'front and back'
                ? 'From the front and back ratios against each grader’s published centering limits.'
                : 'Centering could not be measured, so no grader ceiling applies.'}
          </p>
        </div>
      </div>
    </ResultSection>
  );
}

/**
 * The engine writes a ratio wider border first ("52/48"); beside "Left / Right 3.0 / 3.2 mm" that reads as the left
 * having 52. PSA writes it in the order of the sides, so the same figures are put in that order: "48/52".
 */
export function sharesInReadingOrder(ratio: string, firstMm: number, secondMm: number): string {
  const [wider, narrower] = ratio.split('/');
  if (wider === undefined || narrower === undefined) return ratio;
  return firstMm >= secondMm ? `${wider}/${narrower}` : `${narrower}/${wider}`;
}

function SideCentering({ side, centering }: { side: 'front' | 'back'; centering: Centering }) {
  const title = side === 'front' ? 'Front' : 'Back';
  if (!centering.measurable) {
    return (
      <div className="rounded-lg border p-4" data-testid={`centering-${side}`}>
        <h3 className="text-sm font-semibold">{title}</h3>
        <p className="mt-2 text-sm text-muted-foreground">Not measurable ({centering.reason}).</p>
        {measuredAxisText(centering) ? <p className="mt-1 text-sm tabular-nums">{measuredAxisText(centering)}</p> : null}
      </div>
    );
  }
  const axes = [
    { name: 'Left / Right', first: centering.leftMm, second: centering.rightMm, ratio: sharesInReadingOrder(centering.horizontal.ratio, centering.leftMm, centering.rightMm) },
    { name: 'Top / Bottom', first: centering.topMm, second: centering.bottomMm, ratio: sharesInReadingOrder(centering.vertical.ratio, centering.topMm, centering.bottomMm) },
  ];
  return (
    <div className="rounded-lg border p-4" data-testid={`centering-${side}`}>
      <h3 className="text-sm font-semibold">{title}</h3>
      <dl className="mt-2 grid gap-2">
        {axes.map((axis) => (
          <div key={axis.name} className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
            <dt className="whitespace-nowrap text-sm text-muted-foreground">{axis.name}</dt>
            <dd className="flex items-center gap-2 whitespace-nowrap text-sm tabular-nums">
              {axis.first.toFixed(1)} / {axis.second.toFixed(1)} mm
              <span className="min-w-13 rounded-md bg-accent px-1.5 py-0.5 text-center font-semibold text-accent-foreground">{axis.ratio}</span>
            </dd>
          </div>
        ))}
      </dl>
      {centering.tilted ? (
        <p className="mt-3 flex gap-2 text-sm text-amber-900">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          The print is tilted (diamond cut): borders differ along one side.
        </p>
      ) : null}
    </div>
  );
}

/**
 * Where centering is not measurable but one axis's two borders were found: that axis in words ("Left / Right 3.6 /
 * 2.4 mm, 60/40, measured"), the card at least that far off centre. Null when neither axis was.
 */
export function measuredAxisText(centering: Extract<Centering, { measurable: false }>): string | null {
  const { horizontal, vertical } = centering;
  const measured = horizontal ? { name: 'Left / Right', axis: horizontal } : vertical ? { name: 'Top / Bottom', axis: vertical } : null;
  if (measured === null) return null;
  const { firstMm, secondMm, ratio } = measured.axis;
  return `${measured.name} ${firstMm.toFixed(1)} / ${secondMm.toFixed(1)} mm, ${sharesInReadingOrder(ratio, firstMm, secondMm)}, measured.`;
}

function CeilingTile({ ceiling }: { ceiling: CenteringCeiling }) {
  return (
    <li className="grid gap-0.5 rounded-lg bg-muted px-3 py-2 text-center" data-testid={`ceiling-${ceiling.grader.toLowerCase()}`}>
      <span className="text-xs font-semibold tracking-wide text-muted-foreground">{ceiling.grader}</span>
      {/* The text names the grader again ("PSA 9"); under its name, "9" says it. */}
      <span className="text-sm font-semibold">{ceiling.text.replace(new RegExp(`^${ceiling.grader} `), '')}</span>
    </li>
  );
}
