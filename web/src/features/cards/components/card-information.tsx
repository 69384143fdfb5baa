import { plainReason } from '@/lib/utils';
import type { CardResult } from '@contracts/cards';
import { NOT_AVAILABLE } from '@contracts/grading';
import type { ValueEstimate } from '@contracts/grading';
import { BadgeCheck, BookOpen, CircleDollarSign, Layers } from 'lucide-react';
import { ResultSection } from './section';

/** Card facts without the paragraphs about PSA population data (SPEC.md §9). */
export function visibleFacts(cardFacts: string | null): string[] {
  if (!cardFacts) return [];
  return cardFacts
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph && !(/\bPSA\b/i.test(paragraph) && /population|\bpop\b/i.test(paragraph)));
}

/**
 * 'PSA Verified' only when the analysis says its price data is verified PSA data or the estimate itself says it
 * comes from PSA. SPEC.md §9 also counts any dollar sign, but a model's estimate is not verified by anyone
 * (DESIGN.md §8), so a bare price never earns the badge.
 */
function isPsaVerified(result: CardResult): boolean {
  const estimate = result.identification.estimatedValue;
  return result.conditionAnalysis.includes('Verified PSA Price Data') || Boolean(estimate && /\bPSA\b/.test(`${estimate.text} ${estimate.label}`));
}

export function MarketValue({ result }: { result: CardResult }) {
  const { estimatedValue, psa10Value } = result.identification;
  return (
    <ResultSection title="Market Value" icon={CircleDollarSign}>
      <dl className="grid gap-4 sm:grid-cols-2">
        <ValueLine name="Estimated value" estimate={estimatedValue} testId="estimated-value" />
        <ValueLine name="PSA 10 value" estimate={psa10Value} testId="psa10-value" />
      </dl>
      {isPsaVerified(result) ? (
        <p className="mt-3 inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-semibold text-emerald-800">
          <BadgeCheck className="size-3.5" aria-hidden />
          PSA Verified
        </p>
      ) : null}
      {!estimatedValue && !psa10Value ? (
        <p className="mt-3 text-xs text-muted-foreground">No price source knows this card yet, so no value is shown rather than a guess.</p>
      ) : null}
    </ResultSection>
  );
}

/** The currency a value is in, named (issue 32 item 5): the server writes dollars as "$…" and euros as "€…". */
function currencyOf(text: string): 'USD' | 'EUR' | null {
  if (text.startsWith('$')) return 'USD';
  return text.startsWith('€') ? 'EUR' : null;
}

function ValueLine({ name, estimate, testId }: { name: string; estimate: ValueEstimate | null; testId: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-sm text-muted-foreground">{name}</dt>
      <dd data-testid={testId}>
        <span className="text-2xl font-semibold tabular-nums">{estimate ? estimate.text : NOT_AVAILABLE}</span>
        {estimate ? (
          <span className="block text-xs text-muted-foreground">
            {currencyOf(estimate.text) ? `${currencyOf(estimate.text)} · ` : ''}
            {plainReason(estimate.label)}
          </span>
        ) : null}
      </dd>
    </div>
  );
}

export function CardFacts({ result }: { result: CardResult }) {
  const facts = visibleFacts(result.cardFacts);
  return (
    <ResultSection title="Card Facts" icon={BookOpen}>
      {facts.length > 0 ? (
        <div className="grid gap-3 text-sm leading-relaxed">
          {facts.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">No facts are known for this card.</p>
      )}
    </ResultSection>
  );
}

export function SetInformation({ result }: { result: CardResult }) {
  return (
    <ResultSection title="Set Information" icon={Layers}>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
        <dt className="text-muted-foreground">Set</dt>
        <dd>{result.cardSet ?? 'Unknown Set'}</dd>
        <dt className="text-muted-foreground">Number</dt>
        <dd>{result.cardNumber ? `#${result.cardNumber}` : NOT_AVAILABLE}</dd>
        {result.identification.cardYear ? (
          <>
            <dt className="text-muted-foreground">Year</dt>
            <dd>{result.identification.cardYear}</dd>
          </>
        ) : null}
        <dt className="text-muted-foreground">Catalogue</dt>
        <dd data-testid="catalog-match">{catalogMatch(result)}</dd>
      </dl>
      {result.setDescription ? <p className="mt-3 text-sm leading-relaxed">{result.setDescription}</p> : null}
    </ResultSection>
  );
}

/** Which catalogue card the reading matched, and how sure; or that it matched none and shows what was read. */
function catalogMatch(result: CardResult): string {
  const { catalogId, catalogConfidence, source, confirmedByOwner, evidence } = result.identification;
  if (catalogId && confirmedByOwner) return `${catalogId} (confirmed by its owner)`;
  // The facts read on the card that it shares with the catalogue's card (issue 32).
  const matchedBy = evidence?.length ? `; matched by ${evidence.join(', ')}` : '';
  if (catalogId) return `${catalogId} (match confidence ${Math.round((catalogConfidence ?? 0) * 100)}%${matchedBy})`;
  return source === 'none' ? 'Not identified' : 'Not matched: shown as read';
}
