// The payment port (DESIGN.md §8): a card is authorised for an amount, or declined with a reason the user can act
// on. The card's number and CVV go to the processor and nowhere else: not stored, not logged, not in an event.

export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  name: string;
}

export interface AuthorizeRequest {
  /** The same key twice gives the first answer again, without a second charge. */
  idempotencyKey: string;
  amountCents: number;
  currency: 'usd';
  card: CardDetails;
  description: string;
}

export type DeclineReason = 'card_declined' | 'insufficient_funds' | 'expired_card' | 'incorrect_number';

export type AuthorizeOutcome =
  | { status: 'authorized'; authorizationId: string; brand: string; last4: string; amountCents: number }
  | { status: 'declined'; reason: DeclineReason; message: string };

export interface PaymentProcessor {
  readonly name: string;
  authorize(request: AuthorizeRequest): Promise<AuthorizeOutcome>;
  /**
   * Releases an authorisation that will never be captured (the wizard's total changed and a new one replaced it), so
   * the hold on the customer's card goes now rather than when it lapses. Voiding one already voided is no error.
   */
  void(authorizationId: string): Promise<void>;
}
