import { createFileRoute } from '@tanstack/react-router';
import { ProtectedRoute } from '@/components/layout/protected-route';
import { ProfilePage } from '@/features/profile/components/profile-page';

export const Route = createFileRoute('/profile')({
  component: () => (
    <ProtectedRoute>
      <ProfilePage />
    </ProtectedRoute>
  ),
});
