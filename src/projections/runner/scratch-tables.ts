import { sql, type Kysely, type Transaction } from 'kysely';
import type { Tables } from '../../infra/database/schema.ts';
import { quotedIdentifier } from '../../infra/database/sql-identifier.ts';

// A rebuild's fresh tables: made empty in a scratch schema in the live tables' likeness, filled by the replay, then
// moved into the live tables' place. Moving a table is a change to the catalogue alone, however many rows it holds,
// where copying the rows under the swap's lock took a second or more per 100,000 events (issue 14).
//
// What a move would lose, it refuses up front (assertMovable): a foreign key, trigger or view attached to a live
// table, or a sequence one owns, belongs to that table and would go with it or be left pointing at it. Read models
// have none of these (their keys come from events, never serials), and a table that gets one must say how a rebuild
// treats it before it can be rebuilt.

type Executor = Kysely<Tables> | Transaction<Tables>;

export interface LiveTable {
  oid: number;
  schema: string;
  name: string;
}

interface LiveIndex {
  name: string;
  /** CREATE INDEX ... ON the live table. */
  indexDefinition: string;
  /** The constraint (primary key, unique, exclusion) the index is, if any: "PRIMARY KEY (id)". */
  constraintDefinition: string | null;
  primaryKey: boolean;
}

export async function resolveLiveTable(db: Executor, name: string): Promise<LiveTable | undefined> {
  const { rows } = await sql<{ oid: string; schema: string; name: string }>`
    select c.oid::int8 as oid, n.nspname as schema, c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.oid = to_regclass(${name})`.execute(db);
  const row = rows[0];
  return row && { oid: Number(row.oid), schema: row.schema, name: row.name };
}

/** Throws, naming them, when any of the tables has what a move would lose. */
export async function assertMovable(db: Executor, tables: readonly LiveTable[]): Promise<void> {
  const oids = sql.join(tables.map((table) => sql`${table.oid}::oid`));
  const { rows } = await sql<{ reason: string }>`
    select format('%s has foreign key %s', conrelid::regclass, conname) as reason from pg_constraint
      where contype = 'f' and (conrelid in (${oids}) or confrelid in (${oids}))
    union all
    select format('%s has trigger %s', tgrelid::regclass, tgname) from pg_trigger where not tgisinternal and tgrelid in (${oids})
    union all
    select distinct format('%s is used by view %s', d.refobjid::regclass, r.ev_class::regclass) from pg_depend d
      join pg_rewrite r on r.oid = d.objid
      where d.classid = 'pg_rewrite'::regclass and d.refobjid in (${oids}) and r.ev_class <> d.refobjid
    union all
    select format('%s owns sequence %s', d.refobjid::regclass, d.objid::regclass) from pg_depend d
      join pg_class s on s.oid = d.objid and s.relkind = 'S'
      where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.refobjid in (${oids})`.execute(db);
  if (rows.length > 0) {
    throw new Error(`A rebuild moves fresh tables into place, which these would not survive: ${rows.map((row) => row.reason).join('; ')}`);
  }
}

/**
 * An empty copy of the live table in the scratch schema: its columns, defaults and checks, and of its indexes the
 * primary key alone (`indexes: 'key'`: writes stay cheap, and an upsert has its key) or every one (`'all'`: a
 * projection's own statements may rely on any unique index). Logged like the table it will become: making an
 * unlogged table logged at the end rewrites it whole, which cost more than the log the replay's writes add.
 */
export async function createScratchTable(db: Executor, live: LiveTable, scratch: string, indexes: 'key' | 'all'): Promise<void> {
  await sql`create table ${sql.id(scratch, live.name)} (like ${sql.id(live.schema, live.name)} including all excluding indexes)`.execute(db);
  for (const index of await liveIndexes(db, live)) {
    if (indexes === 'all' || index.primaryKey) await addIndex(db, live, scratch, index);
  }
}

/**
 * Gives a filled scratch table every index of the live table it will replace, under the live index's name: built
 * once over all rows, rather than kept up row by row through the replay.
 */
export async function indexScratchTable(db: Executor, live: LiveTable, scratch: string): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select i.relname as name from pg_index x join pg_class i on i.oid = x.indexrelid
    where x.indrelid = to_regclass(${`${quotedIdentifier(scratch)}.${quotedIdentifier(live.name)}`})`.execute(db);
  const present = new Set(rows.map((row) => row.name));
  for (const index of await liveIndexes(db, live)) if (!present.has(index.name)) await addIndex(db, live, scratch, index);
}

/** The scratch copies' column types, by table and column, as a cast names them ("timestamp with time zone"). */
export async function scratchColumnTypes(db: Executor, tables: readonly LiveTable[], scratch: string): Promise<Map<string, Map<string, string>>> {
  const types = new Map<string, Map<string, string>>(tables.map((table) => [table.name, new Map()]));
  if (tables.length === 0) return types;
  const { rows } = await sql<{ table: string; column: string; type: string }>`
    select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${scratch} and c.relname in (${sql.join(tables.map((table) => table.name))}) and a.attnum > 0 and not a.attisdropped`.execute(db);
  for (const row of rows) types.get(row.table)?.set(row.column, row.type);
  return types;
}

/** In the swap's transaction, the live tables locked: drops them and moves the scratch copies into their place. */
export async function moveIntoPlace(trx: Transaction<Tables>, tables: readonly LiveTable[], scratch: string): Promise<void> {
  await sql`drop table ${sql.join(tables.map((table) => sql.id(table.schema, table.name)))}`.execute(trx);
  for (const table of tables) await sql`alter table ${sql.id(scratch, table.name)} set schema ${sql.id(table.schema)}`.execute(trx);
}

async function liveIndexes(db: Executor, live: LiveTable): Promise<LiveIndex[]> {
  const { rows } = await sql<{ name: string; index_definition: string; constraint_definition: string | null; primary_key: boolean }>`
    select i.relname as name, pg_get_indexdef(x.indexrelid) as index_definition,
      pg_get_constraintdef(con.oid) as constraint_definition, x.indisprimary as primary_key
    from pg_index x join pg_class i on i.oid = x.indexrelid
    left join pg_constraint con on con.conindid = x.indexrelid and con.conrelid = x.indrelid and con.contype in ('p', 'u', 'x')
    where x.indrelid = ${live.oid}::oid order by i.relname`.execute(db);
  return rows.map((row) => ({
    name: row.name,
    indexDefinition: row.index_definition,
    constraintDefinition: row.constraint_definition,
    primaryKey: row.primary_key,
  }));
}

/** The live table's index on the scratch copy, by the same name (names are per schema: no clash). */
async function addIndex(db: Executor, live: LiveTable, scratch: string, index: LiveIndex): Promise<void> {
  if (index.constraintDefinition !== null) {
    await sql`alter table ${sql.id(scratch, live.name)} add constraint ${sql.id(index.name)} ${sql.raw(index.constraintDefinition)}`.execute(db);
    return;
  }
  // pg_get_indexdef names the table schema-qualified: "CREATE INDEX name ON schema.table USING ...".
  const { rows } = await sql<{ on: string; onScratch: string }>`
    select ' ON ' || quote_ident(${live.schema}) || '.' || quote_ident(${live.name}) || ' ' as "on",
      ' ON ' || quote_ident(${scratch}) || '.' || quote_ident(${live.name}) || ' ' as "onScratch"`.execute(db);
  const { on, onScratch } = rows[0]!;
  if (!index.indexDefinition.includes(on)) throw new Error(`Cannot read index ${index.name}'s definition: ${index.indexDefinition}`);
  await sql.raw(index.indexDefinition.replace(on, onScratch)).execute(db);
}
