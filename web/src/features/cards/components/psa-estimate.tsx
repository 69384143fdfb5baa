import type { PsaEstimate } from '@contracts/grading';
import { Info } from 'lucide-react';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';

/** How the PSA estimate is made (src/domain/grading/psa-estimate.ts, GRADING.md §2b), in a collector's words. */
export const PSA_ESTIMATE_EXPLANATION =
  'What a PSA grader would most likely give this card, estimated from our own measurements only (never from a slab label): the measured corner, edge, surface and centering wear add up to a wear score, and a scale fitted on photos of cards PSA graded turns that score into a PSA grade. The range held PSA’s grade about four times in five on photos the scale was not fitted on. When the photo is too coarse, the measurements too uncertain, or the scale has not yet beaten a fixed guess on photos as detailed as this one (it then answers that guess), it says it cannot tell.';

/** Confidence in words: above 0.7 high, above 0.55 moderate, else low (under 0.4 the estimate cannot tell). */
export function psaConfidenceWords(confidence: number): string {
  if (confidence >= 0.7) return 'high confidence';
  if (confidence >= 0.55) return 'moderate confidence';
  return 'low confidence';
}

const half = (grade: number) => (Number.isInteger(grade) ? String(grade) : grade.toFixed(1));

/** "8–9", or "9" for a range of one grade. */
export function psaRange(estimate: Pick<PsaEstimate, 'low' | 'high'>): string {
  return estimate.low === estimate.high ? half(estimate.low) : `${half(estimate.low)}–${half(estimate.high)}`;
}

/** One line beside the overall grade: "PSA estimate: 8–9, high confidence", or that this photo cannot tell. */
export function PsaEstimateLine({ estimate }: { estimate: PsaEstimate | undefined }) {
  if (!estimate) return null;
  return (
    <div data-testid="psa-estimate" className="grid max-w-xs gap-0.5 text-sm">
      <p className="flex flex-wrap items-center gap-1">
        <span className="text-muted-foreground">PSA estimate:</span>
        {estimate.canTell ? (
          <span className="font-semibold">
            <span className="tabular-nums">{psaRange(estimate)}</span>, {psaConfidenceWords(estimate.confidence)}
          </span>
        ) : (
          <span className="font-semibold">can’t tell from this photo</span>
        )}
        <Tooltip>
          <TooltipTrigger asChild>
            <button
              type="button"
              className="inline-flex size-6 cursor-help items-center justify-center rounded-full text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              aria-label="How the PSA estimate is worked out"
            >
              <Info className="size-4" aria-hidden />
            </button>
          </TooltipTrigger>
          <TooltipContent className="max-w-72 text-sm leading-snug">{PSA_ESTIMATE_EXPLANATION}</TooltipContent>
        </Tooltip>
      </p>
      {!estimate.canTell && estimate.reason ? <p className="text-xs text-muted-foreground">{estimate.reason}</p> : null}
    </div>
  );
}
