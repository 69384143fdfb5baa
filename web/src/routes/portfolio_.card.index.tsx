import { createFileRoute, redirect } from '@tanstack/react-router';

// /portfolio/card with no id: back to the list (SPEC.md §2).
export const Route = createFileRoute('/portfolio_/card/')({
  beforeLoad: () => {
    throw redirect({ to: '/portfolio', replace: true });
  },
});
