import type { CollectionCard } from '@contracts/cards';
import { Link } from '@tanstack/react-router';
import { cn } from '@/lib/utils';
import { useRenameCardMutation } from '@/features/cards/api';
import { RenameControl, UnknownNameSign } from '@/features/cards/components/card-name';
import { formatDate, formatGrade, SUBGRADE_NAMES, scoreTextClass } from '@/features/cards/grade-format';
import { CardThumbnail } from './card-thumbnail';
import { CardValue } from './card-value';
import { DeleteCardButton } from './delete-card-button';

/** A sample card (Restore Sample Cards): shown, but it counts for no leaderboard place and no achievement. */
export function SampleBadge() {
  return (
    <span
      data-testid="sample-badge"
      title="A sample card: it counts for no leaderboard place and no achievement"
      className="rounded-full border border-sky-200 bg-sky-50 px-2 py-0.5 text-xs font-semibold text-sky-900"
    >
      Sample
    </span>
  );
}

/** "In your portfolio →": the portfolio's entry for the same card, when it was added there (issue 35). */
export function PortfolioLink({ card, className }: { card: CollectionCard; className?: string }) {
  if (card.portfolioCardId === null) return null;
  return (
    <Link
      to="/portfolio/card/$id"
      params={{ id: String(card.portfolioCardId) }}
      data-testid="portfolio-link"
      aria-label={`${card.cardName} in your portfolio`}
      className={cn('inline-flex w-fit rounded-sm text-xs font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring', className)}
    >
      In your portfolio →
    </Link>
  );
}

/** "Rename" on a card of the collection (issue 35), outside the tile's link so it is a control of its own. */
export function CollectionCardRename({ card, className }: { card: CollectionCard; className?: string }) {
  const rename = useRenameCardMutation();
  return <RenameControl name={card.cardName} onRename={(name) => rename.mutateAsync({ id: card.id, name })} className={className} />;
}

/** Grid view: one tile per card, linking to /card/{id}, with a delete button that shows on hover or focus. */
export function CollectionGrid({ cards }: { cards: readonly CollectionCard[] }) {
  // Two columns from the narrowest phone up: a one-column collection showed one card a screen.
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 xl:grid-cols-4">
      {cards.map((card) => (
        <li key={card.id} className="group relative flex flex-col gap-1.5" data-testid="collection-card">
          <Link
            to="/card/$id"
            params={{ id: card.id }}
            className="grid flex-1 grid-rows-[auto_auto_auto_1fr] gap-2 rounded-xl border bg-card p-3 shadow-sm sm:gap-3 sm:p-4 transition-shadow hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <div className="relative">
              {/* The flattened card's thumbnail (the photo for a card graded before it was kept). */}
              <CardThumbnail src={card.cardThumbUrl ?? card.imageUrl} alt={`Front of ${card.cardName}`} className="mx-auto h-36 w-auto sm:h-48" />
              {card.comcId ? (
                <span className="absolute left-0 top-0 rounded-full bg-card/90 px-2 py-0.5 text-xs font-semibold shadow-sm">ItemID {card.comcId}</span>
              ) : null}
            </div>
            <div className="grid gap-2">
              <div className="flex items-start justify-between gap-3">
                <div className="grid min-w-0 gap-0.5">
                  <h2 className="truncate font-semibold" title={card.cardName}>
                    {card.cardName}
                  </h2>
                  <UnknownNameSign name={card.cardName} />
                  <p className="truncate text-sm text-muted-foreground">
                    {card.cardSet ?? 'Unknown Set'}
                    {card.cardNumber ? ` · #${card.cardNumber}` : ''}
                  </p>
                </div>
                <span className={cn('text-xl font-bold leading-none tabular-nums sm:text-2xl', scoreTextClass(card.overallGrade))}>
                  {formatGrade(card.overallGrade)}
                  <span className="sr-only"> out of 10</span>
                </span>
              </div>
              <div className="flex h-6 flex-wrap gap-1.5">
                {card.sample ? <SampleBadge /> : null}
                {card.rarity ? (
                  <span className="rounded-full border border-amber-200 bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900">{card.rarity}</span>
                ) : null}
              </div>
            </div>
            <dl className="grid grid-cols-1 gap-x-4 gap-y-0.5 rounded-lg bg-muted/60 px-2 py-1.5 text-xs sm:grid-cols-2 sm:gap-y-1 sm:px-3 sm:py-2 sm:text-sm">
              {SUBGRADE_NAMES.map(([key, name]) => (
                <div key={key} className="flex items-baseline justify-between gap-2">
                  <dt className="text-muted-foreground">{name}</dt>
                  <dd className={cn('font-semibold tabular-nums', scoreTextClass(card.grades[key]))}>{formatGrade(card.grades[key])}</dd>
                </div>
              ))}
            </dl>
            <div className="grid content-end gap-1 text-sm">
              <CardValue estimatedValue={card.estimatedValue} />
              <span className="text-xs text-muted-foreground">Graded on {formatDate(card.createdAt)}</span>
            </div>
          </Link>
          <div className="flex flex-wrap items-center justify-between gap-1 px-1">
            <CollectionCardRename card={card} className="-ml-2" />
            <PortfolioLink card={card} />
          </div>
          <DeleteCardButton
            card={card}
            className="absolute right-2 top-2 bg-card/90 shadow-sm sm:opacity-0 sm:group-hover:opacity-100 sm:focus-visible:opacity-100"
          />
        </li>
      ))}
    </ul>
  );
}
