import { z } from 'zod';
import { ORDER_PROGRESS } from '../../contracts/orders.ts';
import { gradingCompanySchema } from '../../contracts/portfolio.ts';

// Orders moving on at an external grading provider (issue 33), heard of through the provider's order status feed: the
// port every provider's orders come through. The built-in provider has no feed (an operator moves its orders: `npm run
// orders -- advance`); an external one is read over HTTP here.
//
// The wire format: GET <ORDER_STATUS_FEED_URL>?after=<cursor> (no `after` on the first read), with
// `Authorization: Bearer <ORDER_STATUS_FEED_TOKEN>` when one is set, answers 200 with JSON
//   { "updates": [ { "reference": "<our order id>", "status": "received" | "grading" | "graded" | "shipped" | "delivered",
//                    "at": "<ISO time>", "grades": [ { "card_id": "<our card id>", "company": "PSA", "grade": 9, "cert": "12345678" } ] } ],
//     "cursor": "<opaque; where the next read goes on from>" }
// updates oldest first, `grades` only with "graded" (the card's grade). An empty `updates` means nothing new; the
// cursor is then the same or null. Anything else (another status, a body that is not this shape) is a failed read.

export const orderStatusUpdateSchema = z.object({
  reference: z.string().min(1).max(100),
  status: z.enum(ORDER_PROGRESS),
  at: z.iso.datetime({ offset: true }),
  grades: z.array(z.object({ card_id: z.string().min(1).max(100), company: gradingCompanySchema, grade: z.number(), cert: z.string().regex(/^[A-Za-z0-9-]{4,20}$/) })).default([]),
});
export type OrderStatusUpdate = z.infer<typeof orderStatusUpdateSchema>;

export const orderStatusPageSchema = z.object({ updates: z.array(orderStatusUpdateSchema).max(1_000), cursor: z.string().max(1_000).nullable() });
export type OrderStatusPage = z.infer<typeof orderStatusPageSchema>;

export interface OrderStatusFeed {
  /** Names the feed's cursor in the database, and the actor of what it records. */
  readonly name: string;
  /** The updates after the cursor (from the start with null). Rejects when the feed cannot be read. */
  read(after: string | null, signal?: AbortSignal): Promise<OrderStatusPage>;
}

export function httpOrderStatusFeed(options: { url: string; token?: string | undefined; timeoutMs?: number }): OrderStatusFeed {
  return {
    name: 'http',
    async read(after, signal) {
      const url = new URL(options.url);
      if (after !== null) url.searchParams.set('after', after);
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
      const response = await fetch(url, {
        headers: { accept: 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        redirect: 'error',
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new Error(`The order status feed answered ${response.status}`);
      }
      const parsed = orderStatusPageSchema.safeParse(await response.json().catch(() => null));
      if (!parsed.success) throw new Error(`The order status feed's answer is not its format: ${parsed.error.issues[0]?.message ?? 'unreadable'}`);
      return parsed.data;
    },
  };
}
