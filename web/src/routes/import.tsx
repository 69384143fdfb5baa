import { createFileRoute } from '@tanstack/react-router';
import { ProtectedRoute } from '@/components/layout/protected-route';
import { ImportPage } from '@/features/import/components/import-page';

export const Route = createFileRoute('/import')({
  component: () => (
    <ProtectedRoute comeBack>
      <ImportPage />
    </ProtectedRoute>
  ),
});
