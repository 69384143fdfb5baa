import { createFileRoute } from '@tanstack/react-router';
import { GradingHome } from '@/features/grading/components/grading-home';

export const Route = createFileRoute('/')({
  component: GradingHome,
});
