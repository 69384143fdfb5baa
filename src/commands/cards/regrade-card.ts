import { AppError } from '../../contracts/errors.ts';
import type { CardGrade } from '../../contracts/grading.ts';
import { measurementErrorCodeSchema } from '../../contracts/measurement.ts';
import type { EngineVersion } from '../../contracts/professional-grades.ts';
import { cardDecider, cardGradedSchema, sameEngine, type CardEvent } from '../../domain/cards/index.ts';
import type { EventMetadata, EventStore, RecordedEvent } from '../../infra/event-store/types.ts';
import type { ImageStore } from '../../infra/image-storage/index.ts';
import { handleCommand } from '../handle-command.ts';
import { cardStream } from './streams.ts';

// RegradeCard (issue 33, `npm run regrade`): a card's stored photos measured again by the current engine. Its new
// grade is recorded beside the old ones (CardRegraded); nothing earlier on the stream changes. A card the current
// engine already graded is skipped before any measuring, so running a regrade again costs a stream read per card.

/** The engine's grade of stored photos, and which engine gave it (the regrade's measuring, without identification). */
export type MeasureGrade = (photos: { front: Uint8Array; back?: Uint8Array }) => Promise<{ grade: CardGrade; engine: EngineVersion }>;

export interface RegradeCardDeps {
  store: EventStore;
  imageStore: ImageStore;
  measure: MeasureGrade;
}

export interface RegradeCardInput {
  cardId: string;
  /** The current engine: a card it already graded is skipped unmeasured. */
  engine: EngineVersion;
  /** Measure and say what would change, recording nothing. */
  dryRun: boolean;
  metadata: EventMetadata;
}

export interface GradeByEngine {
  overallGrade: number;
  engine: EngineVersion;
}

/**
 * regraded / would-regrade: measured (and recorded, unless a dry run); current: the engine already graded it; gone:
 * deleted or never graded; refused: the engine cannot measure the photos any more (the message says why).
 */
export type RegradeOutcome =
  | { cardId: string; outcome: 'regraded' | 'would-regrade'; old: GradeByEngine; new: GradeByEngine }
  | { cardId: string; outcome: 'current'; old: GradeByEngine }
  | { cardId: string; outcome: 'gone' }
  | { cardId: string; outcome: 'refused'; old: GradeByEngine; message: string };

/** The photos of the card's latest grading: after its last deletion, a card graded again has new ones. */
function gradedPhotos(events: readonly RecordedEvent[]): { front: string; back: string | null } | null {
  const graded = events.findLast((e) => e.type === 'CardGraded');
  if (!graded) return null;
  const { images } = cardGradedSchema.parse(graded.data);
  return { front: images.front.hash, back: images.back?.hash ?? null };
}

export async function regradeCard(deps: RegradeCardDeps, input: RegradeCardInput): Promise<RegradeOutcome> {
  const { cardId, engine, dryRun, metadata } = input;
  const stream = cardStream(cardId);
  const { events: past } = await deps.store.readStream(stream.streamId);
  const state = past.reduce((s, e) => cardDecider.evolve(s, e as unknown as CardEvent), cardDecider.initialState());
  const photos = gradedPhotos(past);
  if (state.status !== 'graded' || !state.estimate || !photos) return { cardId, outcome: 'gone' };
  const old = { overallGrade: state.estimate.overallGrade, engine: state.estimate.engine };
  if (sameEngine(old.engine, engine)) return { cardId, outcome: 'current', old };

  const [front, back] = await Promise.all([deps.imageStore.get(photos.front), photos.back ? deps.imageStore.get(photos.back) : null]);
  if (!front || (photos.back && !back)) return { cardId, outcome: 'refused', old, message: 'A stored photo is missing from the image store' };
  let measured: Awaited<ReturnType<MeasureGrade>>;
  try {
    measured = await deps.measure(back ? { front: front.bytes, back: back.bytes } : { front: front.bytes });
  } catch (error) {
    // A photo the engine once measured and now refuses: said so, and the card keeps the grades it has.
    if (error instanceof AppError && measurementErrorCodeSchema.safeParse(error.code).success) return { cardId, outcome: 'refused', old, message: error.message };
    throw error;
  }
  if (!sameEngine(measured.engine, engine)) throw new Error(`The engine changed during the regrade (${engineName(engine)} → ${engineName(measured.engine)}): run it again`);
  const next = { overallGrade: measured.grade.overallGrade, engine };
  if (dryRun) return { cardId, outcome: 'would-regrade', old, new: next };

  const { events } = await handleCommand(
    { store: deps.store, metadata },
    { ...stream, decider: cardDecider, command: { type: 'RegradeCard', data: { cardId, grade: measured.grade, engine, regradedAt: metadata.timestamp } } },
  );
  // Nothing recorded: another run regraded it meanwhile, or its owner deleted it.
  if (events.length === 0) return { cardId, outcome: 'current', old };
  return { cardId, outcome: 'regraded', old, new: next };
}

/** "vision@calibration", as the tables print an engine. */
export const engineName = (engine: EngineVersion) => `${engine.vision}@${engine.calibration}`;
