import { AppError } from '../../contracts/errors.ts';
import type { Owner } from '../accounts/identity.ts';
import { assertNever, type Decider } from '../decider.ts';
import type { RowStatus } from '../../contracts/imports.ts';
import type { ImportEvent, ImportRowEvent, ImportStarted } from './events.ts';
import { urlProblem } from './sheet-rows.ts';

// A bulk import, stream `import-<importId>`, and the outcome of each of its rows, stream
// `import-row-<importId>-<row>`. Only the owner sees, cancels, retries or deletes an import: to anyone else it does
// not exist.

export type ImportState =
  | { status: 'none' }
  | { status: 'processing' | 'completed' | 'cancelled' | 'deleted'; importId: string; owner: Owner; generation: number };

export type StartImport = { type: 'StartImport'; data: ImportStarted['data'] };
export type CompleteImport = { type: 'CompleteImport'; data: { importId: string; at: string } };
export type CancelImport = { type: 'CancelImport'; data: { importId: string; requestedBy: Owner; at: string } };
/** `failedRows` from the read model: the rows whose current outcome is a failure. */
export type RetryFailedRows = { type: 'RetryFailedRows'; data: { importId: string; requestedBy: Owner; failedRows: number[]; at: string } };
/** `rowStatus` from the read model: the row's current outcome, null when the import has no such row. */
export type EditFailedRow = {
  type: 'EditFailedRow';
  data: { importId: string; requestedBy: Owner; row: number; rowStatus: RowStatus | null; frontImageUrl: string; backImageUrl: string | null; at: string };
};
export type DeleteImport = { type: 'DeleteImport'; data: { importId: string; requestedBy: Owner; at: string } };
export type ImportCommand = StartImport | CompleteImport | CancelImport | RetryFailedRows | EditFailedRow | DeleteImport;

export const importNotFound = () => new AppError('not_found', 'import_not_found', 'Import not found');
export const importRowNotFound = () => new AppError('not_found', 'import_row_not_found', 'This import has no such row.');
const importRunning = () => new AppError('conflict', 'import_running', 'This import is still running. Retry its failed rows once it has finished.');

function owned(state: ImportState, requestedBy: Owner): Exclude<ImportState, { status: 'none' | 'deleted' }> {
  if (state.status === 'none' || state.status === 'deleted' || state.owner !== requestedBy) throw importNotFound();
  return state;
}

export function decideImport(command: ImportCommand, state: ImportState): ImportEvent[] {
  switch (command.type) {
    case 'StartImport':
      // The same command retried (same id) changes nothing.
      if (state.status !== 'none') return [];
      if (!command.data.owner.startsWith('user:')) throw new AppError('unauthorized', 'unauthorized', 'Not signed in');
      return [{ type: 'ImportStarted', data: command.data }];
    case 'CompleteImport':
      // Decided by whoever saw the last outcome land; several may see it, one completes.
      if (state.status !== 'processing') return [];
      return [{ type: 'ImportCompleted', data: { importId: command.data.importId, completedAt: command.data.at } }];
    case 'CancelImport': {
      const current = owned(state, command.data.requestedBy);
      if (current.status !== 'processing') return [];
      return [{ type: 'ImportCancelled', data: { importId: command.data.importId, cancelledAt: command.data.at } }];
    }
    case 'RetryFailedRows': {
      const current = owned(state, command.data.requestedBy);
      if (current.status === 'processing') throw importRunning();
      if (command.data.failedRows.length === 0) throw new AppError('conflict', 'import_no_failed_rows', 'This import has no failed rows to retry.');
      return [
        {
          type: 'ImportFailedRowsRetried',
          data: { importId: command.data.importId, rows: command.data.failedRows, generation: current.generation + 1, retriedAt: command.data.at },
        },
      ];
    }
    case 'EditFailedRow': {
      const current = owned(state, command.data.requestedBy);
      const { importId, row, rowStatus, frontImageUrl, backImageUrl, at } = command.data;
      if (rowStatus === null) throw importRowNotFound();
      if (current.status === 'processing') throw new AppError('conflict', 'import_running', 'This import is still running. Edit its failed rows once it has finished.');
      if (rowStatus !== 'failed') throw new AppError('conflict', 'import_row_not_failed', `Row ${row} did not fail: only failed rows can be edited.`);
      const problem = urlProblem(frontImageUrl, 'FrontImage') ?? (backImageUrl === null ? null : urlProblem(backImageUrl, 'BackImage'));
      if (problem) throw new AppError('invalid', 'import_row_invalid_url', problem);
      return [{ type: 'ImportRowEdited', data: { importId, row, frontImageUrl, backImageUrl, editedAt: at } }];
    }
    case 'DeleteImport': {
      if (state.status === 'deleted' && state.owner === command.data.requestedBy) return [];
      const current = owned(state, command.data.requestedBy);
      return [{ type: 'ImportDeleted', data: { importId: command.data.importId, owner: current.owner, deletedAt: command.data.at } }];
    }
    default:
      return assertNever(command);
  }
}

export function evolveImport(state: ImportState, event: ImportEvent): ImportState {
  switch (event.type) {
    case 'ImportStarted':
      return { status: 'processing', importId: event.data.importId, owner: event.data.owner, generation: 0 };
    case 'ImportCompleted':
      return state.status === 'none' ? state : { ...state, status: 'completed' };
    case 'ImportCancelled':
      return state.status === 'none' ? state : { ...state, status: 'cancelled' };
    case 'ImportFailedRowsRetried':
      return state.status === 'none' ? state : { ...state, status: 'processing', generation: event.data.generation };
    case 'ImportRowEdited':
      return state;
    case 'ImportDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    default:
      return assertNever(event);
  }
}

export const importDecider: Decider<ImportState, ImportCommand, ImportEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveImport,
  decide: decideImport,
};

// ── One row's outcome ─────────────────────────────────────────────────────────────────────────────

export interface ImportRowState {
  /** The generation of the last outcome, -1 before any. */
  generation: number;
  outcome: 'graded' | 'duplicate' | 'failed' | null;
}

export type RecordRowOutcome = { type: 'RecordRowOutcome'; data: ImportRowEvent };

/**
 * One outcome per row and generation: a row worked on twice (a crash after the work, before the job was marked done)
 * records nothing the second time. Only a failed row takes an outcome of a later generation (a retry).
 */
export function decideRowOutcome(command: RecordRowOutcome, state: ImportRowState): ImportRowEvent[] {
  const { generation } = command.data.data;
  if (state.outcome === null) return [command.data];
  if (state.outcome === 'failed' && generation > state.generation) return [command.data];
  return [];
}

export const importRowDecider: Decider<ImportRowState, RecordRowOutcome, ImportRowEvent> = {
  initialState: () => ({ generation: -1, outcome: null }),
  evolve(_state, event) {
    const outcome = event.type === 'ImportRowGraded' ? 'graded' : event.type === 'ImportRowDuplicate' ? 'duplicate' : 'failed';
    return { generation: event.data.generation, outcome };
  },
  decide: decideRowOutcome,
};
