import { decimalToCents, formatNewYorkDate, formatUsd } from '@contracts/money';

export interface ChartSeries {
  label: string;
  /** Tailwind stroke class. */
  className: string;
  points: { date: string; cents: number }[];
}

const WIDTH = 640;
const HEIGHT = 200;
const PAD = { top: 12, right: 12, bottom: 24, left: 12 };

/**
 * A small step chart over days (prices hold until the next one is recorded), drawn as SVG: no chart library for two
 * lines. The figures are also given as a table for screen readers and for anyone who wants the numbers.
 */
export function StepChart({ title, series, testId }: { title: string; series: ChartSeries[]; testId: string }) {
  const dates = [...new Set(series.flatMap((s) => s.points.map((p) => p.date)))].sort();
  if (dates.length === 0) return null;
  const values = series.flatMap((s) => s.points.map((p) => p.cents));
  const max = Math.max(1, ...values);
  const x = (date: string) => {
    if (dates.length === 1) return WIDTH / 2;
    return PAD.left + (dates.indexOf(date) / (dates.length - 1)) * (WIDTH - PAD.left - PAD.right);
  };
  const y = (cents: number) => HEIGHT - PAD.bottom - (cents / max) * (HEIGHT - PAD.top - PAD.bottom);
  const path = (points: ChartSeries['points']) =>
    // One day only: a level line across, so a single figure still reads as a line.
    points.length === 1
      ? `M ${PAD.left} ${y(points[0]!.cents)} L ${WIDTH - PAD.right} ${y(points[0]!.cents)}`
      : points
      .map((p, i) => {
        const prev = points[i - 1];
        return i === 0 ? `M ${x(p.date)} ${y(p.cents)}` : `L ${x(p.date)} ${y(prev!.cents)} L ${x(p.date)} ${y(p.cents)}`;
      })
      .join(' ');

  return (
    <figure className="grid gap-2" data-testid={testId}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-48 w-full" role="img" aria-label={`${title}: ${series.map((s) => `${s.label} ${formatUsd(s.points.at(-1)?.cents ?? 0)}`).join(', ')}`}>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} className="stroke-border" />
        {series.map((s) => (
          <g key={s.label}>
            <path d={path(s.points)} fill="none" strokeWidth={2.5} className={s.className} />
            {s.points.map((p) => (
              <circle key={p.date} cx={x(p.date)} cy={y(p.cents)} r={3.5} className={`${s.className} fill-background`} strokeWidth={2} />
            ))}
          </g>
        ))}
        <text x={PAD.left} y={HEIGHT - 6} className="fill-muted-foreground text-[11px]">
          {formatNewYorkDate(dates[0]!)}
        </text>
        {dates.length > 1 ? (
          <text x={WIDTH - PAD.right} y={HEIGHT - 6} textAnchor="end" className="fill-muted-foreground text-[11px]">
            {formatNewYorkDate(dates.at(-1)!)}
          </text>
        ) : null}
      </svg>
      <figcaption className="flex flex-wrap gap-4 text-xs text-muted-foreground">
        {series.map((s) => (
          <span key={s.label} className="flex items-center gap-1">
            <svg viewBox="0 0 10 10" className="size-3" aria-hidden>
              <line x1="0" x2="10" y1="5" y2="5" strokeWidth="3" className={s.className} />
            </svg>
            {s.label}
          </span>
        ))}
      </figcaption>
      <details className="text-sm">
        <summary className="cursor-pointer text-muted-foreground">Show the figures</summary>
        <table className="mt-2 w-full text-left">
          <thead>
            <tr>
              <th scope="col" className="py-1 font-medium">Date</th>
              {series.map((s) => (
                <th key={s.label} scope="col" className="py-1 text-right font-medium">{s.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {dates.map((date) => (
              <tr key={date}>
                <td className="py-0.5">{formatNewYorkDate(date)}</td>
                {series.map((s) => {
                  const point = s.points.find((p) => p.date === date);
                  return (
                    <td key={s.label} className="py-0.5 text-right tabular-nums">
                      {point ? formatUsd(point.cents) : '—'}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** Beyond SPEC (issue 10): the portfolio's value and cost basis by day. */
export function ValueChart({ points }: { points: { date: string; value: string; cost: string }[] }) {
  if (points.length === 0) return null;
  return (
    <section className="grid gap-2 rounded-xl border bg-card p-4" aria-labelledby="value-chart-title">
      <h2 id="value-chart-title" className="font-semibold">
        Portfolio value over time
      </h2>
      <StepChart
        title="Portfolio value over time"
        testId="value-chart"
        series={[
          { label: 'Value', className: 'stroke-emerald-600', points: points.map((p) => ({ date: p.date, cents: decimalToCents(p.value) })) },
          { label: 'Cost basis', className: 'stroke-slate-500', points: points.map((p) => ({ date: p.date, cents: decimalToCents(p.cost) })) },
        ]}
      />
    </section>
  );
}
