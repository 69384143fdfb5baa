import { AppError } from '../../contracts/errors.ts';
import { outageOf } from '../../infra/outage-errors.ts';

// Issue 34 §5: an import row that fails because one of our own services is down (the image store, the database, the
// job queue) is not the row's fault, and failing it for good would make its owner retry by hand what would have
// worked a minute later. Such a row waits until the service answers again and is then worked on again, within a
// bound (IMPORT_OUTAGE_WAIT_MS). The trouble of a photo's own host (its DNS, a refused connection, a timeout) is
// not one of ours: that row keeps the ordinary few tries with backoff, then fails with its reason.

export type OurService = 'images' | 'database' | 'queue';

/** Which of our services an error says is down; null for anything else (a photo host's trouble included). */
export function serviceDownIn(error: unknown): OurService | null {
  // The image fetcher's errors are AppErrors of their own codes, so a photo host refusing a connection is never
  // read as our database refusing one. Raw errors are the drivers' (pg, ioredis, the file system).
  const known = error instanceof AppError ? error : outageOf(error);
  switch (known?.code) {
    case 'image_store_unavailable':
    case 'storage_unavailable':
      return 'images';
    case 'database_unavailable':
      return 'database';
    case 'queue_unavailable':
      return 'queue';
    default:
      return null;
  }
}

export interface OutageWaiter {
  /**
   * Waits until `service` answers again; true then (work on the row again), false once `deadline` (ms since the
   * epoch) has passed or `signal` fired, the row's error then standing.
   */
  untilBack(service: OurService, deadline: number, signal: AbortSignal): Promise<boolean>;
}

export interface OutageWaiterOptions {
  /** Resolves when the service answers, rejects (or hangs: bounded by `probeTimeoutMs`) when it does not. */
  probes: Record<OurService, () => Promise<unknown>>;
  firstDelayMs?: number;
  maxDelayMs?: number;
  probeTimeoutMs?: number;
}

/**
 * One probe loop per service however many rows wait on it (fifty rows of an import would otherwise ask the store
 * fifty times a second): backoff from `firstDelayMs` doubling to `maxDelayMs`, with jitter, and it stops once the
 * service answers or nobody waits any more.
 */
export function createOutageWaiter({ probes, firstDelayMs = 250, maxDelayMs = 4_000, probeTimeoutMs = 2_000 }: OutageWaiterOptions): OutageWaiter {
  const loops = new Map<OurService, { back: Promise<boolean>; waiters: number }>();

  async function answers(service: OurService): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([probes[service](), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('no answer')), probeTimeoutMs)))]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  function loopFor(service: OurService) {
    const existing = loops.get(service);
    if (existing) return existing;
    const loop = { waiters: 0, back: Promise.resolve(false) };
    loop.back = (async () => {
      try {
        for (let delay = firstDelayMs; ; delay = Math.min(delay * 2, maxDelayMs)) {
          await new Promise((resolve) => setTimeout(resolve, delay * (0.75 + Math.random() / 4)));
          if (loop.waiters === 0) return false;
          if (await answers(service)) return true;
        }
      } finally {
        // Before anyone awaiting it resumes: a row that starts waiting after this starts a loop of its own.
        loops.delete(service);
      }
    })();
    loops.set(service, loop);
    return loop;
  }

  return {
    async untilBack(service, deadline, signal) {
      if (signal.aborted || Date.now() >= deadline) return false;
      const loop = loopFor(service);
      loop.waiters += 1;
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      try {
        return await Promise.race([
          loop.back,
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), deadline - Date.now()))),
          new Promise<boolean>((resolve) => signal.addEventListener('abort', (onAbort = () => resolve(false)), { once: true })),
        ]);
      } finally {
        loop.waiters -= 1;
        clearTimeout(timer);
        if (onAbort) signal.removeEventListener('abort', onAbort);
      }
    },
  };
}
