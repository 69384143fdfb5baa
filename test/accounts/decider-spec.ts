import { expect } from 'vitest';
import { AppError } from '../../src/contracts/errors.ts';
import type { Decider, DomainEvent } from '../../src/domain/decider.ts';

/** given(past events).when(command).then(new events) or .thenRefuses(code): decider tests read like the domain. */
export function specify<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return (given: Event[]) => ({
    when(command: Command) {
      const state = given.reduce(decider.evolve, decider.initialState());
      const run = () => decider.decide(command, state);
      return {
        then(expected: Event[]) {
          expect(run()).toEqual(expected);
        },
        thenRefuses(code: string) {
          let caught: unknown;
          try {
            run();
          } catch (error) {
            caught = error;
          }
          expect(caught).toBeInstanceOf(AppError);
          expect((caught as AppError).code).toBe(code);
        },
      };
    },
  });
}
