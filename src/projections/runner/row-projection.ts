import type { Projection, RecordedEvent } from '../../infra/event-store/types.ts';
import { RowStore, type AnyRowTable } from './row-store.ts';

/** A projection written as a handler of one event over a RowStore: live and in a rebuild, the same handler. */
export interface RowProjection extends Projection {
  readonly rowTables: readonly AnyRowTable[];
  handle(rows: RowStore, event: RecordedEvent): Promise<void>;
}

export interface RowProjectionDefinition extends Omit<Projection, 'tables' | 'apply'> {
  /** The tables it alone writes (as `Projection.tables`), with their keys and lookups. */
  tables: readonly AnyRowTable[];
  handle(rows: RowStore, event: RecordedEvent): Promise<void>;
}

/**
 * Live, `apply` runs the handler over an append's (or a runner's batch of) events with a store of its own and
 * writes what they changed at the end; a rebuild keeps one store from batch to batch (see rebuild.ts).
 */
export function rowProjection(definition: RowProjectionDefinition): RowProjection {
  const { tables, handle, ...rest } = definition;
  const apply: Projection['apply'] = async (trx, events) => {
    const rows = new RowStore(tables, { executor: trx });
    for (const event of events) await handle(rows, event);
    await rows.flush();
  };
  handlerApplies.add(apply);
  return { ...rest, tables: tables.map((table) => table.name), rowTables: tables, handle, apply };
}

/** The `apply` of each row projection: a copy of one with `apply` replaced (a test's, a bench's) is not one. */
const handlerApplies = new WeakSet<Projection['apply']>();

export function isRowProjection(projection: Projection): projection is RowProjection {
  return handlerApplies.has(projection.apply) && 'rowTables' in projection;
}
