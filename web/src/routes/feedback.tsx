import { createFileRoute } from '@tanstack/react-router';
import { FeedbackPage } from '@/features/feedback/components/feedback-page';

// Open to guests too: anyone may send feedback (issue 14).
export const Route = createFileRoute('/feedback')({
  component: FeedbackPage,
});
