import { Award } from 'lucide-react';
import { Button } from '@/components/ui/button';

/**
 * 'Submit for Professional Grading' (SPEC.md §4): a full page navigation to the order wizard at /submit-card/{id}
 * (DESIGN.md §8), which asks a guest to sign in first. Every graded card already has an id, so nothing is saved
 * before leaving.
 */
export function ProfessionalGradingButton({ cardId }: { cardId: string }) {
  return (
    <Button asChild size="lg">
      <a href={`/submit-card/${encodeURIComponent(cardId)}`}>
        <Award aria-hidden />
        Submit for Professional Grading
      </a>
    </Button>
  );
}
