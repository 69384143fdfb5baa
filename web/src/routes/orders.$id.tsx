import { createFileRoute } from '@tanstack/react-router';
import { ProtectedRoute } from '@/components/layout/protected-route';
import { OrderPage } from '@/features/orders/components/orders-pages';

export const Route = createFileRoute('/orders/$id')({
  component: OrderRoute,
});

function OrderRoute() {
  const { id } = Route.useParams();
  return (
    <ProtectedRoute comeBack>
      <OrderPage key={id} orderId={id} />
    </ProtectedRoute>
  );
}
