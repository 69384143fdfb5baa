import type { CollectionCard } from '@contracts/cards';
import { Link } from '@tanstack/react-router';
import { cn } from '@/lib/utils';
import { UnknownNameSign } from '@/features/cards/components/card-name';
import { formatGrade, SUBGRADE_NAMES, scoreTextClass } from '@/features/cards/grade-format';
import { CardThumbnail } from './card-thumbnail';
import { CollectionCardRename, PortfolioLink, SampleBadge } from './collection-grid';
import { CardValue } from './card-value';
import { DeleteCardButton } from './delete-card-button';

/** List view: a table of Card, Grade, the four sub-grades (hidden on small screens) and Value. */
export function CollectionTable({ cards }: { cards: readonly CollectionCard[] }) {
  return (
    <div className="overflow-x-auto rounded-xl border bg-card shadow-sm">
      <table className="w-full text-sm">
        <thead className="border-b bg-muted/50 text-left text-xs uppercase tracking-wide text-muted-foreground">
          <tr>
            <th scope="col" className="w-full px-4 py-3 font-medium">Card</th>
            <th scope="col" className="px-3 py-3 text-right font-medium">Grade</th>
            {SUBGRADE_NAMES.map(([key, name]) => (
              <th key={key} scope="col" className="hidden px-3 py-3 text-right font-medium md:table-cell">
                {name}
              </th>
            ))}
            <th scope="col" className="px-3 py-3 font-medium">Value</th>
            <th scope="col" className="px-3 py-3">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {cards.map((card) => (
            <tr key={card.id} className="group hover:bg-muted/40" data-testid="collection-row">
              <td className="min-w-44 px-4 py-2">
                <Link
                  to="/card/$id"
                  params={{ id: card.id }}
                  className="flex items-center gap-3 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <CardThumbnail src={card.cardThumbUrl ?? card.imageUrl} alt="" compact className="h-14 w-10 shrink-0" />
                  <span className="grid min-w-0">
                    <span className="line-clamp-2 font-medium">
                      {card.cardName} {card.sample ? <SampleBadge /> : null}
                    </span>
                    <UnknownNameSign name={card.cardName} />
                    <span className="line-clamp-2 text-xs text-muted-foreground">
                      {card.cardSet ?? 'Unknown Set'}
                      {card.cardNumber ? ` · #${card.cardNumber}` : ''}
                    </span>
                  </span>
                </Link>
                <div className="ml-13 flex flex-wrap items-center gap-2">
                  <CollectionCardRename card={card} className="-ml-2" />
                  <PortfolioLink card={card} />
                </div>
              </td>
              <td className={cn('px-3 py-2 text-right text-base font-bold tabular-nums', scoreTextClass(card.overallGrade))}>{formatGrade(card.overallGrade)}</td>
              {SUBGRADE_NAMES.map(([key]) => (
                <td key={key} className={cn('hidden px-3 py-2 text-right tabular-nums md:table-cell', scoreTextClass(card.grades[key]))}>
                  {formatGrade(card.grades[key])}
                </td>
              ))}
              <td className="px-3 py-2">
                <CardValue estimatedValue={card.estimatedValue} labelClassName="hidden lg:block" />
              </td>
              <td className="px-3 py-2 text-right">
                <DeleteCardButton card={card} className="sm:opacity-0 sm:group-hover:opacity-100 sm:focus-visible:opacity-100" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
