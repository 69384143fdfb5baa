import { AppError } from '../../contracts/errors.ts';
import { assertNever, type Decider } from '../decider.ts';
import type { OrderEvent, OrderPlaced, PaymentAuthorized } from './events.ts';

// An order, stream `order-<orderId>`: paid for on the wizard's Payment step (PaymentAuthorized), then placed
// from its Review step (OrderPlaced). Placing needs a payment of exactly the quote's total; placing again
// changes nothing (a double click, a retry, a second tab), and a placed order takes no new payment.

export type OrderState =
  | { status: 'none' }
  | { status: 'paid'; userId: string; cardId: string; payment: PaymentAuthorized['data']['payment'] }
  | { status: 'placed'; userId: string; orderNumber: string };

export type AuthorizePayment = { type: 'AuthorizePayment'; data: PaymentAuthorized['data'] };
export type PlaceOrder = { type: 'PlaceOrder'; data: Omit<OrderPlaced['data'], 'payment'> };
export type OrderCommand = AuthorizePayment | PlaceOrder;

export const orderNotFound = () => new AppError('not_found', 'order_not_found', 'Order not found');
export const orderAlreadyPlaced = () => new AppError('conflict', 'order_already_placed', 'This order has already been placed.');

export function authorizePayment(command: AuthorizePayment, state: OrderState): OrderEvent[] {
  if (state.status !== 'none' && state.userId !== command.data.userId) throw orderNotFound();
  if (state.status === 'placed') throw orderAlreadyPlaced();
  if (state.status === 'paid' && state.payment.authorizationId === command.data.payment.authorizationId) return [];
  return [{ type: 'PaymentAuthorized', data: command.data }];
}

export function placeOrder(command: PlaceOrder, state: OrderState): OrderEvent[] {
  const { data } = command;
  if (state.status !== 'none' && state.userId !== data.userId) throw orderNotFound();
  if (state.status === 'placed') return [];
  if (state.status === 'none' || state.cardId !== data.card.cardGradeId) {
    throw new AppError('invalid', 'payment_required', 'Payment information required');
  }
  if (state.payment.amountCents !== data.figures.totalAmount) {
    throw new AppError('conflict', 'payment_amount_changed', 'Your order changed after payment. Please pay the new total on the Payment step.');
  }
  return [{ type: 'OrderPlaced', data: { ...data, payment: state.payment } }];
}

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'PaymentAuthorized':
      return { status: 'paid', userId: event.data.userId, cardId: event.data.cardId, payment: event.data.payment };
    case 'OrderPlaced':
      return { status: 'placed', userId: event.data.userId, orderNumber: event.data.orderNumber };
    default:
      return assertNever(event);
  }
}

export const orderDecider: Decider<OrderState, OrderCommand, OrderEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveOrder,
  decide(command, state) {
    switch (command.type) {
      case 'AuthorizePayment':
        return authorizePayment(command, state);
      case 'PlaceOrder':
        return placeOrder(command, state);
      default:
        return assertNever(command);
    }
  },
};
