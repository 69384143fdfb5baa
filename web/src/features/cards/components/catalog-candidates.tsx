import type { CatalogCandidate, Identification } from '@contracts/grading';
import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';

// Issue 32: when identification is not sure which catalogue card this is, the best candidates, each with its set,
// number and year, for the card's owner to confirm with one click (POST /api/card/{id}/identification).

const describe = (candidate: CatalogCandidate) => `${candidate.cardName}, ${candidate.cardSet}, #${candidate.cardNumber}, ${candidate.cardYear}`;

/** Shown to the owner while identification offers candidates and none is confirmed yet. */
export function CatalogCandidates({ identification, onConfirm }: { identification: Identification; onConfirm: (catalogId: string) => Promise<unknown> }) {
  const [pending, setPending] = useState<string | null>(null);
  const candidates = identification.catalogCandidates;
  if (!candidates || candidates.length === 0 || identification.confirmedByOwner) return null;
  const matched = identification.catalogId !== null;
  return (
    <section aria-labelledby="catalog-candidates-heading" data-testid="catalog-candidates" className="grid gap-2 rounded-lg border border-amber-300 bg-amber-50/60 p-3 text-sm">
      <h2 id="catalog-candidates-heading" className="font-semibold">
        {matched ? 'Not sure this is the right printing: confirm the card' : 'Not sure which card this is: confirm the card'}
      </h2>
      <ul className="grid gap-2">
        {candidates.map((candidate) => (
          <li key={candidate.catalogId} className="flex flex-wrap items-center justify-between gap-2 rounded-md border bg-background px-3 py-2">
            <span className="min-w-0">
              <span className="font-medium">{candidate.cardName}</span>
              <span className="text-muted-foreground">
                {' '}
                · {candidate.cardSet} · #{candidate.cardNumber} · {candidate.cardYear}
              </span>
            </span>
            <Button
              type="button"
              size="sm"
              variant={candidate.catalogId === identification.catalogId ? 'default' : 'outline'}
              disabled={pending !== null}
              aria-label={`This is ${describe(candidate)}`}
              onClick={() => {
                setPending(candidate.catalogId);
                void onConfirm(candidate.catalogId).finally(() => setPending(null));
              }}
            >
              <CheckCircle2 aria-hidden />
              {pending === candidate.catalogId ? 'Confirming…' : 'This one'}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
