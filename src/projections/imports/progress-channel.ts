import { sql } from 'kysely';
import { importProgressSchema, type ImportProgress } from '../../contracts/imports.ts';
import type { Database } from '../../infra/database/index.ts';
import { importProgress } from './queries.ts';

// Live import progress between processes (DESIGN.md §2): whichever process records a row's outcome publishes the
// import's progress with pg_notify, and every API process LISTENs and hands it to its owner's sockets. One channel,
// the owner in each message; the read model is the source, so a message always carries the counts as committed.
// Publishing is throttled per import (at most one message per `intervalMs`, the last one always sent).

export const IMPORT_PROGRESS_CHANNEL = 'import_progress';

export interface ProgressNotice {
  owner: string;
  progress: ImportProgress;
}

export interface ProgressPublisher {
  /** Publishes the import's progress soon (throttled); `now` publishes at once (start, completion). */
  publish(importId: string, options?: { now?: boolean }): void;
  /** Sends what is still waiting. */
  flush(): Promise<void>;
}

export function createProgressPublisher(database: Database, options: { intervalMs?: number; onError?: (error: unknown) => void } = {}): ProgressPublisher {
  const intervalMs = options.intervalMs ?? 250;
  const lastSent = new Map<string, number>();
  const timers = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();

  function send(importId: string): void {
    lastSent.set(importId, Date.now());
    const sending = (async () => {
      const found = await importProgress(database.db, importId);
      if (!found) return;
      const payload = JSON.stringify({ owner: found.owner, progress: found.progress } satisfies ProgressNotice);
      await sql`select pg_notify(${IMPORT_PROGRESS_CHANNEL}, ${payload})`.execute(database.db);
      if (found.progress.status !== 'processing') lastSent.delete(importId);
    })().catch((error) => options.onError?.(error));
    inFlight.add(sending);
    void sending.finally(() => inFlight.delete(sending));
  }

  return {
    publish(importId, { now = false } = {}) {
      const pending = timers.get(importId);
      const wait = now ? 0 : Math.max(0, (lastSent.get(importId) ?? 0) + intervalMs - Date.now());
      if (wait === 0) {
        if (pending) clearTimeout(pending);
        timers.delete(importId);
        send(importId);
        return;
      }
      if (pending) return;
      const timer = setTimeout(() => {
        timers.delete(importId);
        send(importId);
      }, wait);
      timer.unref();
      timers.set(importId, timer);
    },
    async flush() {
      for (const [importId, timer] of timers) {
        clearTimeout(timer);
        send(importId);
      }
      timers.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** Calls `onNotice` with every import's progress any process publishes; returns the function that stops listening. */
export async function listenToProgress(database: Database, onNotice: (notice: ProgressNotice) => void): Promise<() => Promise<void>> {
  return database.listen(IMPORT_PROGRESS_CHANNEL, (payload) => {
    try {
      const parsed = JSON.parse(payload) as { owner?: unknown; progress?: unknown };
      const progress = importProgressSchema.safeParse(parsed.progress);
      if (typeof parsed.owner === 'string' && progress.success) onNotice({ owner: parsed.owner, progress: progress.data });
    } catch {
      // Not ours, or cut: nothing to hand on.
    }
  });
}
