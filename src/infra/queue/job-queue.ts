// The job queue of DESIGN.md §5: one interface, two adapters (BullMQ on Redis, and in-process).

export interface JobOptions {
  /**
   * Deterministic id, for example `${importId}:${row}`. Enqueueing an id the queue still holds
   * (waiting, delayed, running, or completed in the last day) does nothing, so a re-enqueue after
   * a crash never duplicates work. A job that failed for good is forgotten and can be enqueued again.
   */
  jobId: string;
  /** Tries in all, the first included. Default 3. */
  attempts?: number;
  /** Exponential backoff between tries: delayMs, 2·delayMs, 4·delayMs…, each lowered by up to `jitter` (0..1). */
  backoff?: Backoff;
}

export interface Backoff {
  delayMs: number;
  jitter?: number;
}

export interface Job<Data = unknown> {
  id: string;
  name: string;
  /** The enqueued data after a JSON round trip (on both adapters: Dates arrive as strings). */
  data: Data;
  /** 1 on the first try. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when shutdown runs out of time and the job is handed back; stop work when it fires. */
  signal: AbortSignal;
}

export type JobHandler<Data = unknown> = (job: Job<Data>) => Promise<void>;

export interface ProcessOptions<Data = unknown> {
  /** Jobs of this name run at once in this process. Default 1. */
  concurrency?: number;
  /**
   * Called once when a job fails for good: it threw a PermanentJobError, or its last try failed.
   * The place to record the failure (for example an `ImportRowFailed` event).
   */
  onFailed?: (job: Job<Data>, error: Error) => Promise<void> | void;
  /**
   * BullMQ: how long a worker's hold on a running job lasts without renewal (renewed while the worker lives). A
   * worker killed mid-job gives its jobs back to the others after about this long. Default BullMQ's 30 s.
   */
  lockDurationMs?: number;
}

export interface JobCounts {
  name: string;
  waiting: number;
  active: number;
}

export interface JobQueue {
  readonly kind: 'bullmq' | 'in-process';
  enqueue<Data>(name: string, data: Data, options: JobOptions): Promise<void>;
  /** Starts handling jobs of this name; one handler per name and process. */
  process<Data>(name: string, handler: JobHandler<Data>, options?: ProcessOptions<Data>): void;
  /**
   * Enqueues a job of `name` every `everyMs` (its first after `everyMs`), one per interval however many processes
   * ask: a BullMQ job scheduler under `schedulerId` (asking again with the same settings changes nothing), a timer
   * in the in-process queue. Each job is tried once; the next interval brings the next.
   */
  repeat<Data>(name: string, data: Data, options: { schedulerId: string; everyMs: number }): Promise<void>;
  /** Resolves when the queue's backing service answers; for readiness checks. */
  ping(): Promise<void>;
  /** Jobs waiting (or delayed for a retry) and running, per job name this process has enqueued or handles: for metrics. */
  counts(): Promise<JobCounts[]>;
  /**
   * Stops taking jobs, lets running ones finish for up to `timeoutMs`, then hands back the rest
   * (BullMQ: back to waiting for another worker; in-process: aborted, to be re-enqueued at the next
   * start from the event log) and releases connections. Never takes much longer than `timeoutMs`.
   */
  close(timeoutMs: number): Promise<void>;
}

/** Thrown by a handler for work that can never succeed (a corrupt image): no more tries. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

export const DEFAULT_ATTEMPTS = 3;
export const DEFAULT_BACKOFF: Backoff = { delayMs: 1_000, jitter: 0.5 };
/** How long a completed job's id keeps refusing duplicates. */
export const COMPLETED_RETENTION_MS = 24 * 60 * 60 * 1000;

/** The wait before try `attempt + 1`, after try `attempt` failed (the same formula as BullMQ's exponential backoff). */
export function retryDelayMs(backoff: Backoff, attempt: number, random: () => number = Math.random): number {
  const max = Math.round(2 ** (attempt - 1) * backoff.delayMs);
  const jitter = backoff.jitter ?? 0;
  return jitter > 0 ? Math.floor(random() * max * jitter + max * (1 - jitter)) : max;
}

/** Whether a failed try is the job's last. */
export function isFinalFailure(error: unknown, attempt: number, maxAttempts: number): boolean {
  return error instanceof PermanentJobError || attempt >= maxAttempts;
}

export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
