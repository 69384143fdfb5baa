import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Database } from '../../infra/database/database.ts';
import { EVENTS_CHANNEL } from '../../infra/event-store/event-store.ts';
import { checkpointOf, type AsyncProjection, type EventStore, type RecordedEvent } from '../../infra/event-store/types.ts';
import { ensureParkedTable, parkEvent } from './parked.ts';
import { advanceCheckpoint, claimForBatch, ensureSubscription, markFailed, releaseLeases } from './subscriptions.ts';

export interface ProjectionRunnerOptions {
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Who holds the leases; unique per process by default. */
  owner?: string;
  /** Events per transaction. */
  batchSize?: number;
  /** How often an idle runner looks for work without a notification, and tries to take over a lapsed lease. */
  pollIntervalMs?: number;
  /** How long a lease lasts without renewal; a runner renews it at every poll. */
  leaseMs?: number;
}

/** A projection threw: the batch rolled back and the subscription stops until `reset-failed`. */
class ProjectionFailed extends Error {
  constructor(projection: string, events: readonly RecordedEvent[], cause: unknown) {
    const [first, last] = [events[0]!, events.at(-1)!];
    const where =
      events.length === 1
        ? ` at ${first.type} #${first.globalPosition} (stream ${first.streamId})`
        : ` in a batch of ${events.length} events, #${first.globalPosition} to #${last.globalPosition}`;
    super(`${projection} failed${where}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ProjectionFailed';
  }
}

/**
 * Runs each async projection behind the log: one owner per subscription (a lease in es_subscriptions), each batch
 * applied and checkpointed in one transaction, woken by the append's notification and by a poll.
 * Returns the function that stops the runners and gives up their leases (call it at shutdown).
 */
export async function startProjectionRunners(
  database: Database,
  store: EventStore,
  projections: readonly AsyncProjection[],
  options: ProjectionRunnerOptions = {},
): Promise<() => Promise<void>> {
  const owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const batchSize = options.batchSize ?? 500;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const leaseMs = options.leaseMs ?? 30_000;
  const logger = options.logger;
  const { db } = database;

  for (const projection of projections) await ensureSubscription(db, projection.name);
  if (projections.some((p) => p.onPoison === 'park')) await ensureParkedTable(db);

  let stopped = false;
  const signals = projections.map(() => new WakeSignal());
  const wakeAll = () => signals.forEach((signal) => signal.wake());
  // The notification names the event types appended (empty: any): a runner is woken only for types it handles.
  const handled = projections.map((projection) => new Set(projection.handles));
  const onNotification = (payload: string) => {
    if (payload === '') return wakeAll();
    const types = payload.split(',');
    signals.forEach((signal, index) => {
      if (types.some((type) => handled[index]!.has(type))) signal.wake();
    });
  };
  const unlisten = projections.length > 0 ? await database.listen(EVENTS_CHANNEL, onNotification) : async () => {};

  /** One transaction: claim the subscription, read past its checkpoint, apply, advance. Returns events applied. */
  async function runBatch(projection: AsyncProjection, size = batchSize): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const checkpoint = await claimForBatch(trx, projection.name, owner, leaseMs);
      if (!checkpoint) return 0;
      const events = await store.readAll(checkpoint, size, { types: projection.handles, trx });
      if (events.length === 0) return 0;
      try {
        await projection.apply(trx, events);
      } catch (error) {
        throw new ProjectionFailed(projection.name, events, error);
      }
      await advanceCheckpoint(trx, projection.name, checkpointOf(events.at(-1)!));
      return events.length;
    });
  }

  /**
   * After a failed batch of a parking projection: the batch's events one at a time, so those before the poison one
   * are applied; the poison one is parked with its error and the checkpoint moves past it. Returns events handled.
   */
  async function parkPoison(projection: AsyncProjection): Promise<number> {
    let handled = 0;
    while (!stopped && handled < batchSize) {
      try {
        const applied = await runBatch(projection, 1);
        if (applied === 0) return handled;
        handled += applied;
      } catch (error) {
        if (!(error instanceof ProjectionFailed)) throw error;
        const parked = await db.transaction().execute(async (trx) => {
          const checkpoint = await claimForBatch(trx, projection.name, owner, leaseMs);
          if (!checkpoint) return false;
          const [event] = await store.readAll(checkpoint, 1, { types: projection.handles, trx });
          if (!event) return false;
          await parkEvent(trx, projection.name, event, error.cause);
          await advanceCheckpoint(trx, projection.name, checkpointOf(event));
          return true;
        });
        if (!parked) return handled;
        logger?.error({ projection: projection.name, err: error.cause }, `${error.message}; the event is parked and the projection goes on`);
        return handled + 1;
      }
    }
    return handled;
  }

  async function run(projection: AsyncProjection, signal: WakeSignal): Promise<void> {
    while (!stopped) {
      signal.clear();
      let applied = 0;
      try {
        applied = await runBatch(projection);
      } catch (error) {
        if (error instanceof ProjectionFailed && projection.onPoison === 'park') {
          applied = await parkPoison(projection).catch((parkError: unknown) => {
            logger?.warn({ projection: projection.name, err: parkError }, 'could not park the poison event; retrying');
            return 0;
          });
          // Parked and moved on: straight to the next batch.
          if (applied > 0) continue;
        } else if (error instanceof ProjectionFailed) {
          logger?.error({ projection: projection.name, err: error.cause }, 'projection failed; its subscription is stopped');
          await markFailed(db, projection.name, error.message).catch((markError: unknown) =>
            logger?.error({ projection: projection.name, err: markError }, 'could not record the projection failure'),
          );
        } else {
          // The database, not the projection: try again at the next poll.
          logger?.warn({ projection: projection.name, err: error }, 'projection batch failed; retrying');
        }
      }
      if (applied < batchSize && !stopped) await signal.wait(pollIntervalMs);
    }
  }

  const loops = projections.map((projection, index) => run(projection, signals[index]!));
  logger?.info({ owner, projections: projections.map((p) => p.name) }, 'projection runners started');

  return async function stop() {
    if (stopped) return;
    stopped = true;
    wakeAll();
    await Promise.all(loops);
    await unlisten();
    await releaseLeases(db, owner);
  };
}

/** Wakes a waiting runner; a wake that comes while it is busy is kept, so it looks again at once. */
class WakeSignal {
  private woken = false;
  private resolve: (() => void) | undefined;

  wake(): void {
    this.woken = true;
    this.resolve?.();
  }

  clear(): void {
    this.woken = false;
  }

  wait(ms: number): Promise<void> {
    if (this.woken) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.resolve?.(), ms);
      this.resolve = () => {
        clearTimeout(timer);
        this.resolve = undefined;
        resolve();
      };
    });
  }
}
