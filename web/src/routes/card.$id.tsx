import { createFileRoute } from '@tanstack/react-router';
import { SharedCardPage } from '@/features/cards/components/shared-card-page';
import { ProfessionalGradeSection } from '@/features/professional-grades/components/professional-grade-section';

export const Route = createFileRoute('/card/$id')({
  component: SharedCardRoute,
});

function SharedCardRoute() {
  const { id } = Route.useParams();
  // A new id is a new card: start from its loading state rather than the previous card's screen. The professional
  // grade section shows for the card's owner only (anyone else gets the server's 404, and it stays away).
  return (
    <>
      <SharedCardPage key={id} id={id} />
      <ProfessionalGradeSection key={`professional-${id}`} cardId={id} />
    </>
  );
}
