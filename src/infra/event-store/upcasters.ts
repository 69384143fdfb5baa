import { UNKNOWN_ENGINE } from '../../contracts/professional-grades.ts';
import type { Upcaster } from './types.ts';

// THE registry of upcasters: when an event's payload changes shape, add one line here that lifts the old version by
// one; events appended without a schema version are then written at the new one. Every store reads through these unless told otherwise.
export const upcasters: readonly Upcaster[] = [
  // CardGraded 1 → 2: the engine's version is recorded; grades from before say they do not know it.
  { type: 'CardGraded', fromVersion: 1, upcast: (data) => ({ ...(data as object), engine: UNKNOWN_ENGINE }) },
];
