import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, Check } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SubmissionCard } from '@contracts/orders';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { addressesQueryOptions } from '@/features/addresses/api';
import { useUser } from '@/features/auth/api';
import { cn } from '@/lib/utils';
import { serviceLevelsQueryOptions, submissionCardQueryOptions, usePlaceOrderMutation, useQuote } from '../api';
import { declaredValueProblem, selectionOf, useWizard, WIZARD_STEPS, type WizardState } from '../wizard-state';
import { AddOnsStep } from './add-ons-step';
import { paymentCurrent, PaymentStep } from './payment-step';
import { missingForOrder, ReviewStep } from './review-step';
import { ServiceLevelStep } from './service-level-step';
import { ShippingStep } from './shipping-step';

/** After the order is placed, the way back to the card (SPEC.md §4). */
const BACK_TO_CARD_MS = 2000;

/** /submit-card/{id}: the five-step order wizard (SPEC.md §2), inside the protected-route wrapper. */
export function SubmitCardPage({ cardId }: { cardId: string }) {
  const { user } = useUser();
  const card = useQuery(submissionCardQueryOptions(cardId));
  const wizard = useWizard(user?.id, cardId);
  const { state, start } = wizard;
  // Kept here, above the wizard: the wizard's own state is reset the moment the order is placed.
  const [placed, setPlaced] = useState<string | null>(null);

  useEffect(() => {
    if (card.data && !state) start(card.data.estimatedValue);
  }, [card.data, state, start]);

  if (placed) {
    return (
      <div className="mx-auto grid w-full max-w-xl gap-3 px-4 py-16 text-center" role="status">
        <title>Order Placed · Card Grader</title>
        <Check className="mx-auto size-10 text-primary" aria-hidden />
        <h1 className="text-2xl font-bold">Your order #{placed} has been placed</h1>
        <p className="text-muted-foreground">Taking you back to your card...</p>
      </div>
    );
  }
  if (card.isPending || (card.data && !state)) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner className="size-8" label="Loading your card" />
      </div>
    );
  }
  if (card.isError || !state) {
    return (
      <div className="mx-auto grid w-full max-w-xl gap-4 px-4 py-16 text-center">
        <title>Card Not Found · Card Grader</title>
        <h1 className="text-2xl font-bold">Card Not Found</h1>
        <p className="text-muted-foreground">We couldn't find the card you're looking for. It may have been deleted or doesn't exist.</p>
        <div>
          <Button asChild>
            <Link to="/collection">Back to Collection</Link>
          </Button>
        </div>
      </div>
    );
  }
  return (
    <Wizard
      cardId={cardId}
      card={card.data}
      state={state}
      update={wizard.update}
      onPlaced={(orderNumber) => {
        setPlaced(orderNumber);
        wizard.reset();
      }}
    />
  );
}

function Wizard({
  cardId,
  card,
  state,
  update: rawUpdate,
  onPlaced,
}: {
  cardId: string;
  card: SubmissionCard;
  state: WizardState;
  update: (change: Partial<WizardState>) => void;
  onPlaced: (orderNumber: string) => void;
}) {
  const navigate = useNavigate();
  const placeOrder = usePlaceOrderMutation();
  const addresses = useQuery(addressesQueryOptions);
  // Steps' effects depend on `update`; keep one function across renders.
  const latest = useRef(rawUpdate);
  latest.current = rawUpdate;
  const update = useCallback((change: Partial<WizardState>) => latest.current(change), []);

  const selection = selectionOf(state);
  const levels = useQuery(serviceLevelsQueryOptions);
  const level = levels.data?.find((l) => l.code === state.serviceLevel);
  // Each rule is checked on the step where its value is entered: the declared value on step 1, before any quote.
  const declaredProblem = declaredValueProblem(state.totalDeclaredValue, level);
  // Said once the value has been typed or the step left, not at first sight of a card with no price (its 0).
  const [declaredShown, setDeclaredShown] = useState(false);
  const quote = useQuote(state.serviceLevel && level && !declaredProblem ? selection : null);
  const quoteError = quote.error;
  const address = addresses.data?.find((a) => a.id === state.shippingAddressId);
  const paid = paymentCurrent(state, quote.data);
  const last = WIZARD_STEPS.length - 1;

  function submit() {
    if (missingForOrder(state, address, paid).length > 0 || !address) {
      toast({ title: 'Missing information', description: 'Please complete all steps before submitting your order.', variant: 'destructive' });
      return;
    }
    placeOrder.mutate(
      { wizardId: state.wizardId, cardId, selection, shippingAddressId: address.id, notes: state.notes || null },
      {
        onSuccess: (order) => {
          toast({ title: 'Order Placed', description: `Your order #${order.orderNumber} has been placed`, duration: 5000 });
          onPlaced(order.orderNumber);
          setTimeout(() => void navigate({ to: '/card/$id', params: { id: cardId } }), BACK_TO_CARD_MS);
        },
        onError: () => toast({ title: 'Error submitting order', description: 'There was a problem submitting your order. Please try again.', variant: 'destructive' }),
      },
    );
  }

  /** To another step; past step 1 only with a declared value it accepts (else it stays, says why, and puts the cursor there). */
  function goTo(step: number) {
    if (step > 0 && declaredProblem) {
      setDeclaredShown(true);
      update({ step: 0 });
      window.requestAnimationFrame(() => document.getElementById('wizard-declared-value')?.focus());
      return;
    }
    update({ step });
  }

  const stepProps = { state, update, quote: quote.data };
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:py-10">
      <title>Submit Card for Professional Grading · Card Grader</title>
      <Button variant="ghost" className="-ml-3 mb-2" asChild>
        <Link to="/card/$id" params={{ id: cardId }}>
          <ArrowLeft aria-hidden />
          Back to Card
        </Link>
      </Button>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Submit Card for Professional Grading</h1>

      <Card className="mt-4">
        <CardContent className="flex items-center gap-4 pt-6">
          {card.cardImageUrl ?? card.imageUrl ? (
            <img src={(card.cardImageUrl ?? card.imageUrl)!} alt={`${card.cardName}, front`} className="aspect-[63/88] h-24 w-auto rounded-md border object-contain" />
          ) : (
            <div className="flex h-24 w-16 items-center justify-center rounded-md border bg-muted text-xs text-muted-foreground">No Image</div>
          )}
          <div className="grid min-w-0 gap-0.5">
            <p className="truncate font-semibold">{card.cardName}</p>
            <p className="truncate text-sm text-muted-foreground">{card.cardSet ?? 'Unknown Set'}</p>
            {card.cardNumber ? <p className="text-sm text-muted-foreground">#{card.cardNumber}</p> : null}
            <p className="text-sm">Current Grade: {card.overallGrade.toFixed(1)}/10</p>
          </div>
        </CardContent>
      </Card>

      <nav aria-label="Order steps" className="mt-6">
        <ol className="grid grid-cols-5 gap-1 sm:gap-2">
          {WIZARD_STEPS.map((label, index) => {
            const active = index === state.step;
            const complete = index < state.step;
            return (
              <li key={label}>
                <button
                  type="button"
                  onClick={() => goTo(index)}
                  aria-current={active ? 'step' : undefined}
                  aria-label={`Step ${index + 1}: ${label}${complete ? ' (complete)' : ''}`}
                  className="flex w-full cursor-pointer flex-col items-center gap-1 rounded-md p-1 text-center focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <span
                    className={cn(
                      'flex size-8 items-center justify-center rounded-full border-2 text-sm font-semibold',
                      active && 'border-primary bg-primary text-primary-foreground',
                      complete && 'border-primary bg-accent text-accent-foreground',
                      !active && !complete && 'border-border text-muted-foreground',
                    )}
                  >
                    {complete ? <Check className="size-4" aria-hidden /> : index + 1}
                  </span>
                  <span className={cn('text-xs leading-tight sm:text-sm', active ? 'font-semibold' : 'text-muted-foreground')}>{label}</span>
                </button>
              </li>
            );
          })}
        </ol>
      </nav>

      <Card className="mt-4">
        <CardContent className="grid gap-4 pt-6">
          <h2 className="text-xl font-semibold">{state.step === 1 ? 'Additional Services' : WIZARD_STEPS[state.step]}</h2>
          {quoteError && state.step !== 0 ? (
            <p role="alert" className="text-sm text-destructive">
              {quoteErrorText(quoteError)}
            </p>
          ) : null}
          {state.step === 0 ? (
            <ServiceLevelStep
              cardId={cardId}
              state={state}
              update={update}
              declaredError={declaredProblem ? (declaredShown ? declaredProblem : undefined) : quoteError ? quoteErrorText(quoteError) : undefined}
              onDeclaredEdited={() => setDeclaredShown(true)}
            />
          ) : state.step === 1 ? (
            <AddOnsStep {...stepProps} />
          ) : state.step === 2 ? (
            <ShippingStep {...stepProps} />
          ) : state.step === 3 ? (
            <PaymentStep {...stepProps} cardId={cardId} quoteLoading={quote.isFetching} />
          ) : (
            <ReviewStep {...stepProps} card={card} quoteLoading={quote.isFetching} address={address} paid={paid} />
          )}
        </CardContent>
      </Card>

      <div className="mt-4 flex justify-between gap-3">
        <Button variant="outline" disabled={state.step === 0} onClick={() => update({ step: state.step - 1 })}>
          Back
        </Button>
        {state.step < last ? (
          <Button onClick={() => goTo(state.step + 1)}>Next</Button>
        ) : (
          <Button disabled={placeOrder.isPending || placeOrder.isSuccess} onClick={submit}>
            {placeOrder.isPending ? 'Submitting...' : 'Submit Order'}
          </Button>
        )}
      </div>
    </div>
  );
}

function quoteErrorText(error: Error): string {
  const body = error.message.replace(/^\d+: /, '');
  try {
    return (JSON.parse(body) as { error?: string }).error ?? body;
  } catch {
    return body;
  }
}
