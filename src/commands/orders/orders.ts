import { createHash } from 'node:crypto';
import { AppError } from '../../contracts/errors.ts';
import {
  orderDecider,
  orderNumberDecider,
  orderNumberFrom,
  orderNumberTaken,
  orderAlreadyPlaced,
  type OrderPlaced,
  type OrderState,
} from '../../domain/orders/index.ts';
import type { PaymentProcessor, CardDetails } from '../../infra/payments/types.ts';
import { WrongExpectedVersionError } from '../../infra/event-store/types.ts';
import { handleCommand, type CommandContext } from '../handle-command.ts';

// Paying for an order and placing it. One wizard is one order: its id comes from the user and the wizard's key,
// so a double click, a retry or a second tab all reach the same stream and place it once.

export const orderStream = (orderId: string) => ({ streamId: `order-${orderId}`, streamType: 'order' });
export const orderNumberStream = (orderNumber: string) => ({ streamId: `order-number-${orderNumber}`, streamType: 'order-number' });

/** Per user: another user's wizard key never reaches this user's order. */
export function orderIdFor(userId: string, wizardId: string): string {
  return createHash('sha256').update(`${userId}:${wizardId.toLowerCase()}`).digest('hex').slice(0, 32);
}

async function orderState(context: CommandContext, orderId: string): Promise<OrderState> {
  const { events } = await context.store.readStream(orderStream(orderId).streamId);
  return events.reduce((s, e) => orderDecider.evolve(s, e as never), orderDecider.initialState());
}

export interface AuthorizeInput {
  orderId: string;
  userId: string;
  cardId: string;
  amountCents: number;
  card: CardDetails;
  /** A keyed hash of the card (never the number itself), so another card is another payment attempt. */
  cardFingerprint: string;
  description: string;
  /** A replaced authorisation could not be voided (the processor did not answer): it lapses by itself later. */
  onVoidFailed?: (error: unknown, authorizationId: string) => void;
}

/**
 * Authorises the amount on the card, then records the authorisation (brand and last four only). A decline is
 * refused with the processor's words and records nothing. The processor's idempotency key is the order, the amount
 * and the card: the same payment retried (a double click) is the same authorisation; another card or a changed total
 * is a new attempt. A new authorisation replaces the order's earlier one (the total changed, or another card): the
 * earlier one is voided through the processor once the new one is recorded, so holds never pile up on a card.
 */
export async function authorizeOrderPayment(context: CommandContext, processor: PaymentProcessor, input: AuthorizeInput) {
  const state = await orderState(context, input.orderId);
  if (state.status !== 'none' && state.userId !== input.userId) throw new AppError('not_found', 'order_not_found', 'Order not found');
  if (state.status === 'placed') throw orderAlreadyPlaced();
  const outcome = await processor.authorize({
    idempotencyKey: `${input.orderId}:${input.amountCents}:${input.cardFingerprint}`,
    amountCents: input.amountCents,
    currency: 'usd',
    card: input.card,
    description: input.description,
  });
  if (outcome.status === 'declined') throw new AppError('unprocessable', outcome.reason, outcome.message);
  const payment = { authorizationId: outcome.authorizationId, processor: processor.name, brand: outcome.brand, last4: outcome.last4, amountCents: outcome.amountCents };
  await handleCommand(context, {
    ...orderStream(input.orderId),
    decider: orderDecider,
    command: { type: 'AuthorizePayment', data: { orderId: input.orderId, userId: input.userId, cardId: input.cardId, payment, at: context.metadata.timestamp } },
  });
  const replaced = state.status === 'paid' && state.payment.authorizationId !== payment.authorizationId && state.payment.processor === processor.name ? state.payment.authorizationId : null;
  if (replaced) await processor.void(replaced).catch((error: unknown) => input.onVoidFailed?.(error, replaced));
  return payment;
}

const ORDER_NUMBER_ATTEMPTS = 8;

/**
 * Places the order paid for: claims a free six-digit number on its own stream, then appends OrderPlaced.
 * Placing a placed order again answers with its number.
 */
export async function placeOrder(
  context: CommandContext,
  deps: { randomInt: () => number },
  data: Omit<OrderPlaced['data'], 'payment' | 'orderNumber'>,
): Promise<{ orderId: string; orderNumber: string; placedNow: boolean }> {
  const before = await orderState(context, data.orderId);
  if (before.status === 'placed' && before.userId === data.userId) return { orderId: data.orderId, orderNumber: before.orderNumber, placedNow: false };
  // Checked before a number is claimed, so refused orders use none up.
  orderDecider.decide({ type: 'PlaceOrder', data: { ...data, orderNumber: '000000' } }, before);

  for (let attempt = 1; ; attempt++) {
    const orderNumber = orderNumberFrom(deps.randomInt());
    try {
      await handleCommand(context, {
        ...orderNumberStream(orderNumber),
        decider: orderNumberDecider,
        command: { type: 'ClaimOrderNumber', data: { orderNumber, orderId: data.orderId, at: context.metadata.timestamp } },
        retries: 0,
      });
    } catch (error) {
      const taken = (error instanceof AppError && error.code === orderNumberTaken().code) || error instanceof WrongExpectedVersionError;
      if (taken && attempt < ORDER_NUMBER_ATTEMPTS) continue;
      throw error;
    }
    const result = await handleCommand(context, {
      ...orderStream(data.orderId),
      decider: orderDecider,
      command: { type: 'PlaceOrder', data: { ...data, orderNumber } },
    });
    // Another request placed it first (with its own number): that order is the one.
    if (result.state.status === 'placed') return { orderId: data.orderId, orderNumber: result.state.orderNumber, placedNow: result.events.length > 0 };
    throw new Error('order not placed');
  }
}
