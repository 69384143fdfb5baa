import type { ImportProgress, ImportRecord } from '@contracts/imports';
import { Progress } from '@/components/ui/progress';
import { progressFromRecord, useLiveProgress } from '../live-imports';

const STAGE_LABEL: Record<ImportProgress['stage'], string> = { preparing: 'Preparing', analyzing: 'Analyzing', saving: 'Saving', completed: 'Completed' };

function seconds(value: number | null): string {
  if (value === null) return '—';
  if (value < 60) return `${value}s`;
  return `${Math.floor(value / 60)}m ${value % 60}s`;
}

/**
 * What the panel shows of an import: its record in the cached list (kept current by the live channel), with the
 * last live message's card and time left while that message says the same as the record.
 */
export function useShownProgress(record: ImportRecord | null): ImportProgress | null {
  const live = useLiveProgress(record?.id ?? null);
  if (!record) return null;
  const same = live && live.status === record.status && live.current === record.processedCards && live.progress === record.progress;
  return same ? live : progressFromRecord(record);
}

/** The progress panel: the bar fed by /ws, the stage and its message, and the counts. */
export function ProgressPanel({ progress, failedText }: { progress: ImportProgress | null; failedText: string | null }) {
  if (failedText) {
    return (
      <div className="rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm text-destructive" role="alert">
        {failedText}
      </div>
    );
  }
  if (!progress) return null;
  return (
    <section aria-label="Import progress" className="grid gap-3 rounded-lg border bg-muted/30 p-4">
      <div className="flex items-center justify-between text-sm">
        <span className="font-medium" data-testid="import-stage">{STAGE_LABEL[progress.stage]}</span>
        <span className="tabular-nums" data-testid="import-percent">{progress.progress}%</span>
      </div>
      <Progress value={progress.progress} aria-label="Import progress" />
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {progress.message}
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted-foreground">Processed</dt>
          <dd className="font-medium tabular-nums" data-testid="import-processed">{progress.current} / {progress.total}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Failed</dt>
          <dd className="font-medium tabular-nums">{progress.failed}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Duplicates</dt>
          <dd className="font-medium tabular-nums">{progress.duplicates}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Time left</dt>
          <dd className="font-medium tabular-nums">{progress.stage === 'completed' ? '0s' : seconds(progress.estimatedTimeRemaining)}</dd>
        </div>
      </dl>
      {progress.currentCard || progress.averageTimePerCard !== null ? (
        <p className="text-xs text-muted-foreground">
          {progress.currentCard ? <>Last card: {progress.currentCard}. </> : null}
          {progress.averageTimePerCard !== null ? <>About {progress.averageTimePerCard}s per card.</> : null}
        </p>
      ) : null}
    </section>
  );
}
