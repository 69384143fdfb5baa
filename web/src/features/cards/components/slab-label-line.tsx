import type { CardResult } from '@contracts/cards';
import { Award } from 'lucide-react';
import { formatGrade } from '../grade-format';

/** "PSA 9 MINT · cert 65200248": the label as its grader printed it (no grade for PSA's AUTHENTIC). */
export function slabLabelText(label: NonNullable<CardResult['slabLabel']>): string {
  const grade = label.grade === null ? '' : ` ${formatGrade(label.grade).replace(/\.0$/, '')}`;
  const descriptor = label.descriptor ? ` ${label.descriptor}` : '';
  const cert = label.cert ? ` · cert ${label.cert}` : '';
  return `${label.company}${grade}${descriptor}${cert}`;
}

/**
 * A slabbed card's official grade, read off its label: shown above the engine's own estimate and set apart from it,
 * so the grader's grade is never mistaken for ours (ours is measured from the card, as for a raw one).
 */
export function SlabLabelLine({ result }: { result: CardResult }) {
  if (!result.slabLabel) return null;
  return (
    <div data-testid="slab-label" className="flex items-start gap-2 rounded-lg border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-950">
      <Award className="mt-0.5 size-4 shrink-0" aria-hidden />
      <p>
        <span className="font-semibold">Slab label: {slabLabelText(result.slabLabel)}</span>
        <span className="text-sky-900"> — the official grade. The grade below is our own estimate, measured from the card.</span>
      </p>
    </div>
  );
}
