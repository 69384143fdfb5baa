import { CompiledQuery, type Insertable, type QueryResult, type Selectable } from 'kysely';
import { copyRows } from '../../infra/database/copy-rows.ts';
import { quotedIdentifier } from '../../infra/database/sql-identifier.ts';
import type { Tables } from '../../infra/database/schema.ts';

// The read-model rows a projection writes, by key, kept in memory between its handlers and written out together:
// each table's new and replaced rows in multi-row upserts, its deletes in one statement. A projection written over
// a RowStore (rowProjection below) runs the same handlers live, one append's events at a time, and in a rebuild,
// thousands of events per batch; what differs is only how often the rows reach the database.
//
// In a rebuild the store is `complete`: it has written every row of its tables (they started empty), so it knows
// which keys exist without asking, answers `find` by a declared lookup from an index of keys it keeps in memory, and
// writes a row of a key new to its table by COPY, the fastest way in.
// Live, it asks the database whatever it does not hold.

export type TableName = keyof Tables & string;
type Column<T extends TableName> = keyof Tables[T] & string;
type AnyRow = Record<string, unknown>;

/**
 * A row as the store holds it: as written (jsonb columns as JSON text, times as given) or as read back (jsonb
 * parsed, times as Dates), depending on where it came from. Readers of a jsonb column use `jsonColumn`.
 */
export type StoredRow<T extends TableName> = Selectable<Tables[T]> | Insertable<Tables[T]>;

/** Any table's description, as the store keeps them side by side. */
export interface AnyRowTable {
  readonly name: string;
  readonly key: readonly string[];
  readonly lookups: readonly (readonly string[])[];
}

export interface RowTable<T extends TableName> extends AnyRowTable {
  readonly name: T;
  /** The primary key's columns. */
  readonly key: readonly Column<T>[];
  /** Other columns rows are found by (`find`); a rebuild answers these from memory. */
  readonly lookups: readonly (readonly Column<T>[])[];
}

export function rowTable<T extends TableName>(name: T, key: readonly Column<T>[], lookups: readonly (readonly Column<T>[])[] = []): RowTable<T> {
  return { name, key, lookups };
}

/** A jsonb column's value, whether the row is as written (text) or as read back (parsed). */
export function jsonColumn<V>(value: V | string): V {
  return typeof value === 'string' ? (JSON.parse(value) as V) : value;
}

interface Entry {
  /** The row; null when there is none (deleted, or known absent); undefined when not loaded (changes wait in `changed`). */
  row: AnyRow | null | undefined;
  /** Read back from the database (its form as read), rather than written here. */
  loaded: boolean;
  /**
   * What the next flush writes: nothing; the whole row (upsert, or insert where the key was found free); the
   * changed columns only (a row read back, or one never loaded); or a delete.
   */
  write: 'none' | 'upsert' | 'insert' | 'columns' | 'delete';
  changed: AnyRow | undefined;
}

/** Parameters per statement stay far below PostgreSQL's 65,535. */
const PARAMETERS_PER_STATEMENT = 30_000;
/** A rebuild's store forgets the rows it holds (not the keys) past this many per table, after a flush. */
const ROWS_KEPT_PER_TABLE = 50_000;

class TableState {
  readonly table: AnyRowTable;
  readonly entries = new Map<string, Entry>();
  /** How many times this table's writes were taken. */
  round = 0;
  /**
   * Keys with something to write, each with the round it last changed in. A live store keeps them in the order last
   * changed, the order the database sees them (takeTableWrites); a complete store's order does not matter.
   */
  readonly dirty = new Map<string, number>();
  /** Complete stores: the keys of the rows in the database table. */
  readonly stored: Set<string> | undefined;
  /** Complete stores: per lookup, the keys of the rows (written or waiting) with each value... */
  readonly indexes: Map<string, Set<string>>[] | undefined;
  /** ...and per key, its values of the lookups, so a row need not be read to move it. */
  private readonly indexedAs = new Map<string, (string | undefined)[]>();
  readonly lookupColumns: ReadonlySet<string>;

  constructor(table: AnyRowTable, complete: boolean) {
    this.table = table;
    this.stored = complete ? new Set() : undefined;
    this.indexes = complete && table.lookups.length > 0 ? table.lookups.map(() => new Map()) : undefined;
    this.lookupColumns = new Set(table.lookups.flat());
  }

  keyOf(row: AnyRow): string {
    const { key } = this.table;
    let id = valueKey(row[key[0]!]);
    for (let i = 1; i < key.length; i++) id += `\u0000${valueKey(row[key[i]!])}`;
    return id;
  }

  touch(key: string): void {
    if (!this.stored) this.dirty.delete(key);
    this.dirty.set(key, this.round);
  }

  /** Complete stores: files the row under its lookup values (none when it is gone). */
  reindex(key: string, row: AnyRow | null): void {
    if (!this.indexes) return;
    const before = this.indexedAs.get(key);
    const after = row ? this.table.lookups.map((columns) => lookupKey(columns, row)) : undefined;
    this.table.lookups.forEach((_, i) => {
      const index = this.indexes![i]!;
      const [from, to] = [before?.[i], after?.[i]];
      if (from === to) return;
      if (from !== undefined) index.get(from)?.delete(key);
      if (to !== undefined) {
        let keys = index.get(to);
        if (!keys) index.set(to, (keys = new Set()));
        keys.add(key);
      }
    });
    if (after) this.indexedAs.set(key, after);
    else this.indexedAs.delete(key);
  }
}

function valueKey(value: unknown): string {
  if (typeof value === 'string') return value;
  return value instanceof Date ? value.toISOString() : String(value);
}

/** undefined when a column is null: a null matches nothing, as in SQL. */
function lookupKey(columns: readonly string[], row: AnyRow): string | undefined {
  const parts: string[] = [];
  for (const column of columns) {
    const value = row[column];
    if (value === null || value === undefined) return undefined;
    parts.push(valueKey(value));
  }
  return parts.join('\u0000');
}

/** By table name, each column's SQL type as a cast names it ("timestamp with time zone"). */
export type ColumnTypes = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** Where a store's statements go: a transaction, or in a rebuild whatever the replay hands it. */
export interface RowExecutor {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

export class RowStore {
  private readonly complete: boolean;
  private readonly tables = new Map<string, TableState>();
  private readonly beforeFlush = new Map<string, () => Promise<void>>();
  private executor: RowExecutor | undefined;
  private readonly columnTypes: ColumnTypes | undefined;

  /**
   * `complete`: the store writes every row its tables will ever hold, from empty tables (a rebuild's scratch
   * copies), so a key it has not written is known absent and lookups are answered from memory. `columnTypes`: its
   * tables' column types, known to a rebuild; with them rows go out a column at a time (rowWrites).
   */
  constructor(tables: readonly AnyRowTable[], options: { executor?: RowExecutor; complete?: boolean; columnTypes?: ColumnTypes } = {}) {
    this.complete = options.complete ?? false;
    for (const table of tables) this.tables.set(table.name, new TableState(table, this.complete));
    this.executor = options.executor;
    this.columnTypes = options.columnTypes;
  }

  /** Where the next reads and writes go (a rebuild keeps its store from batch to batch). */
  use(executor: RowExecutor): void {
    this.executor = executor;
  }

  private async run<R = AnyRow>(text: string, parameters: readonly unknown[]): Promise<R[]> {
    if (!this.executor) throw new Error('RowStore used outside a transaction');
    return (await this.executor.executeQuery(CompiledQuery.raw(text, [...parameters]) as CompiledQuery<R>)).rows;
  }

  private state(table: AnyRowTable): TableState {
    const state = this.tables.get(table.name);
    if (!state) throw new Error(`Table ${table.name} is not one of this projection's tables`);
    return state;
  }

  async get<T extends TableName>(table: RowTable<T>, key: Partial<Insertable<Tables[T]>>): Promise<StoredRow<T> | undefined> {
    const state = this.state(table);
    const entry = await this.entryOf(state, key as AnyRow);
    return (entry.row ?? undefined) as StoredRow<T> | undefined;
  }

  /** Inserts the row, or replaces the one with its key. The store keeps the object given: build a new one each time. */
  put<T extends TableName>(table: RowTable<T>, row: Insertable<Tables[T]>): void {
    const state = this.state(table);
    const stored = row as AnyRow;
    const key = state.keyOf(stored);
    const entry = state.entries.get(key);
    state.reindex(key, stored);
    // Inserted where the key was found free: still not in the database.
    state.entries.set(key, { row: stored, loaded: false, write: entry?.write === 'insert' ? 'insert' : 'upsert', changed: undefined });
    state.touch(key);
  }

  /** Inserts the row unless one with its key exists; says whether it did. The store keeps the object given, as `put`. */
  async insertIfAbsent<T extends TableName>(table: RowTable<T>, row: Insertable<Tables[T]>): Promise<boolean> {
    const state = this.state(table);
    const entry = await this.entryOf(state, row as AnyRow);
    if (entry.row) return false;
    const stored = row as AnyRow;
    const key = state.keyOf(stored);
    state.reindex(key, stored);
    // A delete still waiting means the row is in the database yet: replace it.
    state.entries.set(key, { row: stored, loaded: false, write: entry.write === 'delete' ? 'upsert' : 'insert', changed: undefined });
    state.touch(key);
    return true;
  }

  /** Sets columns of the row with this key, if there is one. */
  async update<T extends TableName>(table: RowTable<T>, key: Partial<Insertable<Tables[T]>>, changes: Partial<Insertable<Tables[T]>>): Promise<void> {
    const state = this.state(table);
    const id = state.keyOf(key as AnyRow);
    const changed = changes as AnyRow;
    let entry = state.entries.get(id);
    if (!entry && state.stored && !state.stored.has(id)) return;
    // A row's lookup values must be known whole to file it under them.
    const movesInIndex = state.indexes !== undefined && Object.keys(changed).some((column) => state.lookupColumns.has(column));
    if (movesInIndex) entry = await this.entryOf(state, key as AnyRow);
    if (!entry || entry.row === undefined) {
      // Not read: the changes wait and go out as an UPDATE, with no need to read the row.
      if (entry) Object.assign(entry.changed!, changed);
      else state.entries.set(id, { row: undefined, loaded: false, write: 'columns', changed: { ...changed } });
      state.touch(id);
      return;
    }
    if (entry.row === null) return;
    Object.assign(entry.row, changed);
    state.reindex(id, entry.row);
    if (entry.write === 'none' || entry.write === 'columns') {
      // A row as read back is changed column by column; one written here is written whole.
      if (entry.loaded) entry.changed = { ...entry.changed, ...changed };
      entry.write = entry.loaded ? 'columns' : 'upsert';
    }
    state.touch(id);
  }

  /** Deletes the row with this key, if there is one. */
  async delete<T extends TableName>(table: RowTable<T>, key: Partial<Insertable<Tables[T]>>): Promise<void> {
    const state = this.state(table);
    const id = state.keyOf(key as AnyRow);
    const entry = state.entries.get(id);
    if (entry?.row === null) return;
    state.reindex(id, null);
    // A row inserted here after its key was found free is not in the database: nothing to delete there.
    const inDatabase = entry?.write !== 'insert' && (state.stored?.has(id) ?? true);
    state.entries.set(id, { row: null, loaded: false, write: inDatabase ? 'delete' : 'none', changed: undefined });
    if (inDatabase) state.touch(id);
    else state.dirty.delete(id);
  }

  /** The rows whose columns equal `where`; in a complete store `where` must name one of the table's lookups. */
  async find<T extends TableName>(table: RowTable<T>, where: Partial<Insertable<Tables[T]>>): Promise<StoredRow<T>[]> {
    const state = this.state(table);
    const columns = Object.keys(where);
    const filter = where as AnyRow;
    if (columns.some((column) => filter[column] === null || filter[column] === undefined)) return [];
    if (state.indexes) {
      const lookup = table.lookups.findIndex((l) => l.length === columns.length && l.every((c) => columns.includes(c)));
      if (lookup < 0) throw new Error(`No lookup of ${table.name} by ${columns.join(', ')}`);
      const keys = [...(state.indexes[lookup]!.get(lookupKey(table.lookups[lookup]!, filter)!) ?? [])];
      await this.load(state, keys.filter((key) => state.entries.get(key)?.row === undefined));
      return keys.map((key) => state.entries.get(key)!.row as StoredRow<T>);
    }
    for (const statement of this.takeTableWrites(state)) await this.run(statement.sql, statement.parameters);
    const conditions = columns.map((column, i) => `${quotedIdentifier(column)} = $${i + 1}`).join(' and ');
    const rows = await this.run(`select * from ${quotedIdentifier(table.name)} where ${conditions}`, columns.map((column) => filter[column]));
    return rows.map((row) => {
      const key = state.keyOf(row);
      const entry = state.entries.get(key);
      if (entry?.row) return entry.row as StoredRow<T>;
      state.entries.set(key, { row, loaded: true, write: 'none', changed: undefined });
      return row as StoredRow<T>;
    });
  }

  /** Deletes the rows whose columns equal `where` (as `find`). */
  async deleteWhere<T extends TableName>(table: RowTable<T>, where: Partial<Insertable<Tables[T]>>): Promise<void> {
    for (const row of await this.find(table, where)) await this.delete(table, row as Partial<Insertable<Tables[T]>>);
  }

  /** Sets columns of the rows whose columns equal `where` (as `find`). */
  async updateWhere<T extends TableName>(table: RowTable<T>, where: Partial<Insertable<Tables[T]>>, changes: Partial<Insertable<Tables[T]>>): Promise<void> {
    const state = this.state(table);
    for (const row of await this.find(table, where)) {
      await this.update(table, keyColumns(state, row as AnyRow) as Partial<Insertable<Tables[T]>>, changes);
    }
  }

  /**
   * Runs `work` once before the next flush, however often it is asked for under this name: for what follows from
   * a whole batch (a count over many rows), done once per batch rather than once per event.
   */
  beforeNextFlush(name: string, work: () => Promise<void>): void {
    if (!this.beforeFlush.has(name)) this.beforeFlush.set(name, work);
  }

  /** Writes everything waiting, table by table. */
  async flush(): Promise<void> {
    await this.settle();
    for (const statement of this.takeWrites()) await this.run(statement.sql, statement.parameters);
  }

  /** Runs what waits for the batch's end (`beforeNextFlush`): after it, `takeWrites` has the batch's every write. */
  async settle(): Promise<void> {
    while (this.beforeFlush.size > 0) {
      const work = [...this.beforeFlush.values()];
      this.beforeFlush.clear();
      for (const run of work) await run();
    }
  }

  /**
   * The statements that write everything waiting, table by table; the store counts them written. The caller runs
   * them, in order, before anything reads those tables again (a rebuild runs them while its handlers go on).
   *
   * `quietRounds` (complete stores): only the rows left alone for that many takes go out; the others wait for a
   * take after they settle, or for the last take (without `quietRounds`). A rebuild takes its writes once a page, and
   * a row often changes again a page or so later (a card graded, then saved): held back, it is written once.
   */
  takeWrites(options: { quietRounds?: number } = {}): CompiledQuery[] {
    const quietRounds = this.complete ? (options.quietRounds ?? 0) : 0;
    const statements: CompiledQuery[] = [];
    for (const state of this.tables.values()) {
      statements.push(...this.takeTableWrites(state, quietRounds));
      state.round++;
      if (this.complete && state.entries.size > ROWS_KEPT_PER_TABLE) {
        // Rows still waiting stay: the database has not got them yet.
        for (const key of state.entries.keys()) if (!state.dirty.has(key)) state.entries.delete(key);
      }
    }
    return statements;
  }

  private async entryOf(state: TableState, keyRow: AnyRow): Promise<Entry> {
    const key = state.keyOf(keyRow);
    let entry = state.entries.get(key);
    if (entry && entry.row !== undefined) return entry;
    if (!entry && state.stored && !state.stored.has(key)) {
      entry = { row: null, loaded: false, write: 'none', changed: undefined };
      state.entries.set(key, entry);
      return entry;
    }
    await this.load(state, [key], [keyRow]);
    return state.entries.get(key)!;
  }

  /** Reads rows by key into the store; those with changes waiting get them on top. */
  private async load(state: TableState, keys: readonly string[], keyRows?: readonly AnyRow[]): Promise<void> {
    if (keys.length === 0) return;
    const { table } = state;
    const parameters: unknown[] = [];
    const condition = matchKeys(table, keyRows ?? keys.map((key) => this.keyRowOf(state, key)), parameters);
    const rows = await this.run(`select * from ${quotedIdentifier(table.name)} where ${condition}`, parameters);
    const found = new Map(rows.map((row) => [state.keyOf(row), row]));
    for (const key of keys) {
      const row = found.get(key) ?? null;
      const waiting = state.entries.get(key);
      if (waiting?.row === undefined && waiting?.changed) {
        if (row) Object.assign(row, waiting.changed);
        state.entries.set(key, { row, loaded: true, write: row ? 'columns' : 'none', changed: waiting.changed });
      } else {
        state.entries.set(key, { row, loaded: true, write: 'none', changed: undefined });
      }
    }
  }

  /** A complete store's key back to its columns, from the row it indexed (rows are only forgotten after a flush). */
  private keyRowOf(state: TableState, key: string): AnyRow {
    const parts = state.table.key.length === 1 ? [key] : key.split('\u0000');
    return Object.fromEntries(state.table.key.map((column, i) => [column, parts[i]]));
  }

  private takeTableWrites(state: TableState, quietRounds = 0): CompiledQuery[] {
    if (state.dirty.size === 0) return [];
    const { table } = state;
    const taken: string[] = [];
    const takenEntries: Entry[] = [];
    const deletes: AnyRow[] = [];
    state.dirty.forEach((changedIn, key) => {
      if (state.round - changedIn < quietRounds) return;
      const entry = state.entries.get(key)!;
      taken.push(key);
      takenEntries.push(entry);
      if (entry.write === 'delete') deletes.push(this.keyRowOf(state, key));
    });
    const statements: CompiledQuery[] = [];
    // Deletes first: a row gone never stands in another's way. The rest in the order they were last changed, rows
    // of one kind in a run going out in one statement, so a unique value one row gives up is free before another
    // takes it (one default address per user).
    for (const chunk of chunked(deletes, table.key.length)) {
      const parameters: unknown[] = [];
      statements.push(CompiledQuery.raw(`delete from ${quotedIdentifier(table.name)} where ${matchKeys(table, chunk, parameters)}`, parameters));
    }
    // A complete store knows which keys its tables hold: a row of any other key goes in by COPY (copy-rows.ts).
    const copied: AnyRow[] = [];
    let run: AnyRow[] = [];
    let runMode: 'insert' | 'upsert' = 'upsert';
    const endRun = () => {
      statements.push(...rowWrites(table, run, runMode, this.columnTypes?.get(table.name)));
      run = [];
    };
    for (let i = 0; i < taken.length; i++) {
      const [key, entry] = [taken[i]!, takenEntries[i]!];
      if (entry.write === 'columns') {
        endRun();
        const keyRow = entry.row ? keyColumns(state, entry.row) : this.keyRowOf(state, key);
        const changed = Object.entries(entry.changed!);
        const parameters = changed.map(([, value]) => value);
        const sets = changed.map(([column], i) => `${quotedIdentifier(column)} = $${i + 1}`).join(', ');
        const where = matchKeys(table, [keyRow], parameters);
        statements.push(CompiledQuery.raw(`update ${quotedIdentifier(table.name)} set ${sets} where ${where}`, parameters));
      } else if (entry.write === 'insert' || entry.write === 'upsert') {
        if (state.stored && !state.stored.has(key)) {
          copied.push(entry.row!);
          continue;
        }
        // A complete store knows an inserted key is free: one kind of statement does for both.
        const mode = entry.write === 'insert' && !this.complete ? 'insert' : 'upsert';
        if (mode !== runMode) endRun();
        runMode = mode;
        run.push(entry.row!);
      }
    }
    endRun();
    for (const { columns, rows } of rowsOfSameColumns(copied)) statements.push(copyRows(table.name, columns, rows));

    for (let i = 0; i < taken.length; i++) {
      const [key, entry] = [taken[i]!, takenEntries[i]!];
      state.dirty.delete(key);
      if (entry.row === undefined) {
        // Changed without being read: what the row is now is not known here.
        state.entries.delete(key);
        continue;
      }
      state.stored?.[entry.row === null ? 'delete' : 'add'](key);
      entry.write = 'none';
      entry.changed = undefined;
    }
    return statements;
  }

}

/**
 * Multi-row INSERT ... ON CONFLICT, its text and parameters built here rather than through Kysely's query builder:
 * a rebuild writes hundreds of thousands of rows, and building a tree of nodes per value to compile it again cost
 * more than the database took to write them. Where the column types are known (a rebuild's tables), the rows go as
 * one array per column through unnest: PostgreSQL parses a statement of a few parameters instead of one of
 * thousands, which took it 2.5-3.5 times as long as the insert itself (1,000 card_grades rows: 84-157 ms against
 * 24-60 ms). Else one parameter per value, in VALUES lists.
 */
function rowWrites(table: AnyRowTable, rows: readonly AnyRow[], mode: 'insert' | 'upsert', types?: ReadonlyMap<string, string>): CompiledQuery[] {
  if (rows.length === 0) return [];
  if (types) return rowsOfSameColumns(rows).flatMap((group) => columnWrites(table, group.columns, group.rows, mode, types));
  const columns = definedColumns(rows);
  const head = `insert into ${quotedIdentifier(table.name)} (${columns.map(quotedIdentifier).join(', ')}) values `;
  return chunked(rows, columns.length).map((chunk) => {
    const parameters: unknown[] = [];
    const tuples: string[] = [];
    for (const row of chunk) {
      const cells: string[] = [];
      for (const column of columns) {
        const value = row[column];
        cells.push(value === undefined ? 'default' : `$${parameters.push(value)}`);
      }
      tuples.push(`(${cells.join(', ')})`);
    }
    return CompiledQuery.raw(`${head}${tuples.join(', ')} ${onConflict(table, columns, mode)}`, parameters);
  });
}

/** INSERT ... SELECT FROM unnest of one array per column: rows that all give the same columns. */
function columnWrites(
  table: AnyRowTable,
  columns: readonly string[],
  rows: readonly AnyRow[],
  mode: 'insert' | 'upsert',
  types: ReadonlyMap<string, string>,
): CompiledQuery[] {
  const arrays = columns.map((column, i) => {
    const type = types.get(column);
    if (!type) throw new Error(`Table ${table.name} has no column ${column}`);
    return `$${i + 1}::${type}[]`;
  });
  const text = `insert into ${quotedIdentifier(table.name)} (${columns.map(quotedIdentifier).join(', ')}) select * from unnest(${arrays.join(', ')}) ${onConflict(table, columns, mode)}`;
  const statements: CompiledQuery[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_COLUMN_WRITE) {
    const chunk = rows.slice(i, i + ROWS_PER_COLUMN_WRITE);
    statements.push(CompiledQuery.raw(text, columns.map((column) => chunk.map((row) => row[column]))));
  }
  return statements;
}

/** Rows per statement when rows go a column at a time. */
const ROWS_PER_COLUMN_WRITE = 5_000;

/** The columns any of the rows gives a value. */
function definedColumns(rows: readonly AnyRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const column in row) if (row[column] !== undefined) seen.add(column);
  return [...seen];
}

/**
 * The rows grouped by the columns they give values to (neither an array nor a COPY has a `default` for a missing
 * one), each group in the rows' order. Only a rebuild's store writes a column at a time or by COPY, and there the
 * order between groups does not matter: it holds one change per key, and its scratch tables have no unique index
 * but the key.
 */
function rowsOfSameColumns(rows: readonly AnyRow[]): { columns: string[]; rows: AnyRow[] }[] {
  const groups = new Map<string, { columns: string[]; rows: AnyRow[] }>();
  let last: { columns: string[]; rows: AnyRow[] } | undefined;
  for (const row of rows) {
    // Most rows of a table give the columns the row before gave: that is checked without naming them.
    if (!last || !givesExactly(row, last.columns)) {
      const columns: string[] = [];
      for (const column in row) if (row[column] !== undefined) columns.push(column);
      const name = columns.join('\u0000');
      last = groups.get(name);
      if (!last) groups.set(name, (last = { columns, rows: [] }));
    }
    last.rows.push(row);
  }
  return [...groups.values()];
}

/** Whether the row gives values to these columns, in this order, and no others. */
function givesExactly(row: AnyRow, columns: readonly string[]): boolean {
  let i = 0;
  for (const column in row) {
    if (row[column] === undefined) continue;
    if (columns[i++] !== column) return false;
  }
  return i === columns.length;
}

function onConflict(table: AnyRowTable, columns: readonly string[], mode: 'insert' | 'upsert'): string {
  const keyColumns = new Set<string>(table.key);
  const updated = columns.filter((column) => !keyColumns.has(column));
  const key = table.key.map(quotedIdentifier).join(', ');
  if (mode === 'insert' || updated.length === 0) return `on conflict (${key}) do nothing`;
  return `on conflict (${key}) do update set ${updated.map((column) => `${quotedIdentifier(column)} = excluded.${quotedIdentifier(column)}`).join(', ')}`;
}

function keyColumns(state: TableState, row: AnyRow): AnyRow {
  return Object.fromEntries(state.table.key.map((column) => [column, row[column]]));
}

/** `key in (...)` for these keys, their values appended to `parameters`. */
function matchKeys(table: AnyRowTable, keys: readonly AnyRow[], parameters: unknown[]): string {
  const tuple = (key: AnyRow) => table.key.map((column) => `$${parameters.push(key[column])}`).join(', ');
  if (table.key.length === 1) return `${quotedIdentifier(table.key[0]!)} in (${keys.map(tuple).join(', ')})`;
  return `(${table.key.map(quotedIdentifier).join(', ')}) in (${keys.map((key) => `(${tuple(key)})`).join(', ')})`;
}

function chunked<T>(rows: readonly T[], parametersPerRow: number): T[][] {
  const size = Math.max(1, Math.min(1_000, Math.floor(PARAMETERS_PER_STATEMENT / Math.max(1, parametersPerRow))));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}
