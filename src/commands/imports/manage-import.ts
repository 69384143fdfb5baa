import type { Kysely } from 'kysely';
import type { RowStatus } from '../../contracts/imports.ts';
import type { Owner } from '../../domain/accounts/identity.ts';
import { importDecider, importRowDecider, type ImportRow, type ImportRowEvent, type SheetRow } from '../../domain/imports/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import { handleCommand } from '../handle-command.ts';
import { nextPortfolioCardIds } from '../portfolio/portfolio-card-ids.ts';
import { importRowStream, importStream } from './streams.ts';

// The import's commands: start (the rows read from the file, each with the portfolio id it will take), one outcome
// per row, complete, cancel, edit a failed row's URLs, retry the failed rows, delete. Owner only: anyone else gets
// the 404 of an unknown import.

interface Context {
  store: EventStore;
  metadata: EventMetadata;
}

export async function startImport(
  context: Context & { db: Kysely<Tables> },
  input: { importId: string; owner: Owner; fileName: string; fileSize: number; rows: readonly SheetRow[] },
): Promise<ImportRow[]> {
  const ids = await nextPortfolioCardIds(context.db, input.rows.length);
  const rows: ImportRow[] = input.rows.map((row, index) => ({ ...row, portfolioCardId: ids[index]! }));
  await handleCommand(context, {
    ...importStream(input.importId),
    decider: importDecider,
    command: {
      type: 'StartImport',
      data: { importId: input.importId, owner: input.owner, fileName: input.fileName, fileSize: input.fileSize, rows, startedAt: context.metadata.timestamp },
    },
    retries: 0,
  });
  return rows;
}

/** True when this outcome was recorded now; false when the row (at this generation) already had one. */
export async function recordRowOutcome(context: Context, outcome: ImportRowEvent): Promise<boolean> {
  const { events } = await handleCommand(context, {
    ...importRowStream(outcome.data.importId, outcome.data.row),
    decider: importRowDecider,
    command: { type: 'RecordRowOutcome', data: outcome },
  });
  return events.length > 0;
}

export async function completeImport(context: Context, importId: string): Promise<boolean> {
  const { events } = await handleCommand(context, {
    ...importStream(importId),
    decider: importDecider,
    command: { type: 'CompleteImport', data: { importId, at: context.metadata.timestamp } },
  });
  return events.length > 0;
}

export async function cancelImport(context: Context, input: { importId: string; requestedBy: Owner }): Promise<void> {
  await handleCommand(context, {
    ...importStream(input.importId),
    decider: importDecider,
    command: { type: 'CancelImport', data: { ...input, at: context.metadata.timestamp } },
  });
}

/** `failedRows`: the rows whose outcome is a failure (from the read model); returns the new generation. */
export async function retryFailedRows(context: Context, input: { importId: string; requestedBy: Owner; failedRows: number[] }): Promise<number> {
  const { state } = await handleCommand(context, {
    ...importStream(input.importId),
    decider: importDecider,
    command: { type: 'RetryFailedRows', data: { ...input, at: context.metadata.timestamp } },
  });
  return state.status === 'none' ? 0 : state.generation;
}

export async function deleteImport(context: Context, input: { importId: string; requestedBy: Owner }): Promise<void> {
  await handleCommand(context, {
    ...importStream(input.importId),
    decider: importDecider,
    command: { type: 'DeleteImport', data: { ...input, at: context.metadata.timestamp } },
  });
}

/** `rowStatus`: the row's current outcome from the read model (null: no such row). */
export async function editFailedRow(
  context: Context,
  input: { importId: string; requestedBy: Owner; row: number; rowStatus: RowStatus | null; frontImageUrl: string; backImageUrl: string | null },
): Promise<void> {
  await handleCommand(context, {
    ...importStream(input.importId),
    decider: importDecider,
    command: { type: 'EditFailedRow', data: { ...input, at: context.metadata.timestamp } },
  });
}
