import { createFileRoute } from '@tanstack/react-router';
import { GradingHome } from '@/features/grading/components/grading-home';

export const Route = createFileRoute('/')({
  component: GradingHome,
  // The landing page comes in the main bundle: its first paint waits for no second request.
  codeSplitGroupings: [],
});
