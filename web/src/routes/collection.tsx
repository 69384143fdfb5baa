import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { CollectionSearch } from '@/features/collection/collection-view';
import { collectionSearchSchema } from '@/features/collection/collection-view';
import { CollectionPage } from '@/features/collection/components/collection-page';

export const Route = createFileRoute('/collection')({
  validateSearch: (search) => collectionSearchSchema.parse(search),
  component: CollectionRoute,
});

function CollectionRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const onSearchChange = useCallback((next: CollectionSearch) => void navigate({ search: next, replace: true }), [navigate]);
  return <CollectionPage search={search} onSearchChange={onSearchChange} />;
}
