import { AppError } from '../../contracts/errors.ts';
import { ORDER_PROGRESS, type OrderProgress } from '../../contracts/orders.ts';
import { isGradeOnScale } from '../../contracts/professional-grades.ts';
import { assertNever, type Decider } from '../decider.ts';
import type { OrderEvent, OrderPlaced, OrderStatusChanged, PaymentAuthorized } from './events.ts';

// An order, stream `order-<orderId>`: paid for on the wizard's Payment step (PaymentAuthorized), then placed
// from its Review step (OrderPlaced). Placing needs a payment of exactly the quote's total; placing again
// changes nothing (a double click, a retry, a second tab), and a placed order takes no new payment.

export type OrderState =
  | { status: 'none' }
  | { status: 'paid'; userId: string; cardId: string; payment: PaymentAuthorized['data']['payment'] }
  /** `progress`: the last status the provider reported (null until the first); `cardId`: the card sent. */
  | { status: 'placed'; userId: string; orderNumber: string; cardId?: string; progress?: OrderProgress | null };

export type AuthorizePayment = { type: 'AuthorizePayment'; data: PaymentAuthorized['data'] };
export type PlaceOrder = { type: 'PlaceOrder'; data: Omit<OrderPlaced['data'], 'payment'> };
/** The provider moved the order on; 'graded' carries the order's card's grade. */
export type AdvanceOrder = { type: 'AdvanceOrder'; data: Omit<OrderStatusChanged['data'], 'userId'> };
export type OrderCommand = AuthorizePayment | PlaceOrder | AdvanceOrder;

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

/**
 * An order moves forward only, one status or several at once (a provider may report late), never back; the same
 * status again changes nothing. Reaching 'graded' needs the grade of the order's card, one its company gives; other
 * statuses carry no grades.
 */
export function advanceOrder(command: AdvanceOrder, state: OrderState): OrderEvent[] {
  const { orderId, status, grades, at } = command.data;
  if (state.status !== 'placed') throw orderNotFound();
  const from = state.progress ? ORDER_PROGRESS.indexOf(state.progress) : -1;
  const to = ORDER_PROGRESS.indexOf(status);
  if (to === from) return [];
  if (to < from) throw new AppError('conflict', 'order_status_backwards', `The order is already ${state.progress}; it cannot go back to ${status}.`);
  if (status === 'graded') {
    const cardGrade = grades.find((g) => g.cardId === state.cardId);
    if (grades.length !== 1 || !cardGrade) throw new AppError('invalid', 'order_grades_required', `Reaching graded needs the grade of the order's card (${state.cardId ?? 'unknown'}), and only that.`);
    if (!isGradeOnScale(cardGrade.company, cardGrade.grade)) throw new AppError('invalid', 'grade_not_on_scale', `${cardGrade.company} does not give ${cardGrade.grade}.`);
  } else if (grades.length > 0) {
    throw new AppError('invalid', 'order_grades_unexpected', 'Grades come with the status graded only.');
  }
  return [{ type: 'OrderStatusChanged', data: { orderId, userId: state.userId, status, grades, at } }];
}

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'PaymentAuthorized':
      return { status: 'paid', userId: event.data.userId, cardId: event.data.cardId, payment: event.data.payment };
    case 'OrderPlaced':
      return { status: 'placed', userId: event.data.userId, orderNumber: event.data.orderNumber, cardId: event.data.card.cardGradeId, progress: null };
    case 'OrderStatusChanged':
      return state.status === 'placed' ? { ...state, progress: event.data.status } : state;
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
      case 'AdvanceOrder':
        return advanceOrder(command, state);
      default:
        return assertNever(command);
    }
  },
};
