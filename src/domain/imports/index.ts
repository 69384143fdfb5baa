// Bulk imports: events, the deciders of an import and of its rows, and reading rows from a sheet's cells. Pure.
export * from './events.ts';
export * from './import.ts';
export * from './sheet-rows.ts';
