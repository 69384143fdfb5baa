import { formatNewYorkDate, formatUsd } from '@contracts/money';
import type { PortfolioCard } from '@contracts/portfolio';
import { Link, useNavigate } from '@tanstack/react-router';
import { Pencil, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { RenameControl, UnknownNameSign } from '@/features/cards/components/card-name';
import { cn } from '@/lib/utils';
import { usePatchCardMutation } from '../api';
import { centsOf } from '../portfolio-view';
import { CardThumb } from './card-thumb';
import { viewedImagesOf, type ViewedImages } from './image-viewer';
import { InlineEditor } from './inline-editor';

const price = (decimal: string | null) => (decimal === null ? '—' : formatUsd(centsOf(decimal)!));
const grade = (value: number | null) => (value === null ? '—' : value.toFixed(1));

interface ListProps {
  cards: readonly PortfolioCard[];
  editingId: number | null;
  onEdit: (id: number | null) => void;
  onDelete: (card: PortfolioCard) => void;
  onView: (images: ViewedImages) => void;
}

function RowActions({ card, onEdit, onDelete }: { card: PortfolioCard; onEdit: () => void; onDelete: () => void }) {
  return (
    <div className="flex justify-end gap-1">
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Edit ${card.cardName}`}
        onClick={(event) => {
          event.stopPropagation();
          onEdit();
        }}
      >
        <Pencil aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Delete ${card.cardName}`}
        onClick={(event) => {
          event.stopPropagation();
          onDelete();
        }}
      >
        <Trash2 aria-hidden />
      </Button>
    </div>
  );
}

/** "Rename" on a portfolio entry (issue 35): its name alone, through the inline edit's PATCH. */
export function PortfolioCardRename({ card, className }: { card: PortfolioCard; className?: string }) {
  const patch = usePatchCardMutation();
  return <RenameControl name={card.cardName} onRename={(cardName) => patch.mutateAsync({ id: card.id, changes: { cardName } })} className={className} />;
}

const GradedBadge = ({ card }: { card: PortfolioCard }) =>
  card.isGraded ? <Badge>Graded</Badge> : <Badge variant="outline">Not Graded</Badge>;

const view = (card: PortfolioCard, onView: ListProps['onView']) => () => {
  const images = viewedImagesOf(card);
  if (images) onView(images);
};

/** The flattened card's thumbnail where the engine made one, else the photo. */
const thumbOf = (card: PortfolioCard) => card.cardThumbUrl ?? card.cardImageUrl ?? card.imageUrl;

/** "In your collection →": the collection's card this entry was added from, while it is kept there (issue 35). */
export function CollectionLink({ card, className }: { card: PortfolioCard; className?: string }) {
  if (card.gradedCardId === null) return null;
  return (
    <Link
      to="/card/$id"
      params={{ id: card.gradedCardId }}
      data-testid="collection-link"
      aria-label={`${card.cardName} in your collection`}
      onClick={(event) => event.stopPropagation()}
      className={cn('inline-flex w-fit rounded-sm text-xs font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring', className)}
    >
      In your collection →
    </Link>
  );
}

/** Desktop: the table of SPEC.md §2; a row opens the card's page, its photo the viewer. */
export function PortfolioTable({ cards, editingId, onEdit, onDelete, onView }: ListProps) {
  const navigate = useNavigate();
  return (
    <div className="hidden overflow-x-auto rounded-xl border bg-card md:block">
      <table className="w-full text-sm">
        <thead className="border-b bg-muted/50 text-left text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">Date Added</th>
            <th scope="col" className="px-3 py-2 font-medium">Photo</th>
            <th scope="col" className="px-3 py-2 font-medium">Card Name</th>
            <th scope="col" className="px-3 py-2 font-medium">Status</th>
            <th scope="col" className="px-3 py-2 font-medium">Company</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Grade</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Price</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Cost</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">30-Day Change</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Actions</th>
          </tr>
        </thead>
        <tbody>
          {cards.map((card) =>
            card.id === editingId ? (
              <tr key={card.id} className="border-b last:border-0">
                <td colSpan={10} className="p-2">
                  <InlineEditor card={card} onDone={() => onEdit(null)} />
                </td>
              </tr>
            ) : (
              <tr
                key={card.id}
                data-testid="portfolio-row"
                className="cursor-pointer border-b last:border-0 hover:bg-muted/40"
                onClick={() => void navigate({ to: '/portfolio/card/$id', params: { id: String(card.id) } })}
              >
                <td className="whitespace-nowrap px-3 py-2 text-muted-foreground">{formatNewYorkDate(card.createdAt)}</td>
                <td className="px-3 py-2">
                  <CardThumb src={thumbOf(card)} name={card.cardName} onOpen={view(card, onView)} />
                </td>
                <td className="px-3 py-2">
                  <Link
                    to="/portfolio/card/$id"
                    params={{ id: String(card.id) }}
                    className="font-medium hover:underline"
                    onClick={(event) => event.stopPropagation()}
                  >
                    {card.cardName}
                  </Link>
                  <UnknownNameSign name={card.cardName} className="ml-2" />
                  {card.cardSet ? <p className="text-xs text-muted-foreground">{card.cardSet}{card.cardNumber ? ` · #${card.cardNumber}` : ''}</p> : null}
                  <div className="flex flex-wrap items-center gap-2">
                    <PortfolioCardRename card={card} className="-ml-2" />
                    <CollectionLink card={card} />
                  </div>
                </td>
                <td className="px-3 py-2">
                  <GradedBadge card={card} />
                </td>
                <td className="px-3 py-2">{card.gradingCompany ?? '—'}</td>
                <td className="px-3 py-2 text-right tabular-nums">{grade(card.officialGrade ?? card.estimatedGrade)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{price(card.currentPrice)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{price(card.acquisitionPrice)}</td>
                <td className="px-3 py-2 text-right text-muted-foreground">—</td>
                <td className="px-3 py-2">
                  <RowActions card={card} onEdit={() => onEdit(card.id)} onDelete={() => onDelete(card)} />
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Phone: one card per portfolio card, with the same facts and actions. */
export function PortfolioCardList({ cards, editingId, onEdit, onDelete, onView }: ListProps) {
  return (
    <ul className="grid grid-cols-[minmax(0,1fr)] gap-3 md:hidden" aria-label="Portfolio cards">
      {cards.map((card) => (
        <li key={card.id} data-testid="portfolio-card" className="rounded-xl border bg-card p-3">
          {card.id === editingId ? (
            <InlineEditor card={card} onDone={() => onEdit(null)} />
          ) : (
            <div className="flex gap-3">
              <CardThumb src={thumbOf(card)} name={card.cardName} onOpen={view(card, onView)} className="w-16" />
              <div className="grid min-w-0 flex-1 grid-cols-[minmax(0,1fr)] gap-1">
                <div className="flex items-start justify-between gap-2">
                  <Link to="/portfolio/card/$id" params={{ id: String(card.id) }} className="min-w-0 truncate font-medium hover:underline" title={card.cardName}>
                    {card.cardName}
                  </Link>
                  <GradedBadge card={card} />
                </div>
                <UnknownNameSign name={card.cardName} />
                <p className="text-xs text-muted-foreground">
                  {formatNewYorkDate(card.createdAt)}
                  {card.isGraded ? ` · ${card.gradingCompany ?? ''} ${grade(card.officialGrade)}` : ''}
                </p>
                <dl className="grid grid-cols-2 gap-x-2 text-sm">
                  <dt className="text-muted-foreground">Price</dt>
                  <dd className="text-right tabular-nums">{price(card.currentPrice)}</dd>
                  <dt className="text-muted-foreground">Cost</dt>
                  <dd className="text-right tabular-nums">{price(card.acquisitionPrice)}</dd>
                </dl>
                <div className="flex flex-wrap items-center gap-2">
                  <PortfolioCardRename card={card} className="-ml-2" />
                  <CollectionLink card={card} />
                  <div className="ml-auto">
                    <RowActions card={card} onEdit={() => onEdit(card.id)} onDelete={() => onDelete(card)} />
                  </div>
                </div>
              </div>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
