import { createFileRoute } from '@tanstack/react-router';
import { GradeHistorySection } from '@/features/cards/components/grade-history-section';
import { SharedCardPage } from '@/features/cards/components/shared-card-page';
import { ProfessionalGradeSection } from '@/features/professional-grades/components/professional-grade-section';

export const Route = createFileRoute('/card/$id')({
  component: SharedCardRoute,
});

function SharedCardRoute() {
  const { id } = Route.useParams();
  // A new id is a new card: start from its loading state rather than the previous card's screen. The professional
  // grade and grade history sections show for the card's owner only (anyone else gets the server's 404, and they
  // stay away).
  return (
    <>
      <SharedCardPage key={id} id={id} />
      <GradeHistorySection key={`history-${id}`} cardId={id} />
      <ProfessionalGradeSection key={`professional-${id}`} cardId={id} />
    </>
  );
}
