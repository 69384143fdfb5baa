import type { PortfolioCard } from '@contracts/portfolio';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { useDeleteCardMutation } from '../api';

/** Delete with confirmation (SPEC.md §2). */
export function DeleteCardDialog({ card, onClose, onDeleted }: { card: PortfolioCard | null; onClose: () => void; onDeleted?: () => void }) {
  const remove = useDeleteCardMutation();
  return (
    <AlertDialog open={card !== null} onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this card?</AlertDialogTitle>
          <AlertDialogDescription>
            Are you sure you want to delete {card?.cardName} from your portfolio? This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            onClick={() => {
              if (card) remove.mutate(card, { onSuccess: () => onDeleted?.() });
              onClose();
            }}
          >
            Delete
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
