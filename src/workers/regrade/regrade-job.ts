import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { engineName, regradeCard, type MeasureGrade, type RegradeOutcome } from '../../commands/cards/regrade-card.ts';
import { cardGradeSchema } from '../../contracts/grading.ts';
import type { EngineVersion } from '../../contracts/professional-grades.ts';
import type { Clock } from '../../infra/clock/clock.ts';
import type { CpuPool } from '../../infra/cpu-pool/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { EventStore } from '../../infra/event-store/types.ts';
import type { ImageStore } from '../../infra/image-storage/index.ts';
import type { Job } from '../../infra/queue/index.ts';
import { gradingEngineVersion } from '../engine-version.ts';
import { gradeCard } from '../grading/index.ts';

// The regrade's job (`npm run regrade`): one card measured again per job, on the job queue like every other image
// work (in the process of `npm run regrade` in the embedded mode; on BullMQ in the service mode, where `npm run
// worker` processes share the work). Each job writes what it did to regrade_outcomes under its run, where the
// command reads its progress and prints its table, whichever process ran the job.

export const REGRADE_CARD_JOB = 'regrade-card';

export interface RegradeCardJob {
  runId: string;
  cardId: string;
  dryRun: boolean;
  /** The engine the run regrades to: a worker running another one fails the job rather than record its grade. */
  engine: EngineVersion;
}

export interface RegradeJobDeps {
  db: Kysely<Tables>;
  store: EventStore;
  imageStore: ImageStore;
  measure: MeasureGrade;
  clock: Clock;
}

/** The job's outcome row: one per card and run, written again if the job is tried again. */
async function recordOutcome(db: Kysely<Tables>, runId: string, cardId: string, row: { outcome: string; old?: { overallGrade: number; engine: EngineVersion }; new?: { overallGrade: number; engine: EngineVersion }; message?: string }) {
  const values = {
    outcome: row.outcome,
    old_grade: row.old?.overallGrade ?? null,
    old_engine: row.old ? engineName(row.old.engine) : null,
    new_grade: row.new?.overallGrade ?? null,
    new_engine: row.new ? engineName(row.new.engine) : null,
    message: row.message ?? null,
  };
  await db
    .insertInto('regrade_outcomes')
    .values({ run_id: runId, card_id: cardId, ...values })
    .onConflict((c) => c.columns(['run_id', 'card_id']).doUpdateSet(values))
    .execute();
}

export function createRegradeJobHandler(deps: RegradeJobDeps) {
  return {
    async handle(job: Job<RegradeCardJob>): Promise<RegradeOutcome> {
      const { runId, cardId, dryRun, engine } = job.data;
      const metadata = { actor: { kind: 'system' as const, id: 'regrade' }, commandId: `regrade:${runId}:${cardId}`, timestamp: deps.clock.now().toISOString() };
      const outcome = await regradeCard(deps, { cardId, engine, dryRun, metadata });
      await recordOutcome(deps.db, runId, cardId, outcome);
      return outcome;
    },
    /** A job that failed for good still ends its card's part in the run, so the command is not left waiting. */
    async onFailed(job: Job<RegradeCardJob>, error: Error): Promise<void> {
      await recordOutcome(deps.db, job.data.runId, job.data.cardId, { outcome: 'failed', message: error.message });
    },
  };
}

export interface MeasureGradeOptions {
  /** Without a pool the pixel work runs on this thread (tests). */
  cpuPool?: CpuPool;
  maxPixels: number;
  /** The engine to record; default the running code's (tests name another, as a new engine would). */
  engine?: () => Promise<EngineVersion>;
  /** Photos measured per process are remembered by their bytes' hash, this many (default 64). */
  remember?: number;
}

/**
 * The regrade's measuring: the grading service's engine without identification (who the card is stays as read when
 * it was graded) nor the slab label (the engine's grade is the card's own, in or out of a slab). The same photos are
 * measured once per process: the engine is the same for the process's life, and owners share photos (every account's
 * sample cards are the same three).
 */
export function measureGradeWith(options: MeasureGradeOptions): MeasureGrade {
  const engine = options.engine ?? gradingEngineVersion;
  const remember = options.remember ?? 64;
  const measured = new Map<string, ReturnType<MeasureGrade>>();
  const keyOf = (photos: { front: Uint8Array; back?: Uint8Array }) =>
    [photos.front, photos.back].map((bytes) => (bytes ? createHash('sha256').update(bytes).digest('hex') : '-')).join(':');
  return (photos) => {
    const key = keyOf(photos);
    let found = measured.get(key);
    if (!found) {
      found = (async () => {
        const [graded, version] = await Promise.all([gradeCard(photos, { ...(options.cpuPool ? { cpuPool: options.cpuPool } : {}), maxPixels: options.maxPixels }), engine()]);
        return { grade: cardGradeSchema.parse(graded.card), engine: version };
      })();
      // A failure is forgotten: the next card with these photos measures them again.
      found.catch(() => measured.delete(key));
      measured.set(key, found);
      if (measured.size > remember) measured.delete(measured.keys().next().value!);
    }
    return found;
  };
}
