import { sql, type Kysely, type Transaction } from 'kysely';
import type { Tables } from '../../infra/database/schema.ts';
import type { Checkpoint, Projection } from '../../infra/event-store/types.ts';

// The es_subscriptions row of an async projection: its checkpoint, whether it is stopped, and its owner's lease.
// Leases use the database's clock, so runners on several machines agree on when one has expired.

export async function ensureSubscription(db: Kysely<Tables>, name: string): Promise<void> {
  await db
    .insertInto('es_subscriptions')
    .values({ name })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}

/**
 * Takes or renews the lease and locks the row until `trx` ends; undefined when another owner holds a live lease,
 * the row is locked (another batch or a rebuild's swap: no waiting), or the subscription is failed.
 * Every batch starts here, so a runner that has lost its lease cannot write.
 */
export async function claimForBatch(
  trx: Transaction<Tables>,
  name: string,
  owner: string,
  leaseMs: number,
): Promise<Checkpoint | undefined> {
  const row = await trx
    .updateTable('es_subscriptions')
    .set({
      owner,
      lease_expires_at: sql<Date>`now() + ${leaseMs} * interval '1 millisecond'`,
      updated_at: sql<Date>`now()`,
    })
    .where('name', '=', (eb) =>
      eb
        .selectFrom('es_subscriptions')
        .select('name')
        .where('name', '=', name)
        .where('status', '=', 'running')
        .where((eb) => eb.or([eb('owner', 'is', null), eb('owner', '=', owner), eb('lease_expires_at', '<', sql<Date>`now()`)]))
        .forUpdate()
        .skipLocked(),
    )
    .returning([sql<string>`checkpoint_transaction_id::text`.as('transaction_id'), 'checkpoint_global_position'])
    .executeTakeFirst();
  return row && { transactionId: row.transaction_id, globalPosition: row.checkpoint_global_position };
}

export async function advanceCheckpoint(trx: Transaction<Tables>, name: string, checkpoint: Checkpoint): Promise<void> {
  await trx
    .updateTable('es_subscriptions')
    .set({
      checkpoint_transaction_id: sql<string>`${checkpoint.transactionId}::xid8`,
      checkpoint_global_position: checkpoint.globalPosition,
      updated_at: sql<Date>`now()`,
    })
    .where('name', '=', name)
    .execute();
}

/** Stops the subscription with the error recorded; `resetFailed` starts it again from the same checkpoint. */
export async function markFailed(db: Kysely<Tables>, name: string, error: string): Promise<void> {
  await db
    .updateTable('es_subscriptions')
    .set({ status: 'failed', last_error: error, failed_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('name', '=', name)
    .execute();
}

export async function releaseLeases(db: Kysely<Tables>, owner: string): Promise<void> {
  await db.updateTable('es_subscriptions').set({ owner: null, lease_expires_at: null }).where('owner', '=', owner).execute();
}

/** Returns the names it started again. */
export async function resetFailed(db: Kysely<Tables>, names?: readonly string[]): Promise<string[]> {
  let query = db
    .updateTable('es_subscriptions')
    .set({ status: 'running', last_error: null, failed_at: null, updated_at: sql<Date>`now()` })
    .where('status', '=', 'failed');
  if (names) query = query.where('name', 'in', names.length > 0 ? names : ['']);
  const rows = await query.returning('name').execute();
  return rows.map((row) => row.name).sort();
}

export interface ProjectionStatus {
  name: string;
  kind: 'inline' | 'async';
  /** Inline projections are always current; 'not started' is an async one no runner has claimed yet. */
  status: 'running' | 'failed' | 'not started' | 'inline';
  checkpoint?: Checkpoint;
  /** Events it handles that are in the log beyond its checkpoint. */
  lag: number;
  owner?: string;
  leaseExpiresAt?: Date;
  lastError?: string;
  failedAt?: Date;
}

export async function projectionStatus(
  db: Kysely<Tables>,
  projections: { inline: readonly Projection[]; async: readonly Projection[] },
): Promise<ProjectionStatus[]> {
  const rows = await db
    .selectFrom('es_subscriptions')
    .select([
      'name',
      'status',
      sql<string>`checkpoint_transaction_id::text`.as('transaction_id'),
      'checkpoint_global_position',
      'owner',
      'lease_expires_at',
      'last_error',
      'failed_at',
    ])
    .execute();
  const byName = new Map(rows.map((row) => [row.name, row]));
  const statuses: ProjectionStatus[] = projections.inline.map((p) => ({ name: p.name, kind: 'inline', status: 'inline', lag: 0 }));
  for (const projection of projections.async) {
    const row = byName.get(projection.name);
    const checkpoint = row ? { transactionId: row.transaction_id, globalPosition: row.checkpoint_global_position } : undefined;
    statuses.push({
      name: projection.name,
      kind: 'async',
      status: row?.status ?? 'not started',
      ...(checkpoint ? { checkpoint } : {}),
      lag: await countAfter(db, projection.handles, checkpoint ?? { transactionId: '0', globalPosition: 0 }),
      ...(row?.owner ? { owner: row.owner } : {}),
      ...(row?.lease_expires_at ? { leaseExpiresAt: row.lease_expires_at } : {}),
      ...(row?.last_error ? { lastError: row.last_error } : {}),
      ...(row?.failed_at ? { failedAt: row.failed_at } : {}),
    });
  }
  return statuses;
}

async function countAfter(db: Kysely<Tables>, types: readonly string[], after: Checkpoint): Promise<number> {
  if (types.length === 0) return 0;
  const row = await db
    .selectFrom('es_events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(sql<boolean>`(transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition}::bigint)`)
    .where('event_type', 'in', types)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
