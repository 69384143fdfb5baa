import { pino, type DestinationStream, type Logger } from 'pino';
import { createAccounts, type Accounts } from './infra/auth/accounts.ts';
import sharp from 'sharp';
import { renameEmailUsernames } from './commands/accounts/rename-email-usernames.ts';
import { createCardIds, type CardIds } from './commands/cards/card-ids.ts';
import type { GradePhotos } from './commands/cards/grade-card.ts';
import type { Config } from './config.ts';
import { randomIds, systemClock, type Clock, type IdGenerator } from './infra/clock/clock.ts';
import { createCpuPool, type CpuPool } from './infra/cpu-pool/index.ts';
import { openDatabase, type Database } from './infra/database/index.ts';
import { createEventStore, type EventStore } from './infra/event-store/index.ts';
import { shippedCatalog } from './infra/catalog/index.ts';
import { createCardIdentifier } from './infra/identification/index.ts';
import { createSlabLabelReader } from './infra/identification/slab-label-reader.ts';
import { anyPriceSource } from './commands/prices/price-catalog-card.ts';
import { createGradedPriceSource, createPriceSource, withMarketPrice, type GradedPriceSource, type PriceSource } from './infra/prices/index.ts';
import { openImageFetcher, type ImageFetcher } from './infra/image-fetch/index.ts';
import { imageStoreWarning, openImageStore, type ImageStore } from './infra/image-storage/index.ts';
import { countedEventStore, countedImageFetcher, observeGradingStage, timedJobHandler } from './infra/metrics/metrics.ts';
import { createPaymentProcessor } from './infra/payments/index.ts';
import type { PaymentProcessor } from './infra/payments/types.ts';
import { openMailer, type Mailer } from './infra/mail/mailer.ts';
import { createJobQueue, type JobQueue } from './infra/queue/index.ts';
import { asyncProjections, inlineProjections } from './projections/index.ts';
import { createProgressPublisher, type ProgressPublisher } from './projections/imports/progress-channel.ts';
import { dropAbandonedRebuilds, startProjectionRunners } from './projections/runner/index.ts';
import { gradingEngineVersion } from './workers/engine-version.ts';
import { gradeCard } from './workers/grading/index.ts';
import { jobRegistrations, REFRESH_PRICES_JOB, SYNC_ORDER_STATUSES_JOB } from './workers/handlers.ts';
import { createImportRowHandler, type ImportRowHandler } from './workers/imports/import-row.ts';

// The composition root: from a Config, every long-lived piece of a process, opened in order and
// closed in reverse. The HTTP server (src/main.ts) and the queue workers (src/workers/main.ts) both start here.

/** What request handlers, job handlers and commands are given. */
export interface Services {
  config: Config;
  logger: Logger;
  clock: Clock;
  ids: IdGenerator;
  database: Database;
  eventStore: EventStore;
  queue: JobQueue;
  cpuPool: CpuPool;
  /** Photos, stored once by content hash: DATA_DIR/images, or the bucket of IMAGE_STORE=s3://… */
  imageStore: ImageStore;
  /** Downloads image URLs without reaching inside our network (DESIGN.md §5); one per process, for its concurrency limit. */
  imageFetcher: ImageFetcher;
  /** The grading service: photos in, graded card and annotated pictures out (CPU pool, identifier). */
  gradePhotos: GradePhotos;
  /** Signs card ids with the server secret kept in the database. */
  cardIds: CardIds;
  /** The account provider and the sign-in rate limits; built once, shared by every route. */
  accounts: Accounts;
  /** Mail out (password reset links): SMTP_URL's server, or the log and DATA_DIR's outbox. */
  mailer: Mailer;
  /** Card payments for orders: the built-in test mode, or a processor's API. */
  payments: PaymentProcessor;
  /** Market prices by catalogue id (PRICE_SOURCE): the Pokémon TCG API, or none. */
  prices: PriceSource;
  /** Per-grade prices for "Is it worth grading?" (PRICECHARTING_TOKEN): PriceCharting's API, or none. */
  gradedPrices: GradedPriceSource;
  /** Publishes bulk imports' live progress to every API process (throttled per import). */
  importProgress: ProgressPublisher;
  /** Bulk-import rows as jobs: enqueue them, and at start-up resume what a crash or deploy left. */
  importRows: ImportRowHandler;
}

export interface Runtime extends Services {
  /** Job names this process handles (none in an API process of the service mode). */
  readonly handledJobs: readonly string[];
  /** Stops everything within `timeoutMs` (default SHUTDOWN_TIMEOUT_MS): jobs first, the database last. */
  close(timeoutMs?: number): Promise<void>;
}

export interface RuntimeOptions {
  /**
   * api: the HTTP server's process; runs the async projections, and the job handlers too when the
   * queue is in-process. worker: `npm run worker`, job handlers only (service mode).
   */
  role: 'api' | 'worker';
  logger?: Logger;
  clock?: Clock;
  ids?: IdGenerator;
  /** An open, migrated database to use instead of the configured one (tests); the caller closes it. */
  database?: Database;
}

/** `destination`: where the lines go (stdout by default; tests read them back). */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.LOG_LEVEL,
    // Never log what identifies or pays: cookies, credentials, card numbers.
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.password_confirmation', '*.cardNumber', '*.cvv'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export async function createRuntime(config: Config, options: RuntimeOptions): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config);
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  // sharp's cache would hold decoded images nobody asks for twice; memory goes to the work instead.
  sharp.cache(false);

  // Each opened piece adds its closer here, so a failure half-way closes what was opened.
  const closers: { name: string; close: (timeoutMs: number) => Promise<void> }[] = [];
  async function closeAll(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const { name, close } of closers.splice(0).reverse()) {
      try {
        await close(Math.max(100, deadline - Date.now()));
      } catch (error) {
        logger.error({ err: error, piece: name }, 'error while closing');
      }
    }
  }

  try {
    const database = options.database ?? (await openDatabase(config));
    if (!options.database) closers.push({ name: 'database', close: () => database.close() });

    const eventStore = countedEventStore(createEventStore(database, { inline: inlineProjections, clock, ids }));

    const cpuPool = createCpuPool({ size: config.CPU_POOL_SIZE });
    closers.push({ name: 'cpu pool', close: () => cpuPool.close() });

    const prices = createPriceSource(config, {
      now: () => clock.now().getTime(),
      onLookup: (catalogId, lookup, cached) => {
        if (!lookup.ok && !cached) logger.warn({ catalogId, reason: lookup.reason }, 'no market price');
      },
    });
    const gradedPrices = createGradedPriceSource(config, () => clock.now().getTime());
    const readCard = createCardIdentifier(config, (reason) => logger.warn({ reason }, 'vision model unavailable; card identified by OCR'));
    const identifier = prices.name === 'none' ? readCard : withMarketPrice(readCard, prices, shippedCatalog());
    closers.push({ name: 'card identifier', close: () => identifier.close() });
    const labelReader = createSlabLabelReader({ onError: (error) => logger.warn({ err: error }, 'slab label not read; card graded as raw') });
    closers.push({ name: 'slab label reader', close: () => labelReader.close() });
    const gradePhotos: GradePhotos = async (photos) => {
      const [graded, engine] = await Promise.all([gradeCard(photos, { cpuPool, identifier, labelReader, maxPixels: config.IMAGE_MAX_PIXELS, observeStage: observeGradingStage }), gradingEngineVersion()]);
      return { ...graded, engine };
    };
    const imageStore = openImageStore(config);
    if (imageStore.close) closers.push({ name: 'image store', close: async () => imageStore.close?.() });
    const imageWarning = imageStoreWarning(config);
    if (imageWarning) logger.warn({ imageStore: imageStore.location }, imageWarning);
    const imageFetcher = countedImageFetcher(openImageFetcher(config));
    const cardIds = createCardIds(database.db);
    const accounts = createAccounts({ config, logger, database, eventStore, clock, ids });
    closers.push({ name: 'accounts', close: () => accounts.close() });
    const mailer = openMailer(config, logger, clock);
    closers.push({ name: 'mailer', close: () => mailer.close() });

    if (options.role === 'api') {
      const renamed = await renameEmailUsernames(eventStore, () => ({ actor: { kind: 'system', id: 'usernames' }, commandId: ids.uuid(), timestamp: clock.now().toISOString() }), database.db);
      if (renamed > 0) logger.info({ renamed }, 'accounts named after their email renamed from their own names');
      // A rebuild cut off half-way (its process died) leaves a scratch schema; the next start clears it.
      const abandoned = await dropAbandonedRebuilds(database.db);
      if (abandoned.length > 0) logger.warn({ schemas: abandoned }, 'dropped what rebuilds cut off half-way left behind');
      const stopRunners = await startProjectionRunners(database, eventStore, asyncProjections, { logger });
      closers.push({ name: 'projection runners', close: () => stopRunners() });
    }

    const queue = createJobQueue(config, logger);
    // The queue gets the shutdown budget but a second, which is left for the pieces after it.
    closers.push({ name: 'job queue', close: (timeoutMs) => queue.close(Math.max(100, timeoutMs - 1_000)) });

    const payments = createPaymentProcessor(config, clock);
    const importProgress = createProgressPublisher(database, { onError: (error) => logger.warn({ err: error }, 'import progress not published') });
    closers.push({ name: 'import progress', close: () => importProgress.flush() });
    const services = { config, logger, clock, ids, database, eventStore, queue, cpuPool, imageStore, imageFetcher, gradePhotos, cardIds, accounts, mailer, payments, importProgress, prices, gradedPrices } as Services;
    services.importRows = createImportRowHandler(services);
    const handlesJobs = options.role === 'worker' || queue.kind === 'in-process';
    const registrations = handlesJobs ? jobRegistrations(services) : [];
    for (const registration of registrations) queue.process(registration.name, timedJobHandler(registration.name, registration.handler), registration.options);
    // Rows a crash or a deploy left without an outcome are worked on again (their job ids keep the queue from
    // holding any twice).
    await services.importRows.resume().catch((error: unknown) => logger.error({ err: error }, 'import rows not resumed'));
    if (handlesJobs) {
      // And every so often: a row whose job the queue gave up on (a BullMQ job stalled too often while its worker was
      // starved) is enqueued again, so an import never waits for the next restart.
      const sweep = setInterval(() => void services.importRows.resume({ quiet: true }).catch((error: unknown) => logger.warn({ err: error }, 'import sweep failed')), config.IMPORT_SWEEP_MS);
      sweep.unref();
      closers.push({ name: 'import sweep', close: async () => clearInterval(sweep) });
    }
    // Every identified card priced again once a day (PRICE_REFRESH_HOURS): a BullMQ job scheduler in the service
    // mode (one job per day, whichever worker takes it), a timer in the embedded mode.
    if (options.role === 'api' && anyPriceSource({ prices, gradedPrices }) && config.PRICE_REFRESH_HOURS > 0) {
      const everyMs = Math.round(config.PRICE_REFRESH_HOURS * 3_600_000);
      await queue.repeat(REFRESH_PRICES_JOB, {}, { schedulerId: REFRESH_PRICES_JOB, everyMs }).catch((error: unknown) => logger.warn({ err: error }, 'daily price refresh not scheduled'));
    }

    // Orders at an external grading provider move on as its status feed says, read every ORDER_STATUS_POLL_MS (one
    // read at a time whichever process takes it). Without a feed, the built-in provider's orders move by operator.
    if (options.role === 'api' && config.ORDER_STATUS_FEED_URL) {
      await queue
        .repeat(SYNC_ORDER_STATUSES_JOB, {}, { schedulerId: SYNC_ORDER_STATUSES_JOB, everyMs: config.ORDER_STATUS_POLL_MS })
        .catch((error: unknown) => logger.warn({ err: error }, 'order status feed not scheduled'));
    }

    logger.info(
      { database: database.kind, queue: queue.kind, imageStore: imageStore.location, cpuThreads: cpuPool.size, jobs: registrations.map((r) => r.name) },
      `${options.role} runtime ready`,
    );
    return {
      ...services,
      handledJobs: registrations.map((r) => r.name),
      close: (timeoutMs = config.SHUTDOWN_TIMEOUT_MS) => closeAll(timeoutMs),
    };
  } catch (error) {
    await closeAll(config.SHUTDOWN_TIMEOUT_MS);
    throw error;
  }
}
