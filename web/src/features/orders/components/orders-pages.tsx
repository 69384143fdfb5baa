import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeft, PackageOpen } from 'lucide-react';
import type { OrderView } from '@contracts/orders';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { AddressLines } from '@/features/addresses/components/address-card';
import { ProfessionalGradeSection } from '@/features/professional-grades/components/professional-grade-section';
import { orderQueryOptions, ordersQueryOptions } from '../api';
import { formatUsd } from '../money';
import { OrderTimeline } from './order-timeline';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'America/New_York' });
const statusLabel = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

/** /orders: the orders the user placed (beyond SPEC.md: reached from the account menu). */
export function OrdersPage() {
  const orders = useQuery(ordersQueryOptions);
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:py-12">
      <title>My Orders · Card Grader</title>
      <h1 className="text-3xl font-bold tracking-tight">My Orders</h1>
      <p className="mt-1 text-muted-foreground">Cards you sent for professional grading</p>
      <div className="mt-6">
        {orders.isPending ? (
          <div className="flex justify-center py-12">
            <Spinner className="size-6" label="Loading your orders" />
          </div>
        ) : orders.isError ? (
          <p role="alert" className="text-destructive">
            Failed to load your orders. Please try again later.
          </p>
        ) : orders.data.length === 0 ? (
          <div className="flex flex-col items-center gap-3 py-12 text-center">
            <PackageOpen className="size-10 text-muted-foreground" aria-hidden />
            <p className="font-semibold">No orders yet</p>
            <p className="text-sm text-muted-foreground">Submit a graded card for professional grading from its page.</p>
          </div>
        ) : (
          <ul className="grid gap-3" aria-label="Orders">
            {orders.data.map((order) => (
              <li key={order.id}>
                <Link
                  to="/orders/$id"
                  params={{ id: order.id }}
                  className="grid gap-2 rounded-xl border bg-card p-4 transition-colors hover:bg-secondary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:grid-cols-[8rem_1fr_8rem_7rem_7rem] sm:items-center"
                >
                  <span className="font-semibold tabular-nums">#{order.orderNumber}</span>
                  <span className="min-w-0 truncate">{order.card.cardName}</span>
                  <span className="text-sm text-muted-foreground">{order.serviceLevelName}</span>
                  <span className="font-medium tabular-nums">{formatUsd(order.totalAmount)}</span>
                  <span className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground sm:flex-col sm:items-start sm:gap-0.5">
                    <Badge variant="accent">{statusLabel(order.status)}</Badge>
                    {dateFormat.format(new Date(order.createdAt))}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/** /orders/{id}: one order as placed. */
export function OrderPage({ orderId }: { orderId: string }) {
  const order = useQuery(orderQueryOptions(orderId));
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-12">
      <Button variant="ghost" className="-ml-3 mb-2" asChild>
        <Link to="/orders">
          <ArrowLeft aria-hidden />
          My Orders
        </Link>
      </Button>
      {order.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner className="size-6" label="Loading the order" />
        </div>
      ) : order.isError ? (
        <>
          <title>Order Not Found · Card Grader</title>
          <h1 className="text-2xl font-bold">Order Not Found</h1>
          <p className="mt-2 text-muted-foreground">We couldn't find this order.</p>
        </>
      ) : (
        <OrderDetail order={order.data} />
      )}
    </div>
  );
}

function OrderDetail({ order }: { order: OrderView }) {
  const lines: [string, string][] = [
    [`${order.serviceLevelName} Service`, order.serviceFee],
    ['Additional services', order.additionalFees],
    ['Shipping', order.shippingFee],
    ['Shipping Insurance (2%)', order.insuranceFee],
  ];
  const extras = [
    order.cardCleaning && 'Card Cleaning',
    order.subgradesReport && 'Subgrades Report',
    order.heightMap && 'Laser Height Map',
    order.customShippingBox && 'Custom Shipping Box',
    order.slabCards && 'Protective Slab Sleeve',
    order.requireSignature && 'Signature Required',
  ].filter(Boolean);
  return (
    <>
      <title>{`Order #${order.orderNumber} · Card Grader`}</title>
      <h1 className="text-3xl font-bold tracking-tight">Order #{order.orderNumber}</h1>
      <p className="mt-1 flex flex-wrap items-center gap-2 text-muted-foreground">
        <Badge variant="accent">{statusLabel(order.status)}</Badge>
        Placed {dateFormat.format(new Date(order.createdAt))}
      </p>
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle as="h2">Card</CardTitle>
            <CardDescription>{order.card.cardSet ?? 'Unknown Set'}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-1">
            <Link to="/card/$id" params={{ id: order.card.id }} className="font-medium underline-offset-4 hover:underline">
              {order.card.cardName}
            </Link>
            <p className="text-sm">Declared value {formatUsd(order.totalDeclaredValue)}</p>
            {extras.length > 0 ? <p className="text-sm text-muted-foreground">{extras.join(', ')}</p> : null}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as="h2">Shipping</CardTitle>
          </CardHeader>
          <CardContent>
            <AddressLines address={order.shippingAddress} />
          </CardContent>
        </Card>
        <Card className="sm:col-span-2">
          <CardHeader>
            <CardTitle as="h2">Payment</CardTitle>
            <CardDescription>
              {order.paymentBrand} ending in {order.paymentLast4}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-1.5 text-sm">
              {lines.map(([label, amount]) => (
                <div key={label} className="flex justify-between gap-4">
                  <dt className="text-muted-foreground">{label}</dt>
                  <dd className="tabular-nums">{formatUsd(amount)}</dd>
                </div>
              ))}
              <div className="mt-1 flex justify-between gap-4 border-t pt-2 text-base font-semibold">
                <dt>Total paid</dt>
                <dd className="tabular-nums">{formatUsd(order.paidAmount)}</dd>
              </div>
            </dl>
            {order.notes ? <p className="mt-4 text-sm">Notes: {order.notes}</p> : null}
          </CardContent>
        </Card>
        <OrderTimeline timeline={order.timeline} cardId={order.card.id} />
        {/* The grade the card came back with, reported here as on the card's page (issue 33). */}
        <ProfessionalGradeSection cardId={order.card.id} embedded />
      </div>
    </>
  );
}
