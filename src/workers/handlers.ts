import { syncOrderStatuses } from '../commands/orders/sync-order-statuses.ts';
import { anyPriceSource } from '../commands/prices/price-catalog-card.ts';
import { refreshPrices } from '../commands/prices/refresh-prices.ts';
import { httpOrderStatusFeed } from '../infra/provider/order-status-feed.ts';
import { shippedCatalog } from '../infra/catalog/index.ts';
import type { JobHandler, ProcessOptions } from '../infra/queue/index.ts';
import type { Services } from '../runtime.ts';
import { IMPORT_ROW_JOB, type ImportRowJob } from './imports/import-row.ts';
import { createRegradeJobHandler, measureGradeWith, REGRADE_CARD_JOB, type RegradeCardJob } from './regrade/regrade-job.ts';

// THE registry of job handlers. Add yours with one import and one line in the list below:
// `defineJob('analyze-import-row', (job) => analyzeImportRow(services, job), { concurrency: 50, onFailed })`.
// The API process runs them in embedded mode (in-process queue); `npm run worker` runs them in service mode.

export interface JobRegistration {
  name: string;
  handler: JobHandler<never>;
  options?: ProcessOptions<never>;
}

/** Keeps a handler's data type checked against its options while the list holds many data types. */
export function defineJob<Data>(name: string, handler: JobHandler<Data>, options?: ProcessOptions<Data>): JobRegistration {
  return { name, handler, options } as unknown as JobRegistration;
}

/** The daily price refresh (scheduled by the API process, src/runtime.ts). */
export const REFRESH_PRICES_JOB = 'refresh-prices';
/** The grading provider's order status feed read (scheduled by the API process when ORDER_STATUS_FEED_URL is set). */
export const SYNC_ORDER_STATUSES_JOB = 'sync-order-statuses';

export function jobRegistrations(services: Services): JobRegistration[] {
  const { config } = services;
  const regrade = createRegradeJobHandler({
    db: services.database.db,
    store: services.eventStore,
    imageStore: services.imageStore,
    measure: measureGradeWith({ cpuPool: services.cpuPool, maxPixels: config.IMAGE_MAX_PIXELS }),
    clock: services.clock,
  });
  const feedUrl = config.ORDER_STATUS_FEED_URL;
  const orderStatuses = feedUrl
    ? [
        defineJob(SYNC_ORDER_STATUSES_JOB, async (job) => {
          const { database, eventStore, clock, ids, logger } = services;
          const feed = httpOrderStatusFeed({ url: feedUrl, token: config.ORDER_STATUS_FEED_TOKEN });
          const synced = await syncOrderStatuses({ db: database.db, store: eventStore, feed, clock, ids, logger }, job.signal);
          if (synced.applied + synced.passedOver > 0) logger.info(synced, 'order statuses from the provider applied');
        }),
      ]
    : [];
  return [
    ...orderStatuses,
    defineJob<ImportRowJob>(IMPORT_ROW_JOB, (job) => services.importRows.handle(job), { concurrency: config.IMPORT_CONCURRENCY, lockDurationMs: config.IMPORT_JOB_LOCK_MS }),
    // `npm run regrade` in the service mode: workers share its cards (it works on them itself too).
    defineJob<RegradeCardJob>(REGRADE_CARD_JOB, async (job) => void (await regrade.handle(job)), { concurrency: config.CPU_POOL_SIZE, onFailed: regrade.onFailed }),
    defineJob(REFRESH_PRICES_JOB, async (job) => {
      if (!anyPriceSource(services)) return;
      const { database, eventStore, prices, gradedPrices, clock, ids, logger } = services;
      await refreshPrices({ database, eventStore, prices, gradedPrices, catalog: shippedCatalog(), clock, ids, logger }, job.signal);
    }),
  ];
}
