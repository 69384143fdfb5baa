import type { Transaction } from 'kysely';
import { AppError } from '../../contracts/errors.ts';
import type { Tables } from '../database/schema.ts';

// The event store's public shape (DESIGN.md §3). Implementation: ./event-store.ts.

/** Who did it and why: on every event. */
export interface EventMetadata {
  actor: { kind: 'user' | 'guest' | 'system'; id: string };
  /** The command that produced the event; the same command retried carries the same id. */
  commandId: string;
  /** The event or command that caused this one, if any. */
  causationId?: string;
  /** ISO time from the injected clock. */
  timestamp: string;
}

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** Deterministic ids make a retried append idempotent; generated when absent. */
  id?: string;
  type: Type;
  data: Data;
  schemaVersion?: number;
  metadata: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  globalPosition: number;
  /** xid8 of the appending transaction, as text (it can exceed 2^53). */
  transactionId: string;
  streamId: string;
  streamType: string;
  /** 1 for the first event of a stream. */
  streamPosition: number;
  eventId: string;
  type: Type;
  schemaVersion: number;
  data: Data;
  metadata: EventMetadata;
  recordedAt: Date;
}

/** no_stream: must not exist; stream_exists: must exist; any; or the exact current version (0 = no events). */
export type ExpectedState = 'no_stream' | 'stream_exists' | 'any' | number;

export interface AppendResult {
  /** The stream's version after the append (its last stream position). */
  version: number;
  events: RecordedEvent[];
}

/** Where a reader of the global log has got to: never the position alone (DESIGN.md §3). */
export interface Checkpoint {
  transactionId: string;
  globalPosition: number;
}
export const START: Checkpoint = { transactionId: '0', globalPosition: 0 };

/**
 * Turns events into read-model rows. `apply` gets only the event types in `handles`, in log order, and must
 * be safe to run again from the start: `rebuild` replays the whole log into fresh copies of `tables`.
 */
export interface Projection {
  /** Stable: an async projection's checkpoint is stored under it. */
  name: string;
  /** Event types it handles; others are not passed to it. */
  handles: readonly string[];
  /**
   * The read-model tables this projection alone writes. Rebuild replays into copies of them and then swaps the
   * rows in, so give rows natural keys (no serial ids) and do not point other projections' foreign keys at them.
   */
  tables: readonly string[];
  apply(trx: Transaction<Tables>, events: readonly RecordedEvent[]): Promise<void>;
  /**
   * Parts of the payloads it handles that it never reads, by event type: paths of keys ('result.measurements').
   * A rebuild's read of the log leaves out the parts that none of the projections it replays into reads
   * (ReadAllOptions.leaveOut), so a large part that only a page shows, reading it from the event itself, is neither
   * sent nor parsed there. Live, events come whole: parse payloads with a schema that drops these parts, so the rows
   * are the same either way.
   */
  unreadParts?: Readonly<Record<string, readonly string[]>>;
  /**
   * Async projections only: what an event that makes `apply` throw does. 'stop' (the default) stops the subscription
   * with the error recorded until `reset-failed`; 'park' sets it aside with its error (`projections -- parked`) and
   * goes on with the next, so one bad event does not hold up the read model.
   */
  onPoison?: 'stop' | 'park';
}

/** Runs inside the append's transaction: the read model and the events commit together. */
export type InlineProjection = Projection;

/** Runs behind the log in a checkpointed runner (src/projections/runner): for read models that may lag. */
export type AsyncProjection = Projection;

/** Lifts a stored payload of `type` at `fromVersion` to `fromVersion + 1`; applied on every read. */
export interface Upcaster {
  type: string;
  fromVersion: number;
  upcast(data: unknown): unknown;
}

export interface EventStore {
  append(streamId: string, streamType: string, events: readonly NewEvent[], options: { expected: ExpectedState }): Promise<AppendResult>;
  readStream(streamId: string): Promise<{ version: number; events: RecordedEvent[] }>;
  /**
   * Events committed after `after`, in commit-safe order; never one that a later read would put before them.
   * `types` keeps only those event types. Pass `trx` to read inside a transaction of your own.
   */
  readAll(after: Checkpoint, limit: number, options?: ReadAllOptions): Promise<RecordedEvent[]>;
}

export interface ReadAllOptions {
  types?: readonly string[];
  trx?: Transaction<Tables>;
  /**
   * 'commit-safe' (the default) stops below the oldest transaction still running, so nothing can later commit in
   * front of what was returned. 'visible' returns every committed event: only for a reader whose locks make a late
   * commit harmless (rebuild's final catch-up of an inline projection).
   */
  horizon?: 'commit-safe' | 'visible';
  /**
   * Parts of payloads to leave out, by event type, as in Projection.unreadParts: cut off in the database, so they are
   * neither sent nor parsed. Only from events at their type's latest schema version: an upcaster gets an older
   * payload whole.
   */
  leaveOut?: Readonly<Record<string, readonly string[]>>;
}

/** The checkpoint just after an event: pass it to the next `readAll`. */
export function checkpointOf(event: Pick<RecordedEvent, 'transactionId' | 'globalPosition'>): Checkpoint {
  return { transactionId: event.transactionId, globalPosition: event.globalPosition };
}

export class WrongExpectedVersionError extends AppError {
  readonly streamId: string;
  readonly expected: ExpectedState;
  readonly actual: number | 'no_stream';

  constructor(streamId: string, expected: ExpectedState, actual: number | 'no_stream') {
    super('conflict', 'wrong_expected_version', `Stream ${streamId} is at version ${actual}, expected ${expected}`, { actual, expected });
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}

export class DuplicateEventIdError extends AppError {
  constructor(eventId: string) {
    super('conflict', 'duplicate_event_id', `Event ${eventId} was already appended with other content`);
  }
}
