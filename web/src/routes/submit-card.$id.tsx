import { createFileRoute } from '@tanstack/react-router';
import { ProtectedRoute } from '@/components/layout/protected-route';
import { SubmitCardPage } from '@/features/orders/components/submit-card-page';

export const Route = createFileRoute('/submit-card/$id')({
  component: SubmitCardRoute,
});

function SubmitCardRoute() {
  const { id } = Route.useParams();
  // Signed out: to /auth?returnTo=/submit-card/{id} (DESIGN.md §8).
  return (
    <ProtectedRoute comeBack>
      <SubmitCardPage key={id} cardId={id} />
    </ProtectedRoute>
  );
}
