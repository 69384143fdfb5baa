import { LoaderCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { Label } from '@/components/ui/label';
import { useAddCardMutation, type NewPortfolioCard } from '../api';
import { GradingCompanySelect } from './grading-company-select';

const EMPTY = {
  cardName: '',
  cardSet: '',
  cardNumber: '',
  cardYear: '',
  rarity: '',
  condition: 'Near Mint',
  isGraded: false,
  gradingCompany: '',
  officialGrade: '',
  currentPrice: '',
  acquisitionPrice: '',
  imageUrl: '',
  backImageUrl: '',
  notes: '',
};
type Form = typeof EMPTY;

const TEXT_FIELDS: { key: keyof Form; label: string; max: number }[] = [
  { key: 'cardSet', label: 'Set', max: 255 },
  { key: 'cardNumber', label: 'Card number', max: 50 },
  { key: 'cardYear', label: 'Year', max: 10 },
  { key: 'rarity', label: 'Rarity', max: 100 },
  { key: 'condition', label: 'Condition', max: 100 },
];

/** The body of POST /api/portfolio: empty fields left out, company and official grade only for a graded card (SPEC.md §5). */
export function manualCardBody(form: Form): NewPortfolioCard {
  const body: NewPortfolioCard = { cardName: form.cardName.trim(), isGraded: form.isGraded };
  for (const key of ['cardSet', 'cardNumber', 'cardYear', 'rarity', 'condition', 'imageUrl', 'backImageUrl', 'notes', 'currentPrice', 'acquisitionPrice'] as const) {
    const value = form[key].trim();
    if (value !== '') body[key] = value;
  }
  if (form.isGraded) {
    if (form.gradingCompany) body.gradingCompany = form.gradingCompany;
    if (form.officialGrade.trim() !== '') body.officialGrade = Number(form.officialGrade);
  }
  return body;
}

/** Manual entry (SPEC.md §5): a name is required, the rest optional; condition Near Mint by default. */
export function ManualCardForm({ onAdded }: { onAdded: () => void }) {
  const [form, setForm] = useState<Form>(EMPTY);
  const [nameError, setNameError] = useState<string | null>(null);
  const add = useAddCardMutation();
  const id = useId();
  const set = (next: Partial<Form>) => setForm((f) => ({ ...f, ...next }));

  return (
    <form
      noValidate
      className="grid gap-3 sm:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (form.cardName.trim() === '') {
          setNameError('Card name is required');
          return;
        }
        add.mutate(manualCardBody(form), {
          onSuccess: () => {
            setForm(EMPTY);
            onAdded();
          },
        });
      }}
    >
      <div className="grid gap-1 sm:col-span-2">
        <Label htmlFor={`${id}-cardName`}>Card name *</Label>
        <Input
          id={`${id}-cardName`}
          value={form.cardName}
          maxLength={255}
          aria-invalid={Boolean(nameError)}
          aria-describedby={nameError ? `${id}-cardName-error` : undefined}
          onChange={(e) => {
            set({ cardName: e.target.value });
            setNameError(null);
          }}
        />
        {nameError ? (
          <p id={`${id}-cardName-error`} className="text-sm font-medium text-destructive">
            {nameError}
          </p>
        ) : null}
      </div>
      {TEXT_FIELDS.map(({ key, label, max }) => (
        <div key={key} className="grid gap-1">
          <Label htmlFor={`${id}-${key}`}>{label}</Label>
          <Input id={`${id}-${key}`} value={form[key] as string} maxLength={max} onChange={(e) => set({ [key]: e.target.value })} />
        </div>
      ))}
      <div className="flex items-center gap-2 sm:col-span-2">
        <Checkbox id={`${id}-graded`} checked={form.isGraded} onCheckedChange={(checked) => set({ isGraded: checked === true })} />
        <Label htmlFor={`${id}-graded`}>Professionally graded</Label>
      </div>
      {form.isGraded ? (
        <>
          <GradingCompanySelect id={`${id}-company`} label="Grading company" value={form.gradingCompany} onChange={(gradingCompany) => set({ gradingCompany })} placeholder="Choose a company" />
          <div className="grid gap-1">
            <Label htmlFor={`${id}-grade`}>Official grade</Label>
            <Input id={`${id}-grade`} type="number" min={1} max={10} step={0.1} value={form.officialGrade} onChange={(e) => set({ officialGrade: e.target.value })} />
          </div>
        </>
      ) : null}
      <div className="grid gap-1">
        <Label htmlFor={`${id}-price`}>Current price ($)</Label>
        <Input id={`${id}-price`} type="number" min={0} step={0.01} inputMode="decimal" value={form.currentPrice} onChange={(e) => set({ currentPrice: e.target.value })} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-cost`}>Acquisition cost ($)</Label>
        <Input id={`${id}-cost`} type="number" min={0} step={0.01} inputMode="decimal" value={form.acquisitionPrice} onChange={(e) => set({ acquisitionPrice: e.target.value })} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-image`}>Front image URL</Label>
        <Input id={`${id}-image`} type="url" value={form.imageUrl} onChange={(e) => set({ imageUrl: e.target.value })} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-back`}>Back image URL</Label>
        <Input id={`${id}-back`} type="url" value={form.backImageUrl} onChange={(e) => set({ backImageUrl: e.target.value })} />
      </div>
      <div className="grid gap-1 sm:col-span-2">
        <Label htmlFor={`${id}-notes`}>Notes</Label>
        <Textarea
          id={`${id}-notes`}
          value={form.notes}
          maxLength={5000}
          rows={3}
          onChange={(e) => set({ notes: e.target.value })}
        />
      </div>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={add.isPending} className="w-full sm:w-auto">
          {add.isPending ? <LoaderCircle className="animate-spin" aria-hidden /> : null}
          Add Card
        </Button>
      </div>
    </form>
  );
}
