import { AppError } from '../../contracts/errors.ts';
import type { Decider } from '../decider.ts';
import type { OrderNumberClaimed } from './events.ts';

// An order number's own stream, `order-number-<n>`: the first order to claim it keeps it, so two orders never
// share one. The number itself is drawn outside (randomness is passed in).

export type OrderNumberState = { claimedBy: string | null };
export type ClaimOrderNumber = { type: 'ClaimOrderNumber'; data: OrderNumberClaimed['data'] };

export const orderNumberTaken = () => new AppError('conflict', 'order_number_taken', 'This order number is taken');

export const orderNumberDecider: Decider<OrderNumberState, ClaimOrderNumber, OrderNumberClaimed> = {
  initialState: () => ({ claimedBy: null }),
  evolve: (_state, event) => ({ claimedBy: event.data.orderId }),
  decide(command, state) {
    if (state.claimedBy === command.data.orderId) return [];
    if (state.claimedBy !== null) throw orderNumberTaken();
    return [{ type: 'OrderNumberClaimed', data: command.data }];
  },
};

/** A six-digit number from a random integer: 100000–999999. */
export const orderNumberFrom = (random: number) => String(100_000 + (Math.abs(Math.trunc(random)) % 900_000));
