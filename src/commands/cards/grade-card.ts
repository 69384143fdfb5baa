import { createHash } from 'node:crypto';
import type { GradedCard } from '../../contracts/grading.ts';
import type { EngineVersion } from '../../contracts/professional-grades.ts';
import type { Owner } from '../../domain/accounts/identity.ts';
import { cardDecider, type CardEvent, type CardImage } from '../../domain/cards/index.ts';
import type { EventMetadata, EventStore } from '../../infra/event-store/types.ts';
import type { ImageStore } from '../../infra/image-storage/index.ts';
import { handleCommand } from '../handle-command.ts';
import type { CardIds } from './card-ids.ts';
import { cardStream } from './streams.ts';

// GradeCard: photos in, a graded card out; it joins the owner's collection only when saved (./save-card.ts).
// The card's id comes from its owner and images, so the same owner sending the same photos again finds the card
// already there and the engine is not run again. Photos are stored only once the engine has accepted them, so a
// refused upload leaves nothing behind.

/** One side's photo: uploaded (sourceUrl null) or downloaded from the URL the user gave. */
export interface CardPhoto {
  bytes: Uint8Array;
  sourceUrl: string | null;
}

/** The flattened card's JPEG and its thumbnail (src/vision/card-picture.ts). */
export interface CardPictureFiles {
  full: Uint8Array;
  thumb: Uint8Array;
}

/** The grading service's shape (src/workers/grading `gradeCard`, bound to the runtime's pool and identifier). */
export type GradePhotos = (photos: { front: Uint8Array; back?: Uint8Array; tilt?: Uint8Array[] }) => Promise<{
  card: GradedCard;
  /** PNGs of each side with what was measured drawn on it, and of the tilt shot's reflected light when one was read. */
  annotated: { front: Uint8Array; back?: Uint8Array; reflectedLight?: Uint8Array };
  /** JPEG copies of the photos browsers cannot draw (HEIC). */
  display?: { front?: Uint8Array; back?: Uint8Array };
  /** The flattened card of each side (JPEG and thumbnail), shown in place of the photo; absent from an engine without. */
  pictures?: { front: CardPictureFiles; back?: CardPictureFiles };
  /** The engine that graded them, recorded with the grade. */
  engine: EngineVersion;
}>;

export interface GradeCardDeps {
  store: EventStore;
  imageStore: ImageStore;
  cardIds: CardIds;
  gradePhotos: GradePhotos;
}

export interface GradeCardInput {
  owner: Owner;
  cardType: string;
  front: CardPhoto;
  back: CardPhoto | null;
  /** A tilt shot of the front (issue 31): frames of the card tilted under a light, or one angled photo. Not stored. */
  tiltFrames?: Uint8Array[];
  metadata: EventMetadata;
  /** A marketplace item id to keep with the card (SPEC.md's comcId). */
  comcId?: string | null;
}

export interface GradeCardOutcome {
  cardId: string;
  /** False when the owner already had this card: nothing was graded or recorded. */
  graded: boolean;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The photo as sent, the copy shown in its place where browsers cannot draw it, and the flattened card with its
 * thumbnail, derived images kept next to the photo in the same store.
 */
export async function storePhoto(imageStore: ImageStore, photo: CardPhoto, display: Uint8Array | undefined, picture: CardPictureFiles | undefined): Promise<CardImage> {
  const [stored, shown, card, thumb] = await Promise.all([
    imageStore.put(photo.bytes),
    display ? imageStore.put(display) : null,
    picture ? imageStore.put(picture.full) : null,
    picture ? imageStore.put(picture.thumb) : null,
  ]);
  return {
    hash: stored.hash,
    contentType: stored.contentType,
    sourceUrl: photo.sourceUrl,
    ...(shown ? { displayHash: shown.hash } : {}),
    ...(card && thumb ? { cardHash: card.hash, cardThumbHash: thumb.hash } : {}),
  };
}

export async function gradeCard(deps: GradeCardDeps, input: GradeCardInput): Promise<GradeCardOutcome> {
  const { owner, front, back, metadata } = input;
  const tilt = input.tiltFrames ?? [];
  // A front with a tilt shot is another grading than the front alone: its identity takes in the frames.
  const frontImageHash = tilt.length > 0 ? sha256(Buffer.concat([front.bytes, ...tilt.map((frame) => Buffer.from(sha256(frame)))])) : sha256(front.bytes);
  const cardId = await deps.cardIds.idFor({ owner, frontImageHash, backImageHash: back ? sha256(back.bytes) : null });
  const stream = cardStream(cardId);

  const { events: past } = await deps.store.readStream(stream.streamId);
  const state = past.reduce((s, e) => cardDecider.evolve(s, e as unknown as CardEvent), cardDecider.initialState());
  if (state.status === 'graded' && state.owner === owner) return { cardId, graded: false };

  const { card, annotated, display, pictures, engine } = await deps.gradePhotos({ front: front.bytes, ...(back ? { back: back.bytes } : {}), ...(tilt.length > 0 ? { tilt } : {}) });
  const [frontImage, backImage, annotatedFront, annotatedBack, reflectedLight] = await Promise.all([
    storePhoto(deps.imageStore, front, display?.front, pictures?.front),
    back ? storePhoto(deps.imageStore, back, display?.back, pictures?.back) : null,
    deps.imageStore.put(annotated.front),
    annotated.back ? deps.imageStore.put(annotated.back) : null,
    annotated.reflectedLight ? deps.imageStore.put(annotated.reflectedLight) : null,
  ]);

  const { events } = await handleCommand(
    { store: deps.store, metadata },
    {
      ...stream,
      decider: cardDecider,
      command: {
        type: 'GradeCard',
        data: {
          cardId,
          owner,
          cardType: input.cardType,
          images: { front: frontImage, back: backImage },
          annotatedImages: { front: annotatedFront.hash, back: annotatedBack?.hash ?? null, ...(reflectedLight ? { reflectedLight: reflectedLight.hash } : {}) },
          result: card,
          engine,
          gradedAt: metadata.timestamp,
          savedSeparately: true,
          ...(input.comcId ? { comcId: input.comcId } : {}),
        },
      },
    },
  );
  if (events.length > 0) return { cardId, graded: true };
  // Another request graded the same photos meanwhile.
  return { cardId, graded: false };
}
