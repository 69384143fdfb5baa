export { startProjectionRunners, type ProjectionRunnerOptions } from './runner.ts';
export { dropAbandonedRebuilds, rebuildProjection, rebuildProjections, type RebuildOptions, type RebuildTarget } from './rebuild.ts';
export { projectionStatus, resetFailed, type ProjectionStatus } from './subscriptions.ts';
export { listParked, retryParked, type ParkedEvent } from './parked.ts';
export { rowProjection, isRowProjection, type RowProjection } from './row-projection.ts';
export { jsonColumn, rowTable, RowStore, type RowTable, type StoredRow } from './row-store.ts';
