export * from './types.ts';
export type { EsEventsTable, EsStreamsTable, EsSubscriptionsTable, EventStoreTables } from './tables.ts';
export { applyInline, createEventStore, EVENTS_CHANNEL, upcastStored, type EventStoreOptions } from './event-store.ts';
export { upcasters } from './upcasters.ts';
