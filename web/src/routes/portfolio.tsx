import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { PortfolioPage } from '@/features/portfolio/components/portfolio-page';
import { portfolioSearchSchema, type PortfolioSearch } from '@/features/portfolio/portfolio-view';

export const Route = createFileRoute('/portfolio')({
  validateSearch: (search) => portfolioSearchSchema.parse(search),
  component: PortfolioRoute,
});

function PortfolioRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const onSearchChange = useCallback((next: PortfolioSearch) => void navigate({ search: next, replace: true }), [navigate]);
  return <PortfolioPage search={search} onSearchChange={onSearchChange} />;
}
