import type { ColumnType, Generated } from 'kysely';

// The event store's tables (migration 0001-event-store). JSON goes in as text and comes out parsed.
type Json = ColumnType<unknown, string, never>;

export interface EsStreamsTable {
  stream_id: string;
  stream_type: string;
  /** The last stream position written; 0 only inside the transaction that creates the stream. */
  version: number;
}

export interface EsEventsTable {
  global_position: ColumnType<number, never, never>;
  /** xid8; selected as text because it can exceed 2^53. */
  transaction_id: ColumnType<string, never, never>;
  stream_id: string;
  stream_position: number;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: Json;
  metadata: Json;
  recorded_at: Date;
}

/** One row per async projection: where it has got to, whether it is stopped, and who runs it. */
export interface EsSubscriptionsTable {
  name: string;
  checkpoint_transaction_id: ColumnType<string, string | undefined, string>;
  checkpoint_global_position: Generated<number>;
  status: ColumnType<'running' | 'failed', 'running' | 'failed' | undefined, 'running' | 'failed'>;
  last_error: string | null;
  failed_at: Date | null;
  owner: string | null;
  lease_expires_at: Date | null;
  updated_at: Generated<Date>;
}

export interface EventStoreTables {
  es_streams: EsStreamsTable;
  es_events: EsEventsTable;
  es_subscriptions: EsSubscriptionsTable;
}
