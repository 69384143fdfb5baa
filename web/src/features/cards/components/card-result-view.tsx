import type { CardResult } from '@contracts/cards';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { formatCardType, formatDate } from '../grade-format';
import { CardFacts, MarketValue, SetInformation } from './card-information';
import { CardImages } from './card-images';
import { CenteringSection } from './centering-section';
import { DefectsSection } from './defects-section';
import { GradeSummary } from './grade-summary';
import { GradingDetails } from './grading-details';
import { RarityBadge } from './rarity-badge';

/** What a screen reader hears when a fresh result appears. */
export function resultAnnouncement(result: CardResult): string {
  return `Graded: ${result.cardName}, overall grade ${result.overallGrade.toFixed(1)} out of 10, ${result.labels.overall}; ${result.condition}; ${result.centeringVerdict}.`;
}

/**
 * The result screen of SPEC.md §2, for a fresh grade on / and for a shared link on /card/{id}: pictures, the grade
 * and the measurements that explain it, who the card is and what it is worth. `actions` are the footer buttons.
 * With `announce` (a fresh grade), keyboard focus moves to the card's heading and the result is announced.
 */
export function CardResultView({ result, actions, announce = false }: { result: CardResult; actions: ReactNode; announce?: boolean }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    if (!announce) return;
    headingRef.current?.focus();
    // Written into the live region after it is on the page, so it is read out.
    const timer = window.setTimeout(() => setAnnouncement(resultAnnouncement(result)), 100);
    return () => window.clearTimeout(timer);
  }, [announce, result]);
  const back = result.measurements.back || result.backImageUrl ? { photo: result.backImageUrl, annotated: result.annotatedBackImageUrl } : null;
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <title>{`${result.cardName} · ${result.overallGrade.toFixed(1)}/10 · Card Grader`}</title>
      <p role="status" className="sr-only" data-testid="result-announcement">
        {announcement}
      </p>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:gap-8">
        <div className="grid content-start gap-4 lg:sticky lg:top-24 lg:self-start">
          <CardImages cardName={result.cardName} front={{ photo: result.imageUrl, annotated: result.annotatedImageUrl }} back={back} />
        </div>

        <div className="grid min-w-0 content-start gap-6">
          <header className="grid gap-2">
            <div className="flex flex-wrap items-center gap-2">
              <RarityBadge rarity={result.rarity} />
              {result.comcId ? (
                <span className="rounded-full border px-2.5 py-0.5 text-xs font-semibold text-muted-foreground">COMC {result.comcId}</span>
              ) : null}
            </div>
            <h1 ref={headingRef} tabIndex={-1} className="rounded-sm text-2xl font-bold tracking-tight text-balance outline-none focus-visible:ring-2 focus-visible:ring-ring sm:text-3xl">
              {result.cardName}
            </h1>
            <p className="text-sm text-muted-foreground">
              <span>{result.cardSet ?? 'Unknown Set'}</span>
              {result.cardNumber ? <span> · #{result.cardNumber}</span> : null}
              <span> · {formatCardType(result.cardType)}</span>
              <span> · Graded on {formatDate(result.createdAt)}</span>
            </p>
          </header>

          <GradeSummary result={result} />
          <GradingDetails result={result} />
          <CenteringSection result={result} />
          <DefectsSection result={result} />
          <MarketValue result={result} />
          <CardFacts result={result} />
          <SetInformation result={result} />
        </div>
      </div>

      <div className="mt-10 flex flex-col gap-3 border-t pt-6 sm:flex-row sm:flex-wrap sm:justify-center">{actions}</div>
    </div>
  );
}
