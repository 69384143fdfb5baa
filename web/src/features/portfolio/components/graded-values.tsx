import { formatNewYorkDate, formatUsd } from '@contracts/money';
import type { GradedValuesView, PortfolioPrice } from '@contracts/portfolio';
import { useId } from 'react';

// Issue 32 item 5: the price history includes graded values. Each recorded price may carry what the card sells for at
// each grade (PriceCharting's Grade 7 to PSA 10 and other graders' tens), named with its source, currency and the day it
// was read. The list of recorded prices gives each reading in a line; the table below sets the grades side by side,
// the first reading against the latest, which is as wide as a 390 px phone allows without scrolling sideways.

/** "By grade (PriceCharting, USD, Nov 28, 2026): Grade 9 $25.00 · PSA 10 $90.00": one reading as a line. */
export function gradedValuesLine(graded: GradedValuesView): string {
  const figures = graded.grades.map((figure) => `${figure.label} ${formatUsd(figure.cents)}`).join(' · ');
  return `By grade (${graded.source}, ${graded.currency}, ${formatNewYorkDate(graded.asOf)}): ${figures}`;
}

/** The values by grade of the first and the latest day they were read (the last reading of each day). */
export function GradedValuesTable({ history }: { history: PortfolioPrice[] }) {
  const headingId = useId();
  const byDay = new Map<string, GradedValuesView>();
  for (const price of history) if (price.graded) byDay.set(price.graded.asOf, price.graded);
  const days = [...byDay.keys()].sort();
  if (days.length === 0) return null;
  const shown = days.length === 1 ? days : [days[0]!, days.at(-1)!];
  const latest = byDay.get(days.at(-1)!)!;
  // Every grade either reading names, in the source's own order (the latest reading's first).
  const labels = [...new Set(shown.toReversed().flatMap((day) => byDay.get(day)!.grades.map((figure) => figure.label)))];
  const cents = (day: string, label: string) => byDay.get(day)!.grades.find((figure) => figure.label === label)?.cents;

  return (
    <section className="grid gap-2" aria-labelledby={headingId} data-testid="graded-values">
      <h4 id={headingId} className="font-semibold">
        Values by grade
      </h4>
      <p className="text-xs text-muted-foreground" data-testid="graded-values-source">
        {latest.source}, {latest.currency}, as of {formatNewYorkDate(latest.asOf)} ({latest.product})
      </p>
      <table className="w-full text-sm">
        <caption className="sr-only">
          What the card sells for at each grade, {shown.length === 1 ? 'on the day it was read' : 'on the first and the latest day it was read'}
        </caption>
        <thead>
          <tr>
            <th scope="col" className="py-1 text-left font-medium">
              Grade
            </th>
            {shown.map((day) => (
              <th key={day} scope="col" className="py-1 text-right font-medium">
                {formatNewYorkDate(day)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {labels.map((label) => (
            <tr key={label} className="border-t" data-testid="graded-value-row">
              <th scope="row" className="py-1 text-left font-normal text-muted-foreground">
                {label}
              </th>
              {shown.map((day) => {
                const figure = cents(day, label);
                return (
                  <td key={day} className="py-1 text-right tabular-nums">
                    {figure === undefined ? '—' : formatUsd(figure)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
