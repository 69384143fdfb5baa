import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, CreditCard } from 'lucide-react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { paymentCardSchema, type PaymentCard, type Quote } from '@contracts/orders';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { usePaymentMutation } from '../api';
import { formatUsd } from '../money';
import { selectionOf, type WizardState } from '../wizard-state';
import { OrderSummary } from './order-summary';

const MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));

/** Is the payment made still the payment for this order (the selection may have changed since)? */
export function paymentCurrent(state: WizardState, quote: Quote | undefined): boolean {
  return state.paymentComplete && state.payment !== null && quote !== undefined && state.payment.amountCents === quote.totalCents;
}

/** Step 4: the card form with the live order summary; after payment, a success view replaces the form. */
export function PaymentStep({
  state,
  update,
  cardId,
  quote,
  quoteLoading,
}: {
  state: WizardState;
  update: (change: Partial<WizardState>) => void;
  cardId: string;
  quote: Quote | undefined;
  quoteLoading: boolean;
}) {
  const pay = usePaymentMutation();
  const thisYear = new Date().getFullYear();
  const years = Array.from({ length: 21 }, (_, i) => String(thisYear + i));
  const form = useForm<z.input<typeof paymentCardSchema>, unknown, PaymentCard>({
    resolver: zodResolver(paymentCardSchema),
    defaultValues: { cardNumber: '', cardName: '', expiryMonth: '', expiryYear: '', cvv: '', saveCard: false, billingAddressSame: true },
  });
  const { errors } = form.formState;
  const current = paymentCurrent(state, quote);
  const stale = state.paymentComplete && !current && quote !== undefined;

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      {current && state.payment ? (
        <div role="status" className="grid h-fit gap-2 rounded-xl border border-primary/40 bg-accent/40 p-6">
          <p className="flex items-center gap-2 text-lg font-semibold">
            <CheckCircle2 className="size-5 text-primary" aria-hidden />
            Payment Complete
          </p>
          <p>
            {formatUsd(state.payment.amount)} authorised on {state.payment.brand} ending in {state.payment.last4}.
          </p>
          <p className="text-sm text-muted-foreground">Your card is charged when the order is submitted. Go on to Review.</p>
        </div>
      ) : (
        <form
          noValidate
          aria-label="Payment"
          className="grid gap-4"
          onSubmit={form.handleSubmit((payment) => {
            if (!state.serviceLevel) return;
            pay.mutate(
              { wizardId: state.wizardId, cardId, selection: selectionOf(state), payment },
              {
                onSuccess: (result) => {
                  update({ paymentComplete: true, payment: { brand: result.brand, last4: result.last4, amount: result.amount, amountCents: result.amountCents } });
                  toast({ title: 'Payment Successful', description: `${formatUsd(result.amount)} authorised on ${result.brand} ending in ${result.last4}.`, duration: 3000 });
                  // The number and CVV leave the page with the request; nothing of them is kept.
                  form.reset();
                },
                onError: (error) => {
                  console.error('payment failed', error instanceof ApiError ? error.status : error);
                  toast({
                    title: 'Payment Declined',
                    description: (error instanceof ApiError && error.serverMessage) || 'There was a problem with your payment. Please try again.',
                    variant: 'destructive',
                  });
                },
              },
            );
          })}
        >
          {stale ? (
            <p role="alert" className="rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm">
              Your order changed after payment. Please pay the new total.
            </p>
          ) : null}
          <Field id="wizard-card-number" label="Card number" error={errors.cardNumber?.message}>
            {(control) => <Input {...control} inputMode="numeric" autoComplete="cc-number" maxLength={19} placeholder="4242424242424242" {...form.register('cardNumber')} />}
          </Field>
          <Field id="wizard-card-name" label="Cardholder name" error={errors.cardName?.message}>
            {(control) => <Input {...control} autoComplete="cc-name" {...form.register('cardName')} />}
          </Field>
          <div className="grid grid-cols-3 gap-3">
            <Field id="wizard-expiry-month" label="Month" error={errors.expiryMonth?.message}>
              {(control) => (
                <NativeSelect {...control} autoComplete="cc-exp-month" {...form.register('expiryMonth')}>
                  <option value="">MM</option>
                  {MONTHS.map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
            <Field id="wizard-expiry-year" label="Year" error={errors.expiryYear?.message}>
              {(control) => (
                <NativeSelect {...control} autoComplete="cc-exp-year" {...form.register('expiryYear')}>
                  <option value="">YYYY</option>
                  {years.map((y) => (
                    <option key={y} value={y}>
                      {y}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
            <Field id="wizard-cvv" label="CVV" error={errors.cvv?.message}>
              {(control) => <Input {...control} inputMode="numeric" autoComplete="cc-csc" maxLength={4} {...form.register('cvv')} />}
            </Field>
          </div>
          <p className="text-sm text-muted-foreground">Test mode: 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined.</p>
          <div>
            <Button type="submit" disabled={pay.isPending || !quote}>
              <CreditCard aria-hidden />
              {pay.isPending ? 'Processing...' : quote ? `Pay ${formatUsd(quote.totalAmount)}` : 'Pay'}
            </Button>
          </div>
        </form>
      )}
      <OrderSummary quote={quote} loading={quoteLoading} />
    </div>
  );
}
