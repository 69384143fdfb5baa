export * from './types.ts';
export type { EsEventsTable, EsStreamsTable, EsSubscriptionsTable, EventStoreTables } from './tables.ts';
export { createEventStore, EVENTS_CHANNEL, type EventStoreInternals, type EventStoreOptions } from './event-store.ts';
