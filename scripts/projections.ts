// Operators' tool for the read models (DESIGN.md §3):
//   npm run projections -- status            lag, owner and last error per projection
//   npm run projections -- rebuild [name]    replay the log into fresh tables, then swap them in (all when no name,
//                                            in one read of the log)
//   npm run projections -- reset-failed      start stopped subscriptions again from their checkpoints
//   npm run projections -- parked            poison events parked by projections that park them, with their errors
//   npm run projections -- retry-parked [name]   apply parked events again (after a fix); those that fail stay parked
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/infra/database/database.ts';
import { openDatabase } from '../src/infra/database/index.ts';
import { createEventStore, type EventStore, type Projection } from '../src/infra/event-store/index.ts';
import { asyncProjections, inlineProjections } from '../src/projections/index.ts';
import { listParked, projectionStatus, rebuildProjections, resetFailed, retryParked, type ProjectionStatus } from '../src/projections/runner/index.ts';

const USAGE = 'usage: npm run projections -- status | rebuild [name] | reset-failed | parked | retry-parked [name]';

export interface ProjectionsContext {
  database: Database;
  store: EventStore;
  inline: readonly Projection[];
  async: readonly Projection[];
  out: (line: string) => void;
}

/** Runs one operator command; returns the process exit code. */
export async function runProjectionsCommand(args: readonly string[], context: ProjectionsContext): Promise<number> {
  const [command, ...rest] = args;
  const { database, store, out } = context;
  switch (command) {
    case 'status': {
      const statuses = await projectionStatus(database.db, { inline: context.inline, async: context.async });
      if (statuses.length === 0) out('no projections registered (src/projections/index.ts)');
      for (const line of formatStatus(statuses)) out(line);
      return statuses.some((s) => s.status === 'failed') ? 2 : 0;
    }
    case 'rebuild': {
      const all = [...context.inline.map((p) => ({ projection: p, kind: 'inline' as const })), ...context.async.map((p) => ({ projection: p, kind: 'async' as const }))];
      const name = rest[0];
      const chosen = name ? all.filter(({ projection }) => projection.name === name) : all;
      if (name && chosen.length === 0) {
        out(`no projection named ${name}; known: ${all.map(({ projection }) => projection.name).join(', ') || 'none'}`);
        return 1;
      }
      if (chosen.length === 0) {
        out('no projections registered (src/projections/index.ts)');
        return 0;
      }
      // All of them in one read of the log.
      const started = performance.now();
      const { events } = await rebuildProjections(database, store, chosen);
      const seconds = (performance.now() - started) / 1000;
      const names = chosen.map(({ projection, kind }) => `${projection.name} (${kind})`).join(', ');
      out(`rebuilt ${names}: ${events} events in ${seconds.toFixed(1)} s (${Math.round(events / seconds)} events/s)`);
      return 0;
    }
    case 'reset-failed': {
      const names = await resetFailed(database.db);
      out(names.length === 0 ? 'no failed subscriptions' : `started again: ${names.join(', ')}`);
      return 0;
    }
    case 'parked': {
      const parked = await listParked(database.db);
      if (parked.length === 0) out('no parked events');
      for (const p of parked) out(`${p.projection}  #${p.globalPosition}  ${p.eventType}  ${p.streamId}  parked ${p.parkedAt.toISOString()} (${p.attempts} tries): ${p.error}`);
      return 0;
    }
    case 'retry-parked': {
      const name = rest[0];
      const chosen = name ? context.async.filter((p) => p.name === name) : context.async;
      if (name && chosen.length === 0) {
        out(`no async projection named ${name}; known: ${context.async.map((p) => p.name).join(', ') || 'none'}`);
        return 1;
      }
      const { applied, stillParked } = await retryParked(database.db, store, chosen);
      out(`applied ${applied} parked event${applied === 1 ? '' : 's'}; ${stillParked} still parked`);
      return stillParked > 0 ? 2 : 0;
    }
    default:
      out(USAGE);
      return 1;
  }
}

function formatStatus(statuses: readonly ProjectionStatus[]): string[] {
  const rows = statuses.map((s) => [
    s.name,
    s.kind,
    s.status,
    String(s.lag),
    s.checkpoint ? `${s.checkpoint.transactionId}/${s.checkpoint.globalPosition}` : '-',
    s.owner ? `${s.owner} until ${s.leaseExpiresAt?.toISOString() ?? '?'}` : '-',
  ]);
  const header = ['projection', 'kind', 'status', 'lag', 'checkpoint', 'owner'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  const errors = statuses.filter((s) => s.lastError).map((s) => `${s.name} failed at ${s.failedAt?.toISOString() ?? '?'}: ${s.lastError}`);
  return rows.length === 0 ? [] : [line(header), ...rows.map(line), ...errors];
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (!['status', 'rebuild', 'reset-failed', 'parked', 'retry-parked'].includes(args[0] ?? '')) {
    console.error(USAGE);
    process.exit(1);
  }
  let database: Database | undefined;
  try {
    database = await openDatabase(loadConfig());
    const store = createEventStore(database, { inline: inlineProjections });
    process.exitCode = await runProjectionsCommand(args, {
      database,
      store,
      inline: inlineProjections,
      async: asyncProjections,
      out: (line) => console.log(line),
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await database?.close();
  }
}
