import { createFileRoute } from '@tanstack/react-router';
import { AccuracyPage } from '@/features/professional-grades/components/accuracy-page';

// Public: everyone may see how the engine's estimates agreed with the professional grades reported since (issue 33).
export const Route = createFileRoute('/accuracy')({
  component: AccuracyPage,
});
