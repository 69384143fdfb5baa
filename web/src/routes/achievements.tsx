import { createFileRoute } from '@tanstack/react-router';
import { ProtectedRoute } from '@/components/layout/protected-route';
import { AchievementsPage } from '@/features/achievements/components/achievements-page';

// Achievements are the signed-in user's (SPEC.md §6): a guest signs in and comes back.
export const Route = createFileRoute('/achievements')({
  component: () => (
    <ProtectedRoute comeBack>
      <AchievementsPage />
    </ProtectedRoute>
  ),
});
