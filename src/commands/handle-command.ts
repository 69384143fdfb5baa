import type { Decider, DomainEvent } from '../domain/decider.ts';
import type { EventMetadata, EventStore, NewEvent, RecordedEvent } from '../infra/event-store/types.ts';
import { WrongExpectedVersionError } from '../infra/event-store/types.ts';

export interface CommandContext {
  store: EventStore;
  metadata: EventMetadata;
}

export interface HandleCommandInput<State, Command, Event extends DomainEvent> {
  streamId: string;
  streamType: string;
  decider: Decider<State, Command, Event>;
  command: Command;
  /**
   * Ids for the new events, by index. Deterministic ids (for example from the command id) make
   * a retried command idempotent: the store returns the first result instead of appending again.
   */
  eventId?: (index: number) => string;
  /** Times to re-read and decide again when another writer got there first. */
  retries?: number;
}

export interface HandleCommandResult<State> {
  state: State;
  version: number;
  events: RecordedEvent[];
}

/** Read the stream, fold it, decide, append at the version read. On a conflict, do it all again. */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  context: CommandContext,
  input: HandleCommandInput<State, Command, Event>,
): Promise<HandleCommandResult<State>> {
  const { decider } = input;
  for (let attempt = 0; ; attempt++) {
    const { version, events: past } = await context.store.readStream(input.streamId);
    let state = past.reduce((s, e) => decider.evolve(s, e as unknown as Event), decider.initialState());
    const decided = decider.decide(input.command, state);
    if (decided.length === 0) return { state, version, events: [] };
    const toAppend: NewEvent[] = decided.map((event, index) => ({
      ...(input.eventId ? { id: input.eventId(index) } : {}),
      type: event.type,
      data: event.data,
      metadata: context.metadata,
    }));
    try {
      const result = await context.store.append(input.streamId, input.streamType, toAppend, {
        expected: version === 0 ? 'no_stream' : version,
      });
      state = decided.reduce((s, e) => decider.evolve(s, e), state);
      return { state, version: result.version, events: result.events };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError && attempt < (input.retries ?? 3)) continue;
      throw error;
    }
  }
}
