import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../src/infra/database/schema.ts';
import type { EventMetadata, NewEvent, Projection } from '../../src/infra/event-store/index.ts';

// Test-only projections: real ones come from the features.

export const metadata: EventMetadata = { actor: { kind: 'system', id: 'test' }, commandId: 'c', timestamp: '2025-01-01T00:00:00.000Z' };
export const newEvent = (type: string, data: unknown = {}): NewEvent => ({ type, data, metadata });
export const uniqueName = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 10)}`;

/**
 * Logs every delivery (no key, so a second delivery shows as a second row) and who applied it.
 * `failWhen` throws after the batch has been written, before the runner can checkpoint it.
 */
export async function deliveryLog(
  db: Kysely<Tables>,
  options: { handles?: readonly string[]; appliedBy?: string; failWhen?: (types: string[]) => boolean; name?: string; table?: string } = {},
): Promise<Projection & { table: string; deliveries(): Promise<{ event_id: string; global_position: number; applied_by: string }[]> }> {
  const table = options.table ?? uniqueName('deliveries');
  await sql`create table if not exists ${sql.id(table)} (event_id uuid not null, global_position bigint not null, applied_by text not null)`.execute(db);
  return {
    name: options.name ?? table,
    handles: options.handles ?? ['Ticked'],
    tables: [table],
    table,
    async apply(trx, events) {
      for (const event of events) {
        await sql`insert into ${sql.id(table)} values (${event.eventId}, ${event.globalPosition}, ${options.appliedBy ?? 'runner'})`.execute(trx);
      }
      if (options.failWhen?.(events.map((e) => e.type))) throw new Error('boom: projection failed after writing');
    },
    async deliveries() {
      const { rows } = await sql<{ event_id: string; global_position: number; applied_by: string }>`
        select event_id, global_position, applied_by from ${sql.id(table)} order by global_position`.execute(db);
      return rows;
    },
  };
}

/** Balances per account: order-sensitive within a stream, with a generated column and an index. */
export async function balancesProjection(db: Kysely<Tables>, table = uniqueName('balances')): Promise<Projection> {
  await sql`create table ${sql.id(table)} (
    account_id text primary key,
    balance integer not null,
    movements integer not null,
    last_position bigint not null,
    overdrawn boolean generated always as (balance < 0) stored
  )`.execute(db);
  await sql`create index ${sql.id(`${table}_balance`)} on ${sql.id(table)} (balance)`.execute(db);
  return {
    name: table,
    handles: ['Deposited', 'Withdrawn'],
    tables: [table],
    async apply(trx, events) {
      for (const event of events) {
        const amount = (event.data as { amount: number }).amount * (event.type === 'Withdrawn' ? -1 : 1);
        await sql`insert into ${sql.id(table)} (account_id, balance, movements, last_position)
          values (${event.streamId}, ${amount}, 1, ${event.streamPosition})
          on conflict (account_id) do update set balance = ${sql.id(table)}.balance + excluded.balance,
            movements = ${sql.id(table)}.movements + 1, last_position = excluded.last_position`.execute(trx);
      }
    },
  };
}

/** Totals per event type, with the largest amount seen: an async read model. */
export async function totalsProjection(db: Kysely<Tables>, table = uniqueName('totals')): Promise<Projection> {
  await sql`create table ${sql.id(table)} (event_type text primary key, count integer not null, largest integer not null)`.execute(db);
  return {
    name: table,
    handles: ['Deposited', 'Withdrawn'],
    tables: [table],
    async apply(trx, events) {
      for (const event of events) {
        const amount = (event.data as { amount: number }).amount;
        await sql`insert into ${sql.id(table)} values (${event.type}, 1, ${amount})
          on conflict (event_type) do update set count = ${sql.id(table)}.count + 1,
            largest = greatest(${sql.id(table)}.largest, excluded.largest)`.execute(trx);
      }
    },
  };
}

export async function tableRows(db: Kysely<Tables>, table: string): Promise<unknown[]> {
  const { rows } = await sql`select * from ${sql.id(table)} order by 1`.execute(db);
  return rows;
}
