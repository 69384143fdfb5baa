import type { Owner } from '../../domain/accounts/identity.ts';
import { cardDecider, savedOnGrading, type CardGraded } from '../../domain/cards/index.ts';
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

/**
 * SPEC.md's save to collection by images: graded if these photos were not yet (or the card was deleted), then saved.
 * `savedByCommand`: the command that put the card in the collection, this one when `saved`, else an earlier one's
 * (the caller's own retry, another request, or a bulk import's other row with the same photos that saved it first).
 */
export async function gradeAndSaveCard(deps: GradeCardDeps, input: GradeCardInput & { sample?: boolean }): Promise<GradeCardOutcome & { saved: boolean; savedByCommand: string | undefined }> {
  const graded = await gradeCard(deps, input);
  const { saved } = await saveCard({ store: deps.store, metadata: input.metadata }, { cardId: graded.cardId, requestedBy: input.owner, sample: input.sample ?? false });
  if (saved) return { ...graded, saved, savedByCommand: input.metadata.commandId };
  const { events } = await deps.store.readStream(cardStream(graded.cardId).streamId);
  const lastSave = events.findLast((e) => e.type === 'CardSaved' || (e.type === 'CardGraded' && savedOnGrading((e as unknown as CardGraded).data)));
  return { ...graded, saved, savedByCommand: lastSave?.metadata.commandId };
}
