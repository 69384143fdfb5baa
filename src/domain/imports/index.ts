// Bulk imports: events, the deciders of an import and of its rows, reading rows from a sheet's cells, and a row's
// reason in plain words. Pure.
export * from './events.ts';
export * from './import.ts';
export * from './sheet-rows.ts';
export * from './plain-reason.ts';
