import type { CardResult } from '@contracts/cards';
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { useMediaQuery, WIDE_SCREEN } from '@/lib/use-media-query';
import { formatCardType, formatDate } from '../grade-format';
import { CardFacts, MarketValue, SetInformation } from './card-information';
import { CardImages } from './card-images';
import { CatalogCandidates } from './catalog-candidates';
import { NameCandidates, RenameControl, UnknownNameSign } from './card-name';
import { CenteringSection } from './centering-section';
import { DefectsSection } from './defects-section';
import { GradeSummary } from './grade-summary';
import { GradingDetails } from './grading-details';
import { RarityBadge } from './rarity-badge';

// Loaded with the result it follows, not with the home page: the home page's JavaScript keeps within its 200 KB.
const WorthGradingSection = lazy(() => import('@/features/grading/components/worth-grading').then((module) => ({ default: module.WorthGradingSection })));

/**
 * A sports card's print as OCR read it (issue 32): player, team, position, year and brand. Said to be as read and not
 * confirmed: there is no sports catalogue to check it against.
 */
function PrintedSportsCardLine({ printed }: { printed: CardResult['identification']['printedSportsCard'] }) {
  if (!printed) return null;
  const facts = [printed.player, printed.team, printed.position, printed.year, printed.brand].filter((fact): fact is string => !!fact);
  if (facts.length === 0) return null;
  return (
    <p data-testid="printed-sports-card" className="text-sm">
      <span className="font-medium">Read on the card (not confirmed): </span>
      {facts.join(' · ')}
    </p>
  );
}

/** What a screen reader hears when a fresh result appears. */
export function resultAnnouncement(result: CardResult): string {
  return `Graded: ${result.cardName}, overall grade ${result.overallGrade.toFixed(1)} out of 10, ${result.labels.overall}; ${result.condition}; ${result.centeringVerdict}.`;
}

/**
 * The result screen of SPEC.md §2, for a fresh grade on / and for a shared link on /card/{id}: pictures, the grade
 * and the measurements that explain it, who the card is and what it is worth. `actions` (save, submit, share,
 * grade another) stay where the grade is: beside it on a wide screen, and in a bar held at the bottom of a phone's
 * screen, since the result is thousands of pixels tall and the actions were once only at its end.
 * With `announce` (a fresh grade), keyboard focus moves to the card's heading and the result is announced.
 */
export function CardResultView({
  result,
  actions,
  announce = false,
  onRename,
  onConfirmCard,
}: {
  result: CardResult;
  actions: ReactNode;
  announce?: boolean;
  /** The owner's rename (issue 35); absent for anyone else, who sees the name only. */
  onRename?: (name: string) => Promise<unknown>;
  /** The owner's confirmation of a catalogue card among the candidates (issue 32); absent for anyone else. */
  onConfirmCard?: (catalogId: string) => Promise<unknown>;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    if (!announce) return;
    headingRef.current?.focus();
    // Written into the live region after it is on the page, so it is read out.
    const timer = window.setTimeout(() => setAnnouncement(resultAnnouncement(result)), 100);
    return () => window.clearTimeout(timer);
  }, [announce, result]);
  const wide = useMediaQuery(WIDE_SCREEN);
  const back = result.measurements.back || result.backImageUrl ? { photo: result.backImageUrl, annotated: result.annotatedBackImageUrl, measurement: result.measurements.back } : null;
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <title>{`${result.cardName} · ${result.overallGrade.toFixed(1)}/10 · Card Grader`}</title>
      <p role="status" className="sr-only" data-testid="result-announcement">
        {announcement}
      </p>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:gap-8">
        <div className="grid content-start gap-4 lg:sticky lg:top-24 lg:self-start">
          <CardImages cardName={result.cardName} front={{ photo: result.imageUrl, annotated: result.annotatedImageUrl, measurement: result.measurements.front, reflectedLight: result.reflectedLightImageUrl }} back={back} />
        </div>

        <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] content-start gap-6">
          <header className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-2">
            <div className="flex flex-wrap items-center gap-2">
              <RarityBadge rarity={result.rarity} />
              {result.comcId ? (
                <span className="rounded-full border px-2.5 py-0.5 text-xs font-semibold text-muted-foreground">ItemID {result.comcId}</span>
              ) : null}
            </div>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <h1 ref={headingRef} tabIndex={-1} className="rounded-sm text-2xl font-bold tracking-tight text-balance outline-none focus-visible:ring-2 focus-visible:ring-ring sm:text-3xl">
                {result.cardName}
              </h1>
              <UnknownNameSign name={result.cardName} />
              {onRename ? <RenameControl name={result.cardName} onRename={onRename} /> : null}
            </div>
            {onConfirmCard ? <CatalogCandidates identification={result.identification} onConfirm={onConfirmCard} /> : null}
            {onRename ? <NameCandidates name={result.cardName} candidates={result.identification.nameCandidates} onChoose={onRename} /> : null}
            <p className="text-sm text-muted-foreground">
              <span>{result.cardSet ?? 'Unknown Set'}</span>
              {result.cardNumber ? <span> · #{result.cardNumber}</span> : null}
              <span> · {formatCardType(result.cardType)}</span>
              <span> · Graded on {formatDate(result.createdAt)}</span>
            </p>
            <PrintedSportsCardLine printed={result.identification.printedSportsCard} />
          </header>

          {/* Between the name and the grade: on an 800 px tall screen two rows of actions below the grade's panel fall off the first screen. */}
          {wide ? (
            <nav aria-label="Card actions" data-testid="result-actions" className="-mt-2 flex flex-wrap gap-3">
              {actions}
            </nav>
          ) : null}
          <GradeSummary result={result} />
          <GradingDetails result={result} />
          <CenteringSection result={result} />
          <DefectsSection result={result} />
          <MarketValue result={result} />
          <Suspense fallback={null}>
            <WorthGradingSection cardId={result.id} />
          </Suspense>
          <CardFacts result={result} />
          <SetInformation result={result} />
        </div>
      </div>

      {wide ? null : (
        // Sticky at the end of the page's box: held at the bottom of the screen all the way down, then resting in place.
        <nav
          aria-label="Card actions"
          data-testid="result-actions"
          className="sticky bottom-0 z-40 -mx-4 mt-8 grid grid-cols-2 gap-2 border-t bg-background/95 px-4 py-3 shadow-[0_-4px_12px_rgb(0_0_0/0.06)] backdrop-blur sm:-mx-6 sm:px-6 [&>*]:h-auto [&>*]:min-h-10 [&>*]:w-full [&>*]:whitespace-normal [&>*]:px-3 [&>*]:py-2 [&>*]:text-center [&>p]:col-span-2"
        >
          {actions}
        </nav>
      )}
    </div>
  );
}
