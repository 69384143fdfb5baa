import { createFileRoute } from '@tanstack/react-router';
import { ProtectedRoute } from '@/components/layout/protected-route';
import { OrdersPage } from '@/features/orders/components/orders-pages';

export const Route = createFileRoute('/orders/')({
  component: () => (
    <ProtectedRoute comeBack>
      <OrdersPage />
    </ProtectedRoute>
  ),
});
