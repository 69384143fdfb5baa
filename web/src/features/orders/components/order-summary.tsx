import type { Quote } from '@contracts/orders';
import { Skeleton } from '@/components/ui/skeleton';
import { formatUsd } from '../money';

/** The live order summary: the server's quote, line by line, and its total. */
export function OrderSummary({ quote, loading }: { quote: Quote | undefined; loading: boolean }) {
  return (
    <section aria-labelledby="order-summary-title" className="grid gap-3 rounded-xl border bg-muted/30 p-4">
      <h3 id="order-summary-title" className="font-semibold">
        Order Summary
      </h3>
      {!quote ? (
        loading ? (
          <div className="grid gap-2">
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-2/3" />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">Choose a service level to see the price.</p>
        )
      ) : (
        <dl className="grid gap-1.5 text-sm" aria-busy={loading}>
          {quote.lines.map((line) => (
            <div key={line.code} className="flex justify-between gap-4">
              <dt className="text-muted-foreground">{line.label}</dt>
              <dd className="tabular-nums">{formatUsd(line.amount)}</dd>
            </div>
          ))}
          <div className="mt-1 flex justify-between gap-4 border-t pt-2 text-base font-semibold">
            <dt>Total</dt>
            <dd className="tabular-nums" data-testid="order-total">
              {formatUsd(quote.totalAmount)}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
