export { startProjectionRunners, type ProjectionRunnerOptions } from './runner.ts';
export { dropAbandonedRebuilds, rebuildProjection, type RebuildOptions } from './rebuild.ts';
export { projectionStatus, resetFailed, type ProjectionStatus } from './subscriptions.ts';
export { listParked, retryParked, type ParkedEvent } from './parked.ts';
