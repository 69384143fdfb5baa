import type { GradingCompany, SlabLabel } from '../../contracts/grading.ts';
import type { Owner } from '../../domain/accounts/identity.ts';
import { cardDecider, cardNotFound, type CardEvent, type CardImage } from '../../domain/cards/index.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import type { ImageStore } from '../../infra/image-storage/index.ts';
import { handleCommand } from '../handle-command.ts';
import type { GradePhotos } from './grade-card.ts';
import { cardStream } from './streams.ts';

// ReportProfessionalGrade (issue 33): the grade a card got from a grading company. A slab photo sent with it is read
// by the grading service itself (it finds the card, then the label above it, as when a slabbed card is graded), so a
// report is verified by the same reading that grades slabbed cards. The photo is stored only once it was read.

export interface ReportProfessionalGradeDeps {
  store: EventStore;
  /** Only for a report with a slab photo (an order's grade comes without one). */
  imageStore?: ImageStore;
  gradePhotos?: GradePhotos;
}

export interface ReportProfessionalGradeInput {
  cardId: string;
  requestedBy: Owner;
  company: GradingCompany;
  grade: number;
  cert: string;
  /** A photo of the slab, its label in frame; null without one. */
  slabPhoto: Uint8Array | null;
  source: 'owner' | 'order';
  metadata: EventMetadata;
}

export async function reportProfessionalGrade(deps: ReportProfessionalGradeDeps, input: ReportProfessionalGradeInput): Promise<{ recorded: boolean }> {
  const stream = cardStream(input.cardId);
  // Refuse someone else's card before the photo costs a grading.
  const { events: past } = await deps.store.readStream(stream.streamId);
  const state = past.reduce((s, e) => cardDecider.evolve(s, e as unknown as CardEvent), cardDecider.initialState());
  if (state.status !== 'graded' || state.owner !== input.requestedBy) throw cardNotFound();

  let slabPhoto: CardImage | null = null;
  let slabLabel: SlabLabel | null = null;
  if (input.slabPhoto) {
    if (!deps.gradePhotos || !deps.imageStore) throw new Error('A slab photo needs the grading service and the image store');
    const { card } = await deps.gradePhotos({ front: input.slabPhoto });
    slabLabel = card.slabLabel ?? null;
    const stored = await deps.imageStore.put(input.slabPhoto);
    slabPhoto = { hash: stored.hash, contentType: stored.contentType, sourceUrl: null };
  }

  const { cardId, requestedBy, company, grade, cert, source, metadata } = input;
  const { events } = await handleCommand(
    { store: deps.store, metadata },
    {
      ...stream,
      decider: cardDecider,
      command: {
        type: 'ReportProfessionalGrade',
        data: { cardId, reportId: metadata.commandId, requestedBy, company, grade, cert, slabPhoto, slabLabel, source, reportedAt: metadata.timestamp },
      },
    },
  );
  return { recorded: events.length > 0 };
}
