import { createFileRoute, Navigate } from '@tanstack/react-router';
import { PortfolioCardNotFound, PortfolioCardPage } from '@/features/portfolio/components/portfolio-card-page';

// Not nested in /portfolio (the trailing underscore): the detail page is a screen of its own.
export const Route = createFileRoute('/portfolio_/card/$id')({
  component: PortfolioCardRoute,
});

function PortfolioCardRoute() {
  const { id } = Route.useParams();
  // SPEC.md §5: the id is parsed as an integer; no id at all goes back to the list.
  if (id.trim() === '') return <Navigate to="/portfolio" replace />;
  const parsed = Number.parseInt(id, 10);
  return Number.isSafeInteger(parsed) && parsed > 0 ? <PortfolioCardPage key={parsed} id={parsed} /> : <PortfolioCardNotFound />;
}
