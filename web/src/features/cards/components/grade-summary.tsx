import type { CardResult } from '@contracts/cards';
import { Crosshair, Gauge, Info, ShieldCheck, TriangleAlert } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';
import { formatGrade, scoreTextClass } from '../grade-format';
import { PsaEstimateLine } from './psa-estimate';
import { SlabLabelLine } from './slab-label-line';

const VERDICT_STYLE: Record<CardResult['centeringVerdict'], string> = {
  'Good Centering': 'border-emerald-200 bg-emerald-50 text-emerald-800',
  'Poor Centering': 'border-amber-200 bg-amber-50 text-amber-900',
  'Centering Not Measurable': 'border-border bg-muted text-muted-foreground',
};

/** How the BGS-style figure is made (src/domain/grading/bgs-overall.ts, GRADING.md §2), in a collector's words. */
export const BGS_EXPLANATION =
  'What Beckett (BGS) would likely call it: its overall is not an average. The four subgrades are taken to half points; the lowest weighs most (half the lowest plus half the mean of the other three), and the overall is never more than one grade above the lowest subgrade. Our overall grade weighs centering 15%, corners 35%, edges 15% and surface 35%.';

/**
 * The headline: a slabbed card's official grade from its label first, when one was read; then the engine's own
 * overall grade out of 10 with its label, the centering verdict and the condition (once), the
 * BGS-style figure labelled as an estimate and explained in a tooltip, and the confidence.
 */
export function GradeSummary({ result }: { result: CardResult }) {
  const confidencePercent = Math.round(result.confidence * 100);
  return (
    <Card data-testid="grade-summary">
      <CardContent className="grid gap-5 p-6">
        <SlabLabelLine result={result} />
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <p className="text-sm font-medium text-muted-foreground">{result.isGraded ? 'Our estimate (overall grade)' : 'Overall grade'}</p>
            <p className="flex items-baseline gap-1">
              <span data-testid="overall-grade" className={cn('text-5xl font-bold tabular-nums tracking-tight', scoreTextClass(result.overallGrade))}>
                {formatGrade(result.overallGrade)}
              </span>
              <span className="text-lg font-medium text-muted-foreground">/10</span>
            </p>
            <p className={cn('text-sm font-semibold', scoreTextClass(result.overallGrade))}>{result.labels.overall}</p>
            <PsaEstimateLine estimate={result.psaEstimate} />
          </div>
          <div className="rounded-lg border bg-muted/40 px-3 py-2 text-sm">
            <p className="flex items-center gap-1 text-muted-foreground">
              BGS-style estimate
              <Tooltip>
                <TooltipTrigger asChild>
                  <button
                    type="button"
                    className="inline-flex size-6 cursor-help items-center justify-center rounded-full text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    aria-label="How the BGS-style estimate is worked out"
                  >
                    <Info className="size-4" aria-hidden />
                  </button>
                </TooltipTrigger>
                <TooltipContent className="max-w-72 text-sm leading-snug">{BGS_EXPLANATION}</TooltipContent>
              </Tooltip>
            </p>
            <p data-testid="bgs-overall" className="text-xl font-semibold tabular-nums">
              {formatGrade(result.bgsOverall)}
            </p>
            <p className="text-xs text-muted-foreground">from the subgrades, lowest weighs most</p>
          </div>
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
