import { sql } from 'kysely';
import type { CardPhoto, GradeCardDeps } from '../../commands/cards/grade-card.ts';
import { gradeAndSaveCard } from '../../commands/cards/save-card.ts';
import { completeImport, recordRowOutcome } from '../../commands/imports/manage-import.ts';
import { addPortfolioCard } from '../../commands/portfolio/add-portfolio-card.ts';
import { portfolioCardStream } from '../../commands/portfolio/streams.ts';
import { AppError } from '../../contracts/errors.ts';
import type { Owner } from '../../domain/accounts/identity.ts';
import type { ImportRowEvent } from '../../domain/imports/index.ts';
import { portfolioEntryOfGradedCard } from '../../domain/portfolio/index.ts';
import { callerLimitKey, waitInWords } from '../../infra/auth/rate-limiter.ts';
import { createLimiter } from '../../infra/concurrency/limiter.ts';
import type { EventMetadata } from '../../infra/event-store/types.ts';
import type { Job } from '../../infra/queue/index.ts';
import { findCard, gradedCardPictures } from '../../projections/cards/queries.ts';
import { finishedButOpenImports, importState, pendingRows, type PendingRow } from '../../projections/imports/queries.ts';
import type { Services } from '../../runtime.ts';
import { createOutageWaiter, serviceDownIn } from './service-outages.ts';

// One row of a bulk import, as one job with the id `<importId>:<row>` (DESIGN.md §5): download its photos through the
// image fetcher (its concurrency limit and address rules), grade them with the grading service (pixel work in the CPU
// pool), and record the outcome: the card in the collection and the portfolio, a duplicate, or a failure with its
// reason. Work that is done is found again, never repeated: the card's id comes from its photos, the portfolio card's
// id was drawn when the import started, and a row's outcome is recorded once (its own stream). So a row worked on
// twice (a worker killed after the work, before the job was marked done) ends with the one outcome it had.

export const IMPORT_ROW_JOB = 'import-row';

export type ImportRowJob = PendingRow;

export const importRowJobId = (row: Pick<PendingRow, 'importId' | 'row' | 'generation'>) =>
  row.generation === 0 ? `${row.importId}:${row.row}` : `${row.importId}:${row.row}:retry-${row.generation}`;

/** Network trouble is worth another try; a refused address, a page that is not an image or a photo the engine refuses is not. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof AppError)) return true;
  switch (error.code) {
    case 'image_download_timeout':
    case 'image_download_failed':
    case 'image_url_unresolvable':
    case 'server_busy':
      return true;
    case 'image_download_http_error': {
      const status = Number(/HTTP (\d{3})/.exec(error.message)?.[1] ?? 0);
      return status >= 500 || status === 408 || status === 429;
    }
    default:
      return false;
  }
}

export interface ImportRowHandler {
  handle(job: Job<ImportRowJob>): Promise<void>;
  /** Enqueues these rows (one job each; an id the queue still holds is not enqueued twice). */
  enqueue(rows: readonly PendingRow[]): Promise<void>;
  /**
   * Start-up (and a periodic sweep): completes imports whose rows all have outcomes, and enqueues every row still
   * without one (a job the queue still holds is not enqueued twice).
   */
  resume(options?: { quiet?: boolean }): Promise<number>;
}

export function createImportRowHandler(services: Services): ImportRowHandler {
  const { database, eventStore: store, clock, imageFetcher, queue, config, logger, importProgress } = services;
  const { db } = database;
  const gradeDeps: GradeCardDeps = { store, imageStore: services.imageStore, cardIds: services.cardIds, gradePhotos: services.gradePhotos };
  // A row whose work meets one of our own services down waits for it here, then is worked on again (issue 34).
  const outages = createOutageWaiter({
    probes: { images: () => services.imageStore.ping(), database: () => sql`select 1`.execute(db), queue: () => queue.ping() },
  });
  // Grading waits here, so the CPU pool's queue never overflows. Rows download their photos only a little ahead of
  // grading (four rows per grading slot; the fetcher's own limit of 50 bounds every download of the process): enough
  // that a slot never waits for a download (100 ms against most of a second of grading) and that a few dead hosts
  // (a 2 s timeout each) do not stall it, few enough that the photos of all the rows the queue runs at once
  // (IMPORT_CONCURRENCY, 50) do not sit in memory waiting for a slot (50 rows of 12-MP phone photos, front and
  // back: several hundred MB).
  const gradingSlots = Math.max(2, services.cpuPool.size * 2);
  const grading = createLimiter(gradingSlots);
  const downloadedAhead = createLimiter(gradingSlots * 4);

  // A row the engine grades counts against its owner's daily grading limit, as a card graded on the grade screen does
  // (same counter, shared by every process through Redis). Only the day's window: the minute's is for bursts of
  // requests, and the queue paces an import. Counted just before the engine runs, so a duplicate, a refused URL or a
  // failed download costs nothing. A row over the limit fails with the limit's message; retrying the failed rows
  // the next day grades them.
  const { rateLimiter, limits } = services.accounts;
  async function countDailyGrading(owner: Owner): Promise<void> {
    const rule = limits.gradingUserPerDay;
    const { allowed, retryAfterMs } = await rateLimiter.hit(callerLimitKey('grade', { userId: owner.slice('user:'.length) }, rule), rule);
    if (allowed) return;
    throw new AppError('rate_limited', 'grading_rate_limited', `You have reached your daily grading limit of ${rule.max} cards, so this card was not graded. Retry the failed rows in ${waitInWords(retryAfterMs)}.`);
  }

  function metadataOf(row: PendingRow): EventMetadata {
    return {
      actor: { kind: 'user', id: row.owner.slice('user:'.length) },
      commandId: `import-row:${row.importId}:${row.row}:${row.generation}`,
      timestamp: clock.now().toISOString(),
    };
  }

  async function fetchPhoto(url: string, side: 'Front' | 'Back'): Promise<CardPhoto> {
    try {
      return { bytes: (await imageFetcher.fetchImage(url)).bytes, sourceUrl: url };
    } catch (error) {
      if (error instanceof AppError) throw new AppError(error.kind, error.code, `${side} image: ${error.message}`, error.details);
      throw error;
    }
  }

  /** Grades the row into the collection and the portfolio; the outcome to record. */
  async function work(row: PendingRow, metadata: EventMetadata, base: Omit<ImportRowEvent['data'], 'processingMs'>, started: number, attempt: { counted: boolean }): Promise<ImportRowEvent> {
    const elapsed = () => Math.round(performance.now() - started);
    const owner = row.owner as Owner;
    // Graded and saved (grading is not saving, issue 18): a card graded earlier but never saved is imported now.
    // Counted once however often an outage makes the row grade again: the owner graded one card.
    const counted: GradeCardDeps = {
      ...gradeDeps,
      gradePhotos: async (photos) => {
        if (!attempt.counted) await countDailyGrading(owner);
        attempt.counted = true;
        return gradeDeps.gradePhotos(photos);
      },
    };
    const graded = await downloadedAhead(async () => {
      const [front, back] = await Promise.all([fetchPhoto(row.frontImageUrl!, 'Front'), row.backImageUrl ? fetchPhoto(row.backImageUrl, 'Back') : null]);
      return grading(() => gradeAndSaveCard(counted, { owner, cardType: 'pokemon', front, back, metadata, comcId: row.itemId }));
    });
    // The row that put the card in the collection imported it (a retried row finds its own save). Any other row of
    // the same photos is a duplicate: the collection had the card already, or another row of this file (the same
    // image at another address, worked on at the same time) saved it first, even if this row's grading recorded it.
    if (graded.savedByCommand !== metadata.commandId) {
      return { type: 'ImportRowDuplicate', data: { ...base, cardId: graded.cardId, reason: 'This card is already in your collection.', processingMs: elapsed() } };
    }
    const card = await findCard(db, graded.cardId);
    if (!card) throw new Error(`card ${graded.cardId} graded but not in the collection`);
    const { events: existing } = await store.readStream(portfolioCardStream(row.portfolioCardId).streamId);
    if (existing.length === 0) {
      // The images the collection shows (a HEIC's JPEG copy, not the file itself).
      const body = portfolioEntryOfGradedCard(card.result, gradedCardPictures(card), row.itemId ? `Item ID: ${row.itemId}` : null);
      await addPortfolioCard({ store, db, metadata }, { owner, body, cardId: row.portfolioCardId, gradedCardId: graded.cardId });
    }
    return { type: 'ImportRowGraded', data: { ...base, cardId: graded.cardId, portfolioCardId: row.portfolioCardId, cardName: card.card_name, processingMs: elapsed() } };
  }

  async function finish(importId: string): Promise<void> {
    const state = await importState(db, importId);
    if (state && state.status === 'processing' && state.processed_cards >= state.total_cards) {
      importProgress.publish(importId, { now: true });
      await completeImport({ store, metadata: { actor: { kind: 'system', id: 'imports' }, commandId: `import-complete:${importId}:${state.generation}`, timestamp: clock.now().toISOString() } }, importId);
      importProgress.publish(importId, { now: true });
    } else {
      importProgress.publish(importId);
    }
  }

  /**
   * Works on the row; while one of our services is down (the image store, the database, the queue), waits until it
   * answers and works on the row again, up to IMPORT_OUTAGE_WAIT_MS from the first outage. Past that the row's
   * error stands as any other (a row failed with the store's message, or the job handed to the queue's retries).
   */
  async function handle(job: Job<ImportRowJob>): Promise<void> {
    const outage = { deadline: Number.POSITIVE_INFINITY, counted: false };
    for (;;) {
      try {
        return await handleOnce(job, outage);
      } catch (error) {
        const service = serviceDownIn(error);
        if (!service || job.signal.aborted) throw error;
        if (outage.deadline === Number.POSITIVE_INFINITY) outage.deadline = Date.now() + config.IMPORT_OUTAGE_WAIT_MS;
        logger.warn({ importId: job.data.importId, row: job.data.row, service }, 'import row waits for a service that is down');
        if (!(await outages.untilBack(service, outage.deadline, job.signal))) {
          // Shutting down: the job goes back to the queue, the row keeps no outcome.
          if (job.signal.aborted) throw error;
          // The bound has passed: one more try, whose error (the service's message) is the row's outcome.
          outage.deadline = 0;
          return await handleOnce(job, outage);
        }
      }
    }
  }

  async function handleOnce(job: Job<ImportRowJob>, outage: { deadline: number; counted: boolean }): Promise<void> {
    const row = job.data;
    const started = performance.now();
    const state = await importState(db, row.importId);
    // Deleted, cancelled, or a later pass over the failed rows owns the row now.
    if (!state || state.status !== 'processing' || state.generation !== row.generation) return;
    const metadata = metadataOf(row);
    const base = { importId: row.importId, owner: row.owner as Owner, row: row.row, generation: row.generation, at: metadata.timestamp };

    let outcome: ImportRowEvent;
    if (row.problem !== null || row.frontImageUrl === null) {
      outcome = { type: 'ImportRowFailed', data: { ...base, code: 'import_row_invalid', reason: row.problem ?? 'FrontImage is missing.', processingMs: 0 } };
    } else if (row.duplicateOf !== null) {
      outcome = { type: 'ImportRowDuplicate', data: { ...base, cardId: null, reason: `The same images as row ${row.duplicateOf} of this file.`, processingMs: 0 } };
    } else {
      try {
        outcome = await work(row, metadata, base, started, outage);
      } catch (error) {
        if (job.signal.aborted) throw error;
        // Not the row's fault: handle() waits for the service, unless the wait's bound has passed.
        if (serviceDownIn(error) && Date.now() < outage.deadline) throw error;
        if (isTransient(error) && job.attempt < job.maxAttempts) throw error;
        const reason = error instanceof AppError ? error.message : 'The card could not be processed.';
        if (!(error instanceof AppError)) logger.error({ err: error, importId: row.importId, row: row.row }, 'import row failed');
        outcome = { type: 'ImportRowFailed', data: { ...base, code: error instanceof AppError ? error.code : 'import_row_error', reason, processingMs: Math.round(performance.now() - started) } };
      }
    }
    outcome.data.at = clock.now().toISOString();
    await recordRowOutcome({ store, metadata: { ...metadata, timestamp: outcome.data.at } }, outcome);
    await finish(row.importId);
  }

  async function enqueue(rows: readonly PendingRow[]): Promise<void> {
    const options = (row: PendingRow) => ({
      jobId: importRowJobId(row),
      attempts: config.IMPORT_ROW_ATTEMPTS,
      backoff: { delayMs: config.IMPORT_RETRY_DELAY_MS, jitter: 0.5 },
    });
    const BATCH = 200;
    for (let from = 0; from < rows.length; from += BATCH) {
      await Promise.all(rows.slice(from, from + BATCH).map((row) => queue.enqueue<ImportRowJob>(IMPORT_ROW_JOB, row, options(row))));
    }
  }

  async function resume({ quiet = false } = {}): Promise<number> {
    for (const importId of await finishedButOpenImports(db)) await finish(importId);
    const rows = await pendingRows(db);
    await enqueue(rows);
    if (rows.length > 0 && !quiet) logger.info({ rows: rows.length }, 'import rows without an outcome enqueued again');
    return rows.length;
  }

  return { handle, enqueue, resume };
}
