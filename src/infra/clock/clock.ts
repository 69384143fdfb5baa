import { randomUUID } from 'node:crypto';

/** Time and identity, injected so domain code and tests stay deterministic. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export interface IdGenerator {
  uuid(): string;
}
export const randomIds: IdGenerator = { uuid: () => randomUUID() };
