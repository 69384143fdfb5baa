import type { PortfolioCard } from '@contracts/portfolio';
import { Check, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { usePatchCardMutation } from '../api';
import { GradingCompanySelect } from './grading-company-select';

interface Draft {
  cardName: string;
  isGraded: boolean;
  gradingCompany: string | null;
  officialGrade: string;
  currentPrice: string;
  acquisitionPrice: string;
}

const draftOf = (card: PortfolioCard): Draft => ({
  cardName: card.cardName,
  isGraded: card.isGraded,
  gradingCompany: card.gradingCompany,
  officialGrade: card.officialGrade === null ? '' : String(card.officialGrade),
  currentPrice: card.currentPrice ?? '',
  acquisitionPrice: card.acquisitionPrice ?? '',
});

const money = (text: string) => (text.trim() === '' ? null : text.trim());
const grade = (text: string) => (text.trim() === '' ? null : Number(text));

/** What the draft changes of the card, and nothing else (SPEC.md §4: save sends a partial update). */
export function changesOf(card: PortfolioCard, draft: Draft): Record<string, unknown> {
  const before = draftOf(card);
  const changes: Record<string, unknown> = {};
  if (draft.cardName !== before.cardName) changes.cardName = draft.cardName;
  if (draft.isGraded !== before.isGraded) changes.isGraded = draft.isGraded;
  if (draft.isGraded && draft.gradingCompany !== before.gradingCompany) changes.gradingCompany = draft.gradingCompany;
  if (draft.isGraded && draft.officialGrade !== before.officialGrade) changes.officialGrade = grade(draft.officialGrade);
  // "12.5" and "12.50" are the same price: compare as the server would store them.
  if (money(draft.currentPrice) !== money(before.currentPrice) && Number(draft.currentPrice) !== Number(before.currentPrice)) changes.currentPrice = money(draft.currentPrice);
  if (money(draft.acquisitionPrice) !== money(before.acquisitionPrice) && Number(draft.acquisitionPrice) !== Number(before.acquisitionPrice)) changes.acquisitionPrice = money(draft.acquisitionPrice);
  return changes;
}

/** The inline edit of a row (SPEC.md §2, §5): a draft of the card; Save sends only the changes, Cancel drops them. */
export function InlineEditor({ card, onDone }: { card: PortfolioCard; onDone: () => void }) {
  const [draft, setDraft] = useState(() => draftOf(card));
  const patch = usePatchCardMutation();
  const id = useId();
  const set = (next: Partial<Draft>) => setDraft((d) => ({ ...d, ...next }));

  function save() {
    const changes = changesOf(card, draft);
    if (Object.keys(changes).length === 0) return onDone();
    patch.mutate({ id: card.id, changes }, { onSuccess: onDone });
  }

  return (
    <form
      className="grid gap-3 rounded-lg border bg-muted/40 p-3 sm:grid-cols-2 lg:grid-cols-6 lg:items-end"
      aria-label={`Edit ${card.cardName}`}
      onClick={(event) => event.stopPropagation()}
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <div className="grid gap-1 lg:col-span-2">
        <Label htmlFor={`${id}-name`}>Card name</Label>
        <Input id={`${id}-name`} value={draft.cardName} required maxLength={255} onChange={(e) => set({ cardName: e.target.value })} />
      </div>
      <div className="flex items-center gap-2 lg:pb-2">
        <Checkbox id={`${id}-graded`} checked={draft.isGraded} onCheckedChange={(checked) => set({ isGraded: checked === true })} />
        <Label htmlFor={`${id}-graded`}>Graded</Label>
      </div>
      {draft.isGraded ? (
        <>
          <GradingCompanySelect id={`${id}-company`} label="Company" value={draft.gradingCompany ?? ''} onChange={(gradingCompany) => set({ gradingCompany })} placeholder="Choose" />
          <div className="grid gap-1">
            <Label htmlFor={`${id}-grade`}>Grade</Label>
            <Input id={`${id}-grade`} type="number" min={1} max={10} step={0.5} value={draft.officialGrade} onChange={(e) => set({ officialGrade: e.target.value })} />
          </div>
        </>
      ) : (
        <div className="hidden lg:col-span-2 lg:block" />
      )}
      <div className="grid gap-1">
        <Label htmlFor={`${id}-price`}>Price</Label>
        <Input id={`${id}-price`} type="number" min={0} step={0.01} inputMode="decimal" value={draft.currentPrice} onChange={(e) => set({ currentPrice: e.target.value })} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-cost`}>Cost</Label>
        <Input id={`${id}-cost`} type="number" min={0} step={0.01} inputMode="decimal" value={draft.acquisitionPrice} onChange={(e) => set({ acquisitionPrice: e.target.value })} />
      </div>
      <div className="flex gap-2 sm:col-span-2 lg:col-span-4 lg:justify-end">
        <Button type="submit" size="sm" disabled={patch.isPending}>
          <Check aria-hidden />
          Save
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          <X aria-hidden />
          Cancel
        </Button>
      </div>
    </form>
  );
}
