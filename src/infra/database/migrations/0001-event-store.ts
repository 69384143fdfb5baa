import { sql, type Kysely } from 'kysely';

// The event store of DESIGN.md §3: streams, the append-only event log, and async subscriptions' checkpoints.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table es_streams (
    stream_id text primary key,
    stream_type text not null,
    version bigint not null default 0
  )`.execute(db);

  await sql`create table es_events (
    global_position bigint generated always as identity,
    transaction_id xid8 not null default pg_current_xact_id(),
    stream_id text not null references es_streams (stream_id),
    stream_position bigint not null,
    event_id uuid not null,
    event_type text not null,
    schema_version integer not null default 1,
    data jsonb not null,
    metadata jsonb not null,
    recorded_at timestamptz not null,
    primary key (stream_id, stream_position),
    constraint es_events_event_id_key unique (event_id),
    constraint es_events_global_position_key unique (global_position)
  )`.execute(db);
  // The global log is read in (transaction_id, global_position) order (commit-safe; see event-store.ts).
  await sql`create index es_events_commit_order on es_events (transaction_id, global_position)`.execute(db);

  await sql`create function es_events_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'es_events is append-only: % refused', tg_op using errcode = 'restrict_violation';
    end
  $$`.execute(db);
  await sql`create trigger es_events_append_only before update or delete on es_events
    for each row execute function es_events_refuse_change()`.execute(db);
  await sql`create trigger es_events_no_truncate before truncate on es_events
    for each statement execute function es_events_refuse_change()`.execute(db);

  await sql`create table es_subscriptions (
    name text primary key,
    checkpoint_transaction_id xid8 not null default '0',
    checkpoint_global_position bigint not null default 0,
    status text not null default 'running' check (status in ('running', 'failed')),
    last_error text,
    failed_at timestamptz,
    owner text,
    lease_expires_at timestamptz,
    updated_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table es_subscriptions`.execute(db);
  await sql`drop table es_events`.execute(db);
  await sql`drop function es_events_refuse_change()`.execute(db);
  await sql`drop table es_streams`.execute(db);
}
