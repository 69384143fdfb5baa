import { createFileRoute } from '@tanstack/react-router';
import { SharedCardPage } from '@/features/cards/components/shared-card-page';

export const Route = createFileRoute('/card/$id')({
  component: SharedCardRoute,
});

function SharedCardRoute() {
  const { id } = Route.useParams();
  // A new id is a new card: start from its loading state rather than the previous card's screen.
  return <SharedCardPage key={id} id={id} />;
}
