import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { LayoutGrid, LoaderCircle, RotateCcw, SearchX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { useErrorToast } from '@/components/ui/use-error-toast';
import { cardQueryOptions, useConfirmIdentificationMutation, useRenameCardMutation } from '../api';
import { CardResultView } from './card-result-view';
import { ProfessionalGradingButton } from './professional-grading-button';
import { ShareButton } from './share-button';

/**
 * /card/{id}: a graded card as its link shows it to anyone (SPEC.md §4: loading, then the result or an error).
 * A stranger is offered only what they may do (share it, grade their own); the card's owner (the server says
 * `yours` to the account or guest session that graded it) may also submit it and go to the collection.
 */
export function SharedCardPage({ id }: { id: string }) {
  const { data: card, isPending, isError, errorUpdatedAt } = useQuery(cardQueryOptions(id));
  const rename = useRenameCardMutation();
  const confirm = useConfirmIdentificationMutation();
  useErrorToast(isError ? errorUpdatedAt : 0, 'Failed to load the shared card');

  if (isPending) {
    return (
      <div role="status" className="flex flex-1 flex-col items-center justify-center gap-3 px-4 py-24 text-muted-foreground">
        <title>Loading shared card... · Card Grader</title>
        <LoaderCircle className="size-8 animate-spin text-primary" aria-hidden />
        <p>Loading shared card...</p>
      </div>
    );
  }
  if (!card) {
    return (
      <div className="flex flex-1 items-center justify-center px-4 py-16">
        <title>Card not found · Card Grader</title>
        <Card className="w-full max-w-md">
          <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
            <span className="flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground">
              <SearchX className="size-6" aria-hidden />
            </span>
            <h1 className="text-2xl font-semibold tracking-tight">Card not found</h1>
            <p className="text-muted-foreground">Failed to load the shared card. The link may be wrong, or the card was deleted.</p>
            <Button asChild>
              <Link to="/">Grade a Card</Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    );
  }
  return (
    <>
      {card.portfolioCardId !== null ? (
        // The owner's portfolio entry for the same card (issue 35: one place for what I own).
        <div className="mx-auto w-full max-w-6xl px-4 pt-4 sm:px-6">
          <Link
            to="/portfolio/card/$id"
            params={{ id: String(card.portfolioCardId) }}
            data-testid="portfolio-link"
            className="rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            In your portfolio →
          </Link>
        </div>
      ) : null}
      <CardResultView
        result={card}
        onRename={card.yours ? (name) => rename.mutateAsync({ id: card.id, name }) : undefined}
        onConfirmCard={card.yours ? (catalogId) => confirm.mutateAsync({ id: card.id, catalogId }) : undefined}
        actions={
          <>
            {card.yours ? <ProfessionalGradingButton cardId={card.id} /> : null}
            <ShareButton cardId={card.id} cardName={card.cardName} />
            {card.yours ? (
              <Button asChild size="lg" variant="outline">
                <Link to="/collection">
                  <LayoutGrid aria-hidden />
                  Go to Collection
                </Link>
              </Button>
            ) : null}
            <Button asChild size="lg" variant="ghost">
              <Link to="/">
                <RotateCcw aria-hidden />
                Grade Another Card
              </Link>
            </Button>
          </>
        }
      />
    </>
  );
}
