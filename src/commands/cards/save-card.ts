import type { Owner } from '../../domain/accounts/identity.ts';
import { cardDecider } from '../../domain/cards/index.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import { handleCommand } from '../handle-command.ts';
import { gradeCard, type GradeCardDeps, type GradeCardInput, type GradeCardOutcome } from './grade-card.ts';
import { cardStream } from './streams.ts';

// SaveCard: a graded card joins its owner's collection (issue 18: grading is not saving). Owner only, like delete;
// saving twice is one card. Sample cards are saved marked as samples.

export async function saveCard(
  context: { store: EventStore; metadata: EventMetadata },
  input: { cardId: string; requestedBy: Owner; sample?: boolean },
): Promise<{ saved: boolean }> {
  const { events } = await handleCommand(context, {
    ...cardStream(input.cardId),
    decider: cardDecider,
    command: { type: 'SaveCard', data: { cardId: input.cardId, requestedBy: input.requestedBy, sample: input.sample ?? false, savedAt: context.metadata.timestamp } },
  });
  return { saved: events.length > 0 };
}

/** SPEC.md's save to collection by images: graded if these photos were not yet (or the card was deleted), then saved. */
export async function gradeAndSaveCard(deps: GradeCardDeps, input: GradeCardInput & { sample?: boolean }): Promise<GradeCardOutcome & { saved: boolean }> {
  const graded = await gradeCard(deps, input);
  const { saved } = await saveCard({ store: deps.store, metadata: input.metadata }, { cardId: graded.cardId, requestedBy: input.owner, sample: input.sample ?? false });
  return { ...graded, saved };
}
