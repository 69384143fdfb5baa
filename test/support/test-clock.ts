import type { Clock } from '../../src/infra/clock/clock.ts';

/** A clock a test moves by hand (`time`, in ms since the epoch): expiries and rate-limit windows without waiting. */
export class TestClock implements Clock {
  time = Date.parse('2026-03-01T12:00:00.000Z');
  now() {
    return new Date(this.time);
  }
}
