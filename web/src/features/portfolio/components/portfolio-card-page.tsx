import { decimalToCents, formatNewYorkDate, formatPercent, formatUsd } from '@contracts/money';
import type { PortfolioCardDetail } from '@contracts/portfolio';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, ImageOff, Pencil, Trash2 } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { GuestNotice } from '@/components/layout/guest-notice';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { useUser } from '@/features/auth/api';
import { UnknownNameSign } from '@/features/cards/components/card-name';
import { portfolioCardQueryOptions, useUpdateCardMutation } from '../api';
import { cardGain } from '../portfolio-view';
import { DeleteCardDialog } from './delete-card-dialog';
import { gradedValuesLine, GradedValuesTable } from './graded-values';
import { ImageViewer, viewedImagesOf, type ViewedImages } from './image-viewer';
import { CollectionLink, PortfolioCardRename } from './portfolio-list';
import { StepChart } from './value-chart';

const usd = (decimal: string | null) => (decimal === null ? 'N/A' : formatUsd(decimalToCents(decimal)));

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="text-right font-medium">{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

/** 'Card Not Found' with the way back (SPEC.md §2). */
export function PortfolioCardNotFound({ guest = false }: { guest?: boolean }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-20 text-center">
      <title>Card Not Found · Card Grader</title>
      {/* A guest has no portfolio cards to show (SPEC.md §6: browsing only, with the notice). */}
      {guest ? <GuestNotice screen="Portfolio" returnTo="/portfolio" linkText="Sign up to keep your portfolio" /> : null}
      <h1 className="text-2xl font-bold">Card Not Found</h1>
      <p className="text-muted-foreground">This card is not in your portfolio. It may have been deleted.</p>
      <Button asChild>
        <Link to="/portfolio">
          <ArrowLeft aria-hidden />
          Back to Portfolio
        </Link>
      </Button>
    </div>
  );
}

/** /portfolio/card/{id} (SPEC.md §2): images, card, grading and pricing information, edit, and the price history. */
export function PortfolioCardPage({ id }: { id: number }) {
  const { user, isPending: userPending } = useUser();
  const query = useQuery({ ...portfolioCardQueryOptions(id), enabled: Boolean(user) });
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [viewing, setViewing] = useState<ViewedImages | null>(null);
  const navigate = useNavigate();

  if (!userPending && !user) return <PortfolioCardNotFound guest />;
  if (userPending || query.isPending) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner className="size-8" label="Loading card" />
      </div>
    );
  }
  if (query.isError || !query.data) return <PortfolioCardNotFound />;
  const card = query.data;
  const gain = cardGain(card);
  // The flattened card where the engine made one, its photos one click away in the viewer.
  const images = viewedImagesOf(card);

  return (
    <div className="mx-auto grid w-full max-w-6xl content-start gap-6 px-4 py-8 sm:px-6">
      <title>{`${card.cardName} · My Portfolio · Card Grader`}</title>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button variant="ghost" asChild>
          <Link to="/portfolio">
            <ArrowLeft aria-hidden />
            Back to Portfolio
          </Link>
        </Button>
        {!editing ? (
          <div className="flex gap-2">
            <Button variant="outline" onClick={() => setEditing(true)}>
              <Pencil aria-hidden />
              Edit
            </Button>
            <Button variant="outline" onClick={() => setDeleting(true)}>
              <Trash2 aria-hidden />
              Delete
            </Button>
          </div>
        ) : null}
      </div>
      <div className="grid gap-1">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <h1 className="text-3xl font-bold tracking-tight">{card.cardName}</h1>
          <UnknownNameSign name={card.cardName} />
          {/* The detail edit has the name among its fields: one way to change it at a time. */}
          {!editing ? <PortfolioCardRename card={card} /> : null}
        </div>
        <CollectionLink card={card} className="text-sm" />
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,20rem)_1fr]">
        <section aria-label="Images" className="grid content-start gap-3">
          {images ? (
            <div className="grid grid-cols-2 gap-3 lg:grid-cols-1">
              {[
                ['Front', images.front],
                ['Back', images.back],
              ].map(([side, src]) =>
                src ? (
                  <button
                    key={side}
                    type="button"
                    className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    data-testid="portfolio-card-picture"
                    onClick={() => setViewing(images)}
                    aria-label={`View the ${side!.toLowerCase()} of ${card.cardName}`}
                  >
                    <img src={src} alt="" className="aspect-[63/88] w-full rounded-lg bg-muted object-contain" />
                  </button>
                ) : null,
              )}
            </div>
          ) : (
            <div className="flex aspect-[63/88] flex-col items-center justify-center gap-2 rounded-lg bg-muted text-sm text-muted-foreground">
              <ImageOff className="size-8" aria-hidden />
              No images available
            </div>
          )}
        </section>

        {editing ? (
          <EditCard card={card} onDone={() => setEditing(false)} />
        ) : (
          <div className="grid content-start gap-4 md:grid-cols-2">
            <Card>
              <CardHeader>
                <CardTitle>Card Information</CardTitle>
              </CardHeader>
              <CardContent>
                <Facts
                  rows={[
                    ['Name', card.cardName],
                    ['Set', card.cardSet],
                    ['Number', card.cardNumber ? `#${card.cardNumber}` : null],
                    ['Year', card.cardYear],
                    ['Rarity', card.rarity],
                    ['Category', card.category],
                    ['Added', formatNewYorkDate(card.createdAt)],
                  ]}
                />
                {card.notes ? <p className="mt-3 whitespace-pre-wrap border-t pt-3 text-sm">{card.notes}</p> : null}
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>Grading Information</CardTitle>
              </CardHeader>
              <CardContent>
                <Facts
                  rows={[
                    ['Status', card.isGraded ? 'Graded' : 'Raw'],
                    ['Company', card.gradingCompany],
                    ['Grade', card.officialGrade?.toFixed(1)],
                    ['Estimated grade', card.estimatedGrade?.toFixed(1)],
                    ['Condition', card.condition],
                  ]}
                />
              </CardContent>
            </Card>
            <Card className="md:col-span-2">
              <CardHeader>
                <CardTitle>Pricing</CardTitle>
              </CardHeader>
              <CardContent className="grid gap-4">
                <Facts
                  rows={[
                    ['Current price', <span data-testid="detail-price">{usd(card.currentPrice)}</span>],
                    ['Acquisition cost', usd(card.acquisitionPrice)],
                    [
                      'Gain/Loss',
                      gain ? (
                        <span className={gain.cents < 0 ? 'text-red-700' : gain.cents > 0 ? 'text-emerald-700' : undefined} data-testid="detail-gain">
                          {`${gain.cents > 0 ? '+' : ''}${formatUsd(gain.cents)} (${gain.percent > 0 ? '+' : ''}${formatPercent(gain.percent)})`}
                        </span>
                      ) : (
                        'N/A'
                      ),
                    ],
                    ['Price source', card.priceSource],
                    ['Acquired', card.acquisitionDate ? formatNewYorkDate(card.acquisitionDate) : null],
                  ]}
                />
                <PriceHistory card={card} />
              </CardContent>
            </Card>
          </div>
        )}
      </div>
      <DeleteCardDialog card={deleting ? card : null} onClose={() => setDeleting(false)} onDeleted={() => void navigate({ to: '/portfolio' })} />
      <ImageViewer images={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}

/**
 * Beyond SPEC (issue 10): every recorded price of the card, with its source and date, and the values by grade
 * recorded with it (issue 32).
 */
function PriceHistory({ card }: { card: PortfolioCardDetail }) {
  if (card.priceHistory.length === 0) return <p className="text-sm text-muted-foreground">No prices recorded yet.</p>;
  // One point per day: the last price recorded that day.
  const byDay = new Map(card.priceHistory.map((p) => [p.priceDate, decimalToCents(p.price)]));
  return (
    <div className="grid gap-3 border-t pt-3">
      <h3 className="font-semibold">Price history</h3>
      <StepChart title="Price history" testId="price-history-chart" series={[{ label: 'Price', className: 'stroke-emerald-600', points: [...byDay].map(([date, cents]) => ({ date, cents })) }]} />
      <ol className="grid gap-1 text-sm" aria-label="Recorded prices">
        {card.priceHistory.map((p, i) => (
          <li key={i} className="grid gap-0.5" data-testid="price-history-entry">
            <div className="flex justify-between gap-2">
              <span className="text-muted-foreground">
                {formatNewYorkDate(p.priceDate)} · {p.source}
              </span>
              <span className="tabular-nums">{usd(p.price)}</span>
            </div>
            {p.graded ? <p className="text-xs text-muted-foreground">{gradedValuesLine(p.graded)}</p> : null}
          </li>
        ))}
      </ol>
      <GradedValuesTable history={card.priceHistory} />
    </div>
  );
}

const EDIT_FIELDS = [
  ['cardName', 'Name', 255],
  ['cardSet', 'Set', 255],
  ['cardNumber', 'Number', 50],
  ['cardYear', 'Year', 10],
  ['rarity', 'Rarity', 100],
  ['condition', 'Condition', 100],
] as const;

/** Edit mode (SPEC.md §2, §7 PUT): name, set, number, rarity, notes, current price, acquisition cost, year. */
function EditCard({ card, onDone }: { card: PortfolioCardDetail; onDone: () => void }) {
  const [form, setForm] = useState({
    cardName: card.cardName,
    cardSet: card.cardSet ?? '',
    cardNumber: card.cardNumber ?? '',
    cardYear: card.cardYear ?? '',
    rarity: card.rarity ?? '',
    condition: card.condition ?? '',
    notes: card.notes ?? '',
    currentPrice: card.currentPrice ?? '',
    acquisitionPrice: card.acquisitionPrice ?? '',
  });
  const update = useUpdateCardMutation();
  const id = useId();
  const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

  return (
    <form
      className="grid content-start gap-3 rounded-xl border bg-card p-4 sm:grid-cols-2"
      aria-label="Edit card"
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate(
          {
            id: card.id,
            card: {
              cardName: form.cardName.trim(),
              cardSet: orNull(form.cardSet),
              cardNumber: orNull(form.cardNumber),
              cardYear: orNull(form.cardYear),
              rarity: orNull(form.rarity),
              condition: orNull(form.condition),
              notes: orNull(form.notes),
              currentPrice: orNull(form.currentPrice),
              acquisitionPrice: orNull(form.acquisitionPrice),
            },
          },
          { onSuccess: onDone },
        );
      }}
    >
      {EDIT_FIELDS.map(([key, label, max]) => (
        <div key={key} className="grid gap-1">
          <Label htmlFor={`${id}-${key}`}>{label}</Label>
          <Input id={`${id}-${key}`} value={form[key]} maxLength={max} required={key === 'cardName'} onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))} />
        </div>
      ))}
      <div className="grid gap-1">
        <Label htmlFor={`${id}-price`}>Current price ($)</Label>
        <Input id={`${id}-price`} type="number" min={0} step={0.01} inputMode="decimal" value={form.currentPrice} onChange={(e) => setForm((f) => ({ ...f, currentPrice: e.target.value }))} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-cost`}>Acquisition cost ($)</Label>
        <Input id={`${id}-cost`} type="number" min={0} step={0.01} inputMode="decimal" value={form.acquisitionPrice} onChange={(e) => setForm((f) => ({ ...f, acquisitionPrice: e.target.value }))} />
      </div>
      <div className="grid gap-1 sm:col-span-2">
        <Label htmlFor={`${id}-notes`}>Notes</Label>
        <Textarea
          id={`${id}-notes`}
          rows={4}
          maxLength={5000}
          value={form.notes}
          onChange={(e) => setForm((f) => ({ ...f, notes: e.target.value }))}
        />
      </div>
      <div className="flex gap-2 sm:col-span-2">
        <Button type="submit" disabled={update.isPending}>
          Save
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
