import type { Upcaster } from './types.ts';

// THE registry of upcasters: when an event's payload changes shape, bump its schema version where it is written,
// and add one line here that lifts the old version by one. Every store reads through these unless told otherwise.
export const upcasters: readonly Upcaster[] = [];
