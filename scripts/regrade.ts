// Operators' tool to measure stored photos again with the current engine (issue 33):
//   npm run regrade -- [--since DATE] [--dry-run]
// Every card graded (since DATE) by another engine is measured again, one job per card on the job queue (in this
// process in the embedded mode; shared with `npm run worker` on BullMQ in the service mode), with progress as it
// goes. Applied, each new grade is recorded beside the old (CardRegraded; the card's earlier events stay as they
// are); with --dry-run nothing is recorded and the table says how the grades would move. Then a summary by grade.
// Cards the current engine already graded are skipped, so running it again does only what is left.
import type { Kysely } from 'kysely';
import { engineName, type MeasureGrade } from '../src/commands/cards/regrade-card.ts';
import type { EngineVersion } from '../src/contracts/professional-grades.ts';
import type { Clock, IdGenerator } from '../src/infra/clock/clock.ts';
import { randomIds, systemClock } from '../src/infra/clock/clock.ts';
import { createCpuPool } from '../src/infra/cpu-pool/index.ts';
import type { Database } from '../src/infra/database/database.ts';
import type { Tables } from '../src/infra/database/schema.ts';
import type { RegradeOutcomesTable } from '../src/projections/cards/tables.ts';
import type { EventStore } from '../src/infra/event-store/index.ts';
import { openImageStore, type ImageStore } from '../src/infra/image-storage/index.ts';
import { createJobQueue, type JobQueue } from '../src/infra/queue/index.ts';
import { createLogger } from '../src/runtime.ts';
import { gradingEngineVersion } from '../src/workers/engine-version.ts';
import { createRegradeJobHandler, measureGradeWith, REGRADE_CARD_JOB, type RegradeCardJob } from '../src/workers/regrade/regrade-job.ts';
import { runOperatorCommand, usageFailure } from './operator-command.ts';

const USAGE = 'usage: npm run regrade -- [--since YYYY-MM-DD] [--dry-run]';

export interface RegradeCommandContext {
  database: Database;
  store: EventStore;
  imageStore: ImageStore;
  /** The run's jobs go here; the command also works on them itself (the only worker in the embedded mode). */
  queue: JobQueue;
  measure: MeasureGrade;
  /** The current engine: what the cards are regraded to. */
  engine: () => Promise<EngineVersion>;
  clock: Clock;
  ids: IdGenerator;
  out: (line: string) => void;
  /** Jobs at once in this process (default 2). */
  concurrency?: number;
  /** How often progress is read (default 1 s). */
  pollMs?: number;
}

interface Options {
  since: Date | null;
  dryRun: boolean;
}

function parseOptions(args: readonly string[]): Options | string {
  const options: Options = { since: null, dryRun: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--since') {
      const value = args[++i];
      if (!value || !/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/.test(value) || Number.isNaN(Date.parse(value))) return `--since takes a date (YYYY-MM-DD), not ${value ?? 'nothing'}`;
      options.since = new Date(value);
    } else return `unknown option ${arg}`;
  }
  return options;
}

/** Cards in the read models graded since the date, oldest first, with the engine of their latest grade. */
async function cardsToConsider(db: Kysely<Tables>, since: Date | null) {
  let query = db.selectFrom('card_grades').select(['id', 'engine_vision', 'engine_calibration']).orderBy('created_at').orderBy('id');
  if (since) query = query.where('created_at', '>=', since);
  return query.execute();
}

type OutcomeRow = Omit<RegradeOutcomesTable, 'run_id' | 'finished_at'>;

const pad = (text: string, width: number) => text.padEnd(width);
const signed = (n: number) => (n > 0 ? `+${n.toFixed(2)}` : n.toFixed(2));

/** One line per card: the card, its grade and engine before, and after (or why not). */
function table(rows: readonly OutcomeRow[], out: (line: string) => void): void {
  const before = (row: OutcomeRow) => (row.old_grade === null ? '' : `${row.old_grade} (${row.old_engine})`);
  const after = (row: OutcomeRow) => (row.new_grade !== null ? `${row.new_grade} (${row.new_engine})` : `${row.outcome}${row.message ? `: ${row.message}` : ''}`);
  const widths = [Math.max(4, ...rows.map((r) => r.card_id.length)), Math.max(9, ...rows.map((r) => before(r).length))];
  out(`${pad('card', widths[0]!)}  ${pad('old grade', widths[1]!)}  new grade`);
  for (const row of rows) out(`${pad(row.card_id, widths[0]!)}  ${pad(before(row), widths[1]!)}  ${after(row)}`);
}

/** Per whole grade before: how many cards, how many would go up, stay and go down, and the mean move. */
function summaryByGrade(rows: readonly OutcomeRow[], out: (line: string) => void): void {
  const byGrade = new Map<number, { cards: number; up: number; same: number; down: number; notMeasured: number; delta: number }>();
  for (const row of rows) {
    if (row.old_grade === null) continue;
    const grade = Math.floor(row.old_grade);
    const entry = byGrade.get(grade) ?? { cards: 0, up: 0, same: 0, down: 0, notMeasured: 0, delta: 0 };
    entry.cards++;
    if (row.new_grade === null) entry.notMeasured++;
    else {
      const delta = row.new_grade - row.old_grade;
      entry.delta += delta;
      if (delta > 0) entry.up++;
      else if (delta < 0) entry.down++;
      else entry.same++;
    }
    byGrade.set(grade, entry);
  }
  out('summary by grade (old grade, whole points):');
  for (const [grade, e] of [...byGrade].sort((a, b) => b[0] - a[0])) {
    const measured = e.cards - e.notMeasured;
    const mean = measured > 0 ? signed(e.delta / measured) : 'n/a';
    out(`  ${String(grade).padStart(2)}: ${e.cards} cards, ${e.up} up, ${e.same} same, ${e.down} down${e.notMeasured ? `, ${e.notMeasured} not measured` : ''}, mean change ${mean}`);
  }
}

/** Runs the command; returns the process exit code. */
export async function runRegradeCommand(args: readonly string[], context: RegradeCommandContext): Promise<number> {
  const { out, database, queue } = context;
  const { db } = database;
  const options = parseOptions(args);
  if (typeof options === 'string') return usageFailure(out, USAGE, options);
  const engine = await context.engine();
  const current = engineName(engine);
  const considered = await cardsToConsider(db, options.since);
  const todo = considered.filter((card) => `${card.engine_vision}@${card.engine_calibration}` !== current);
  const since = options.since ? ` since ${options.since.toISOString().slice(0, 10)}` : '';
  out(`${considered.length} cards graded${since}; ${considered.length - todo.length} already graded by engine ${current}, skipped; ${todo.length} to ${options.dryRun ? 'measure (dry run: nothing is recorded)' : 'regrade'}`);
  if (todo.length === 0) return 0;

  const runId = context.ids.uuid();
  const handler = createRegradeJobHandler({ db, store: context.store, imageStore: context.imageStore, measure: context.measure, clock: context.clock });
  queue.process<RegradeCardJob>(REGRADE_CARD_JOB, async (job) => void (await handler.handle(job)), { concurrency: context.concurrency ?? 2, onFailed: handler.onFailed });
  for (const card of todo) {
    await queue.enqueue<RegradeCardJob>(REGRADE_CARD_JOB, { runId, cardId: card.id, dryRun: options.dryRun, engine }, { jobId: `regrade-${runId}-${card.id}` });
  }

  // Progress from the outcomes the jobs wrote, wherever they ran; a line whenever it moved.
  let done = 0;
  while (done < todo.length) {
    await new Promise((resolve) => setTimeout(resolve, context.pollMs ?? 1_000));
    const { count } = await db.selectFrom('regrade_outcomes').select((eb) => eb.fn.countAll<string>().as('count')).where('run_id', '=', runId).executeTakeFirstOrThrow();
    if (Number(count) !== done) {
      done = Number(count);
      out(`progress: ${done}/${todo.length} (${Math.floor((done / todo.length) * 100)}%)`);
    }
  }

  const rows = await db.selectFrom('regrade_outcomes').select(['card_id', 'outcome', 'old_grade', 'old_engine', 'new_grade', 'new_engine', 'message']).where('run_id', '=', runId).orderBy('card_id').execute();
  await db.deleteFrom('regrade_outcomes').where('run_id', '=', runId).execute();
  table(rows, out);
  summaryByGrade(rows, out);
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.outcome, (counts.get(row.outcome) ?? 0) + 1);
  out(`${options.dryRun ? 'dry run, nothing recorded: ' : ''}${[...counts].map(([outcome, n]) => `${n} ${outcome}`).join(', ')}`);
  return counts.has('failed') ? 1 : 0;
}

if (import.meta.main) {
  await runOperatorCommand(async ({ config, database, store }) => {
    const logger = createLogger({ LOG_LEVEL: 'warn' });
    const queue = createJobQueue(config, logger);
    const cpuPool = createCpuPool({ size: config.CPU_POOL_SIZE });
    const imageStore = openImageStore(config);
    try {
      return await runRegradeCommand(process.argv.slice(2), {
        database,
        store,
        imageStore,
        queue,
        measure: measureGradeWith({ cpuPool, maxPixels: config.IMAGE_MAX_PIXELS }),
        engine: gradingEngineVersion,
        clock: systemClock,
        ids: randomIds,
        out: (line) => console.log(line),
        concurrency: config.CPU_POOL_SIZE,
      });
    } finally {
      await queue.close(config.SHUTDOWN_TIMEOUT_MS);
      await cpuPool.close();
      imageStore.close?.();
    }
  });
}
