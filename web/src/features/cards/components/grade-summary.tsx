import type { CardResult } from '@contracts/cards';
import { Crosshair, Gauge, ShieldCheck, TriangleAlert } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { formatGrade, scoreTextClass } from '../grade-format';

const VERDICT_STYLE: Record<CardResult['centeringVerdict'], string> = {
  'Good Centering': 'border-emerald-200 bg-emerald-50 text-emerald-800',
  'Poor Centering': 'border-amber-200 bg-amber-50 text-amber-900',
  'Centering Not Measurable': 'border-border bg-muted text-muted-foreground',
};

/** The headline: overall grade out of 10, its label, the centering verdict, the condition, BGS-style overall, confidence. */
export function GradeSummary({ result }: { result: CardResult }) {
  const confidencePercent = Math.round(result.confidence * 100);
  return (
    <Card>
      <CardContent className="grid gap-5 p-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <p className="text-sm font-medium text-muted-foreground">Overall grade</p>
            <p className="flex items-baseline gap-1">
              <span data-testid="overall-grade" className={cn('text-5xl font-bold tabular-nums tracking-tight', scoreTextClass(result.overallGrade))}>
                {formatGrade(result.overallGrade)}
              </span>
              <span className="text-lg font-medium text-muted-foreground">/10</span>
            </p>
            <p className={cn('text-sm font-semibold', scoreTextClass(result.overallGrade))}>{result.labels.overall}</p>
          </div>
          <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm">
            <dt className="text-muted-foreground">BGS-style</dt>
            <dd className="text-right font-semibold tabular-nums">{formatGrade(result.bgsOverall)}</dd>
            <dt className="text-muted-foreground">Condition</dt>
            <dd className="text-right font-semibold">{result.condition}</dd>
          </dl>
        </div>

        <div className="flex flex-wrap gap-2">
          <span className={cn('inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-sm font-medium', VERDICT_STYLE[result.centeringVerdict])}>
            <Crosshair className="size-4" aria-hidden />
            {result.centeringVerdict}
          </span>
          <span className="inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-sm font-medium">
            <ShieldCheck className="size-4 text-primary" aria-hidden />
            {result.condition}
          </span>
        </div>

        <div className="grid gap-2">
          <div className="flex items-center justify-between text-sm">
            <span className="inline-flex items-center gap-1.5 text-muted-foreground">
              <Gauge className="size-4" aria-hidden />
              Confidence
            </span>
            <span className="font-semibold tabular-nums">{confidencePercent}%</span>
          </div>
          <div
            role="meter"
            aria-label="Confidence in this grade"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={confidencePercent}
            className="h-2 overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full rounded-full bg-primary" style={{ width: `${confidencePercent}%` }} />
          </div>
          {result.photoHints.length > 0 ? (
            <ul className="mt-1 grid gap-1.5 text-sm" aria-label="Photo hints">
              {result.photoHints.map((hint) => (
                <li key={hint} className="flex gap-2 rounded-md bg-amber-50 px-3 py-2 text-amber-900">
                  <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                  {hint}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-xs text-muted-foreground">Photo quality is good: sharp, little glare, enough resolution.</p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
