import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { AppError } from '../../contracts/errors.ts';
import type { Clock, IdGenerator } from '../../infra/clock/clock.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { EventStore } from '../../infra/event-store/types.ts';
import type { OrderStatusFeed } from '../../infra/provider/order-status-feed.ts';
import { advanceOrder } from './advance-order.ts';

// The grading provider's order status feed read and applied (issue 33): each update moves its order on exactly as the
// operator command does for the built-in provider (AdvanceOrder; reaching graded records the card's professional
// grade), at the time the provider reports. The cursor is kept in the database after each page, so an update is
// applied once whichever process reads the feed next; an update that cannot apply (an order we do not know, a status
// that would go back) is logged and passed over, since reading it again would change nothing.

export interface SyncOrderStatusesDeps {
  db: Kysely<Tables>;
  store: EventStore;
  feed: OrderStatusFeed;
  clock: Clock;
  ids: IdGenerator;
  logger: Pick<Logger, 'warn' | 'info'>;
}

/** Pages read in one run at most; the next run goes on from there. */
const MAX_PAGES = 20;

export async function syncOrderStatuses(deps: SyncOrderStatusesDeps, signal?: AbortSignal): Promise<{ applied: number; passedOver: number; gradesReported: number }> {
  const { db, store, feed } = deps;
  const feedName = `order-status:${feed.name}`;
  const totals = { applied: 0, passedOver: 0, gradesReported: 0 };
  let cursor = (await db.selectFrom('provider_feed_cursors').select('cursor').where('feed', '=', feedName).executeTakeFirst())?.cursor ?? null;
  for (let page = 0; page < MAX_PAGES && !signal?.aborted; page++) {
    const { updates, cursor: next } = await feed.read(cursor, signal);
    for (const update of updates) {
      const metadata = { actor: { kind: 'system' as const, id: `provider:${feed.name}` }, commandId: deps.ids.uuid(), timestamp: new Date(update.at).toISOString() };
      const grades = update.grades.map((g) => ({ cardId: g.card_id, company: g.company, grade: g.grade, cert: g.cert }));
      try {
        const { changed, gradesReported } = await advanceOrder({ store, metadata }, { store }, { orderId: update.reference, status: update.status, grades });
        if (changed) totals.applied++;
        totals.gradesReported += gradesReported;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        totals.passedOver++;
        deps.logger.warn({ reference: update.reference, status: update.status, code: error.code }, `order status update passed over: ${error.message}`);
      }
    }
    if (next === null || next === cursor) break;
    const at = deps.clock.now().toISOString();
    await db
      .insertInto('provider_feed_cursors')
      .values({ feed: feedName, cursor: next, updated_at: at })
      .onConflict((c) => c.column('feed').doUpdateSet({ cursor: next, updated_at: at }))
      .execute();
    cursor = next;
    if (updates.length === 0) break;
  }
  return totals;
}
