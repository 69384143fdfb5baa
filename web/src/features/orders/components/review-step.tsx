import type { ShippingAddress } from '@contracts/addresses';
import type { Quote, SubmissionCard } from '@contracts/orders';
import { CheckCircle2, CircleAlert } from 'lucide-react';
import { Label } from '@/components/ui/label';
import { AddressLines } from '@/features/addresses/components/address-card';
import { formatUsd } from '../money';
import type { WizardState } from '../wizard-state';
import { OrderSummary } from './order-summary';

/** What stops the order, in SPEC.md §2's words; none means 'Ready to Submit'. */
export function missingForOrder(state: WizardState, address: ShippingAddress | undefined, paid: boolean): string[] {
  const missing: string[] = [];
  if (!state.serviceLevel) missing.push('Service level selection required');
  if (!address) missing.push('Shipping address required');
  if (!paid) missing.push('Payment information required');
  return missing;
}

/** Step 5: the card, the service, shipping, payment, notes, and whether the order can go. */
export function ReviewStep({
  state,
  update,
  card,
  quote,
  quoteLoading,
  address,
  paid,
}: {
  state: WizardState;
  update: (change: Partial<WizardState>) => void;
  card: SubmissionCard;
  quote: Quote | undefined;
  quoteLoading: boolean;
  address: ShippingAddress | undefined;
  paid: boolean;
}) {
  const missing = missingForOrder(state, address, paid);
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="grid gap-4">
        <ReviewSection title="Card">
          <p className="font-medium">{card.cardName}</p>
          <p className="text-sm text-muted-foreground">
            {[card.cardSet, card.cardNumber ? `#${card.cardNumber}` : null].filter(Boolean).join(' · ') || 'Unknown Set'}
          </p>
          <p className="text-sm">Declared value: {quote ? formatUsd(quote.totalDeclaredValue) : '—'}</p>
        </ReviewSection>
        <ReviewSection title="Service Details">
          <p>{quote ? `${quote.serviceLevel.name} Service` : 'No service level chosen'}</p>
          {quote && quote.lines.length > 2 ? (
            <p className="text-sm text-muted-foreground">
              {quote.lines
                .filter((l) => !['service', 'shipping'].includes(l.code))
                .map((l) => l.label)
                .join(', ')}
            </p>
          ) : null}
        </ReviewSection>
        <ReviewSection title="Shipping Information">{address ? <AddressLines address={address} /> : <p className="text-sm text-muted-foreground">No address chosen</p>}</ReviewSection>
        <ReviewSection title="Payment Status">
          {paid && state.payment ? (
            <p>
              Paid: {formatUsd(state.payment.amount)} on {state.payment.brand} ending in {state.payment.last4}
            </p>
          ) : (
            <p className="text-sm text-muted-foreground">Not paid</p>
          )}
        </ReviewSection>
        <div className="grid gap-2">
          <Label htmlFor="wizard-notes">Order notes (optional)</Label>
          <textarea
            id="wizard-notes"
            maxLength={1000}
            rows={3}
            value={state.notes}
            onChange={(event) => update({ notes: event.target.value })}
            className="w-full rounded-md border border-input bg-card px-3 py-2 text-base shadow-xs focus-visible:border-ring focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/30 md:text-sm"
          />
        </div>
      </div>
      <div className="grid h-fit gap-4">
        {missing.length === 0 ? (
          <div role="status" className="grid gap-1 rounded-xl border border-primary/40 bg-accent/40 p-4">
            <p className="flex items-center gap-2 font-semibold">
              <CheckCircle2 className="size-5 text-primary" aria-hidden />
              Ready to Submit
            </p>
            <p className="text-sm text-muted-foreground">Everything is in place.</p>
          </div>
        ) : (
          <div role="status" className="grid gap-2 rounded-xl border border-destructive/40 bg-destructive/5 p-4">
            <p className="flex items-center gap-2 font-semibold">
              <CircleAlert className="size-5 text-destructive" aria-hidden />
              Incomplete
            </p>
            <ul className="list-disc pl-5 text-sm">
              {missing.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          </div>
        )}
        <OrderSummary quote={quote} loading={quoteLoading} />
      </div>
    </div>
  );
}

function ReviewSection({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="grid gap-1 rounded-lg border p-4">
      <h3 className="text-sm font-semibold text-muted-foreground">{title}</h3>
      {children}
    </section>
  );
}
