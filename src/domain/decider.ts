// The shape of every aggregate (Emmett's deciders): state folded from past events,
// one pure function per command, and `decide` switching over commands exhaustively.
// Domain events carry only type and data; ids, metadata and positions are the store's business.

export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export interface Decider<State, Command, Event extends DomainEvent> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  /** Returns the events the command produces; throws an AppError when the command is refused. */
  decide(command: Command, state: State): Event[];
}

/** Makes a switch exhaustive: the compiler complains when a case is missing. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
