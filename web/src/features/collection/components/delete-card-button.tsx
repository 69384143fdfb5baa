import type { CollectionCard } from '@contracts/cards';
import { Trash2 } from 'lucide-react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { cn } from '@/lib/utils';
import { useDeleteCardMutation } from '../api';

/** The delete button on a card of the collection, and the question it asks first (SPEC.md §8). */
export function DeleteCardButton({ card, className }: { card: CollectionCard; className?: string }) {
  const deleteCard = useDeleteCardMutation();
  return (
    <AlertDialog>
      <AlertDialogTrigger
        aria-label={`Delete ${card.cardName}`}
        disabled={deleteCard.isPending}
        className={cn(
          'inline-flex size-9 cursor-pointer items-center justify-center rounded-md text-muted-foreground transition hover:bg-red-50 hover:text-red-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50',
          className,
        )}
      >
        <Trash2 className="size-4" aria-hidden />
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {card.cardName}?</AlertDialogTitle>
          <AlertDialogDescription>Are you sure you want to delete this card from your collection?</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => deleteCard.mutate(card)}>Delete</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
