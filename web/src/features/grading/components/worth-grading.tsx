import { useQuery } from '@tanstack/react-query';
import type { LevelOutcome, Verdict, WorthGrading } from '@contracts/worth-grading';
import { Scale } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { ResultSection } from '@/features/cards/components/section';
import { cn } from '@/lib/utils';
import { worthGradingQueryOptions } from '../api';

// "Is it worth grading?" (issue 32 item 4) with its math: the PSA grade odds, the value at each grade with where the
// price came from, the expected value, and each service level's cost and verdict. The figures are the server's exact
// decimal strings; nothing is computed here.

const VERDICT_TEXT: Record<Verdict, string> = { 'worth it': 'Worth it', borderline: 'Borderline', 'not worth it': 'Not worth it' };

const VERDICT_STYLE: Record<Verdict, string> = {
  'worth it': 'border-transparent bg-emerald-700 text-white',
  borderline: 'border-transparent bg-amber-300 text-amber-950',
  'not worth it': 'border-transparent bg-destructive text-destructive-foreground',
};

const usd = (amount: string) => (amount.startsWith('-') ? `−$${amount.slice(1)}` : `$${amount}`);
const grade = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return <Badge className={VERDICT_STYLE[verdict]}>{VERDICT_TEXT[verdict]}</Badge>;
}

function LevelRow({ level, selected }: { level: LevelOutcome; selected: boolean }) {
  if (!level.offered) {
    return (
      <li className="grid gap-1 rounded-md border p-3" data-testid={`worth-level-${level.code}`}>
        <span className="font-medium">{level.name}</span>
        <span className="text-sm text-muted-foreground">Not offered for this card: {level.reason}</span>
      </li>
    );
  }
  return (
    <li className={cn('grid gap-1 rounded-md border p-3', selected && 'border-primary ring-1 ring-primary')} data-testid={`worth-level-${level.code}`}>
      <span className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium">
          {level.name}
          {selected ? <span className="ml-2 text-xs font-normal text-muted-foreground">(selected)</span> : null}
        </span>
        <VerdictBadge verdict={level.verdict} />
      </span>
      <span className="text-sm tabular-nums">{level.explanation}</span>
      <span className="text-xs text-muted-foreground tabular-nums">
        Cost: {level.costLines.map((line) => `${line.label} ${usd(line.amount)}`).join(' + ')} = {usd(level.cost)}
      </span>
    </li>
  );
}

/** The body, shared by the result screen and the order wizard's first step. */
export function WorthGradingBody({ answer, selectedLevel }: { answer: WorthGrading; selectedLevel?: string | undefined }) {
  if (!answer.available) return <p className="text-sm text-muted-foreground">{answer.reason}</p>;
  const { prices, expected } = answer;
  const otherTens = prices?.grades.filter((p) => p.grade === null) ?? [];
  return (
    <div className="grid gap-4" data-testid="worth-grading">
      <p className={cn('text-sm', answer.canTell ? 'text-muted-foreground' : 'rounded-md border border-amber-400 bg-amber-50 p-2 text-amber-950')}>
        {answer.oddsNote}
      </p>
      {prices ? (
        <p className="text-sm" data-testid="worth-price-source">
          Prices: {prices.source}, {prices.currency}, as of {prices.asOf} ({prices.product}). Ungraded {prices.raw ? usd(prices.raw.amount) : 'not priced'}
          {otherTens.length > 0 ? `; other graders' tens: ${otherTens.map((p) => `${p.label} ${usd(p.amount)}`).join(', ')}` : ''}.
        </p>
      ) : (
        <p className="text-sm font-medium" data-testid="worth-price-note">
          {answer.priceNote}
        </p>
      )}
      <table className="w-full text-sm" aria-label="PSA grade odds and value">
        <thead className="text-left">
          <tr className="border-b">
            <th scope="col" className="py-1 pr-2 font-medium">PSA grade</th>
            <th scope="col" className="py-1 pr-2 text-right font-medium">Odds</th>
            {expected ? (
              <>
                <th scope="col" className="py-1 pr-2 text-right font-medium">Value</th>
                <th scope="col" className="py-1 text-right font-medium">Odds × value</th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody className="tabular-nums">
          {expected
            ? expected.rows.map((row) => (
                <tr key={row.grade} className="border-b last:border-0">
                  <td className="py-1 pr-2">{grade(row.grade)}</td>
                  <td className="py-1 pr-2 text-right">{row.percent}%</td>
                  <td className="py-1 pr-2 text-right">
                    {usd(row.value)} <span className="text-xs text-muted-foreground">({row.valuedAs})</span>
                  </td>
                  <td className="py-1 text-right">{usd(row.contribution)}</td>
                </tr>
              ))
            : answer.odds.map((odds) => (
                <tr key={odds.grade} className="border-b last:border-0">
                  <td className="py-1 pr-2">{grade(odds.grade)}</td>
                  <td className="py-1 pr-2 text-right">{odds.percent}%</td>
                </tr>
              ))}
        </tbody>
      </table>
      {expected ? (
        <>
          <p className="text-sm tabular-nums" data-testid="worth-expected">
            Expected value if graded: <strong>{usd(expected.value)}</strong> (the sum of odds × value, rounded to the cent once). Value raw, as it is: {usd(expected.raw)}.
          </p>
          <ul className="grid gap-2" aria-label="Verdict at each service level">
            {answer.levels.map((level) => (
              <LevelRow key={level.code} level={level} selected={level.code === selectedLevel} />
            ))}
          </ul>
          <p className="text-xs text-muted-foreground">{answer.thresholds.text}</p>
        </>
      ) : null}
    </div>
  );
}

function useWorthGrading(cardId: string) {
  return useQuery(worthGradingQueryOptions(cardId));
}

/** The result screen's panel. */
export function WorthGradingSection({ cardId }: { cardId: string }) {
  const query = useWorthGrading(cardId);
  if (query.isError || query.data === null) return null;
  return (
    <ResultSection title="Is it worth grading?" icon={Scale} description="The PSA grade odds times what the card sells for at each grade, less each service level's fee and shipping.">
      {query.isPending ? <Skeleton className="h-32 w-full" /> : <WorthGradingBody answer={query.data} />}
    </ResultSection>
  );
}

/** The order wizard's first step: the same answer, the chosen level marked. */
export function WorthGradingStepPanel({ cardId, selectedLevel }: { cardId: string; selectedLevel: string | undefined }) {
  const query = useWorthGrading(cardId);
  if (query.isError || query.data === null) return null;
  return (
    <section aria-labelledby="worth-grading-title" className="grid gap-2 rounded-lg border p-4">
      <h3 id="worth-grading-title" className="flex items-center gap-2 font-semibold">
        <Scale className="size-4 text-primary" aria-hidden />
        Is it worth grading?
      </h3>
      {query.isPending ? <Skeleton className="h-32 w-full" /> : <WorthGradingBody answer={query.data} selectedLevel={selectedLevel} />}
    </section>
  );
}
