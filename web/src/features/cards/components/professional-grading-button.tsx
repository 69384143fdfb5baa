import { Award } from 'lucide-react';
import type { MouseEvent } from 'react';
import { Button } from '@/components/ui/button';

/**
 * 'Submit for Professional Grading' (SPEC.md §4): a full page navigation to the order wizard at /submit-card/{id}
 * (DESIGN.md §8), which asks a guest to sign in first. On a fresh result a signed-in user's card is saved first
 * (`saveFirst`): grading is not saving, and an order is for a card in the collection. If the save fails, the page
 * stays (the save says why).
 */
export function ProfessionalGradingButton({ cardId, saveFirst }: { cardId: string; saveFirst?: (() => Promise<unknown>) | undefined }) {
  const href = `/submit-card/${encodeURIComponent(cardId)}`;
  async function onClick(event: MouseEvent<HTMLAnchorElement>) {
    if (!saveFirst || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    try {
      await saveFirst();
    } catch {
      return;
    }
    window.location.assign(href);
  }
  return (
    <Button asChild size="lg">
      <a href={href} onClick={(event) => void onClick(event)}>
        <Award aria-hidden />
        Submit for Professional Grading
      </a>
    </Button>
  );
}
