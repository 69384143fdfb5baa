import { createHash } from 'node:crypto';
import { cardBrand, lastFour } from '../../domain/orders/card-brand.ts';
import type { Clock } from '../clock/clock.ts';
import type { AuthorizeOutcome, AuthorizeRequest, PaymentProcessor } from './types.ts';

// A processor that behaves like a payment provider's test mode, and the built-in one: nothing is charged.
// 4242 4242 4242 4242 (and the other success numbers below) are authorised; 4000 0000 0000 0002 is declined;
// 4000 0000 0000 9995 has insufficient funds; a date in the past is an expired card; any other number is
// declined, as a real provider's test mode declines a real card.

const SUCCEEDS = new Set(['4242424242424242', '4000056655665556', '5555555555554444', '2223003122003222', '5105105105105100', '6011111111111117']);
const DECLINED = new Set(['4000000000000002']);
const INSUFFICIENT = new Set(['4000000000009995']);

export const DECLINE_MESSAGES = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  incorrect_number: 'Your card number is incorrect.',
} as const;

/** The test-mode answer for a card, at `now`. Shared by the built-in processor and the loopback fake of tests. */
export function testModeOutcome(request: Pick<AuthorizeRequest, 'card' | 'amountCents' | 'idempotencyKey'>, now: Date): AuthorizeOutcome {
  const { number, expMonth, expYear } = request.card;
  // A card is good through the last day of its expiry month.
  const expired = expYear < now.getUTCFullYear() || (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1);
  if (expired) return { status: 'declined', reason: 'expired_card', message: DECLINE_MESSAGES.expired_card };
  if (INSUFFICIENT.has(number)) return { status: 'declined', reason: 'insufficient_funds', message: DECLINE_MESSAGES.insufficient_funds };
  if (DECLINED.has(number) || !SUCCEEDS.has(number)) return { status: 'declined', reason: 'card_declined', message: DECLINE_MESSAGES.card_declined };
  const authorizationId = `auth_test_${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24)}`;
  return { status: 'authorized', authorizationId, brand: cardBrand(number), last4: lastFour(number), amountCents: request.amountCents };
}

/** In this process; the same idempotency key gives the same authorisation id, so a retry is the same payment. */
export function testModeProcessor(clock: Clock): PaymentProcessor {
  return {
    name: 'test-mode',
    async authorize(request) {
      return testModeOutcome(request, clock.now());
    },
    // Nothing is held in test mode.
    async void() {},
  };
}
