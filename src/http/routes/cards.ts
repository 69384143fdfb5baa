import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { deleteCard } from '../../commands/cards/delete-card.ts';
import { gradeCard, type CardPhoto, type GradeCardDeps } from '../../commands/cards/grade-card.ts';
import { confirmIdentification } from '../../commands/cards/confirm-identification.ts';
import { renameCard } from '../../commands/cards/rename-card.ts';
import { restoreSampleCards } from '../../commands/cards/restore-sample-cards.ts';
import { gradeAndSaveCard, saveCard } from '../../commands/cards/save-card.ts';
import { TILT_FRAMES_MAX, TILT_FRAME_MAX_LABEL, tiltFramesSchema, gradeCardFieldsSchema, type CardResult, cardResultSchema, collectionCardSchema, confirmIdentificationSchema, messageResponseSchema, renameCardSchema, sharedCardSchema, syncInstantGradesResponseSchema } from '../../contracts/cards.ts';
import { AppError } from '../../contracts/errors.ts';
import { IMAGE_FORMATS_LABEL } from '../../contracts/image-formats.ts';
import { ownerOf } from '../../domain/accounts/identity.ts';
import { cardIdSchema, cardNotFound } from '../../domain/cards/index.ts';
import { shippedCatalog } from '../../infra/catalog/index.ts';
import type { ImageFetcher } from '../../infra/image-fetch/index.ts';
import { createCollectionReader } from '../../projections/cards/collection-reader.ts';
import { cardResultView, collectionOf, findCard } from '../../projections/cards/queries.ts';
import { portfolioEntryOf } from '../../projections/portfolio/queries.ts';
import { findUserById } from '../../projections/users/queries.ts';
import type { Runtime } from '../../runtime.ts';
import type { RouteOptions } from '../app.ts';
import { routeDocs, fileField } from '../route-docs.ts';
import { hitCallerLimits } from '../caller-limits.ts';
import { commandMetadata, requireUser } from '../plugins/session.ts';
import { sendSnapshot } from '../snapshot-reply.ts';

// Grading and the collection (SPEC.md §7): grade a card, the shared card, my cards, delete, sample cards,
// and the sync of instant grades from the provider.

/** SPEC.md §5: "max 10MB" per image. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

const FILE_FIELDS = ['frontImage', 'backImage'] as const;
/** The tilt shot's frames (issue 31): a file field sent once per frame. */
const TILT_FIELD = 'tiltFrames';
type FileField = (typeof FILE_FIELDS)[number];
const TEXT_FIELDS = ['frontImageUrl', 'backImageUrl', 'cardType'] as const;

const isFileField = (name: string): name is FileField => (FILE_FIELDS as readonly string[]).includes(name);
const isTextField = (name: string) => (TEXT_FIELDS as readonly string[]).includes(name);

const cardIdParams = z.object({ id: z.string().meta({ description: 'The card id (22 characters)' }) });

export const missingFrontImage = () => new AppError('invalid', 'missing_front_image', 'Please upload at least the front of your card');

const sideLabel: Record<FileField, string> = { frontImage: 'front', backImage: 'back' };

interface GradingUpload {
  files: Partial<Record<FileField, Buffer>>;
  tiltFrames: Buffer[];
  fields: Record<string, string>;
}

/** The multipart body of POST /api/grade-card: the two image files and the text fields, nothing else. */
async function readGradingUpload(request: FastifyRequest): Promise<GradingUpload> {
  if (!request.isMultipart()) {
    throw new AppError(
      'unsupported',
      'multipart_required',
      'Send the card as multipart/form-data: frontImage (file) or frontImageUrl, optionally backImage or backImageUrl, and cardType.',
    );
  }
  try {
    return await readParts(request);
  } catch (error) {
    // The multipart parser throws plain errors for a body it cannot read (no boundary, cut short).
    if (error instanceof AppError || typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
    throw new AppError('invalid', 'invalid_multipart', 'The upload is not a well-formed multipart/form-data body.');
  }
}

async function readParts(request: FastifyRequest): Promise<GradingUpload> {
  const upload: GradingUpload = { files: {}, tiltFrames: [], fields: {} };
  // One more tilt frame than allowed is read, so that too many is told as such (not as a cut-off body).
  const files = FILE_FIELDS.length + TILT_FRAMES_MAX + 1;
  const parts = request.parts({ limits: { fileSize: UPLOAD_MAX_BYTES, files, fields: TEXT_FIELDS.length, parts: files + TEXT_FIELDS.length } });
  for await (const part of parts) {
    if (part.type === 'file' && part.fieldname === TILT_FIELD) {
      upload.tiltFrames.push(await tiltFrameBytes(part));
      continue;
    }
    if (part.type === 'file') {
      const name = part.fieldname;
      if (!isFileField(name) || upload.files[name]) {
        part.file.resume();
        throw new AppError('invalid', 'unexpected_field', `Unexpected file field '${name}': send at most one frontImage and one backImage, and up to ${TILT_FRAMES_MAX} tiltFrames.`);
      }
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError('too_large', 'upload_too_large', `The ${sideLabel[name]} image is larger than 10 MB. Please use a smaller photo.`);
        }
        throw error;
      }
      // A form's empty file input arrives as a part with no name and no bytes: nothing was chosen.
      if (bytes.length > 0 || part.filename) upload.files[name] = bytes;
    } else {
      if (!isTextField(part.fieldname)) {
        throw new AppError('invalid', 'unexpected_field', `Unexpected field '${part.fieldname}': the fields are ${TEXT_FIELDS.join(', ')}.`);
      }
      upload.fields[part.fieldname] = String(part.value);
    }
  }
  return upload;
}

async function tiltFrameBytes(part: { toBuffer(): Promise<Buffer> }): Promise<Buffer> {
  try {
    return await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tiltFramesRefusal(413);
    throw error;
  }
}

const TILT_REFUSALS = {
  400: ['invalid', 'too_many_tilt_frames'],
  413: ['too_large', 'tilt_frame_too_large'],
  415: ['unsupported', 'tilt_frame_not_an_image'],
} as const;

function tiltFramesRefusal(status: keyof typeof TILT_REFUSALS, message?: string): AppError {
  const [kind, code] = TILT_REFUSALS[status];
  return new AppError(kind, code, message ?? `A tilt frame is larger than ${TILT_FRAME_MAX_LABEL}. Send stills of the video, or a smaller angled photo.`);
}

/** The tilt frames as sent, or the first rule they break as its own 4xx (tiltFramesSchema). */
function parseTiltFrames(frames: Buffer[]): Uint8Array[] {
  const parsed = tiltFramesSchema.safeParse(frames);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const status = issue.code === 'custom' ? ((issue.params as { status?: 413 | 415 } | undefined)?.status ?? 400) : 400;
  throw tiltFramesRefusal(status, issue.message);
}

/** Fetcher refusals keep their code; with two URLs the message says which one. */
async function fetchPhoto(fetcher: ImageFetcher, url: string, side: string | null): Promise<CardPhoto> {
  try {
    const fetched = await fetcher.fetchImage(url);
    return { bytes: fetched.bytes, sourceUrl: url };
  } catch (error) {
    if (error instanceof AppError && side) throw new AppError(error.kind, error.code, `${side} image URL: ${error.message}`, error.details);
    throw error;
  }
}

/**
 * Grading costs a second of CPU: guests are limited per address, signed-in users per account (higher), and told
 * when to try again; a guest is told that signing in raises the limit. The portfolio's analysis grades too, and
 * shares these limits.
 */
export async function limitGrading(accounts: Runtime['accounts'], request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const wait = await hitCallerLimits(accounts.rateLimiter, 'grade', { user: accounts.limits.gradingUser, guest: accounts.limits.gradingGuest }, request, reply);
  if (wait === null) return;
  throw new AppError('rate_limited', 'grading_rate_limited', request.session.userId ? `You have graded many cards in a short time. Please try again in ${wait}.` : `You have graded many cards in a short time. Please try again in ${wait}, or sign in for a higher limit.`);
}

export const cardRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { database, eventStore: store, clock, ids, imageFetcher } = runtime;
  const { db } = database;
  const { accounts } = runtime;
  const collections = createCollectionReader(db);
  const gradeDeps: GradeCardDeps = { store, imageStore: runtime.imageStore, cardIds: runtime.cardIds, gradePhotos: runtime.gradePhotos };

  async function cardResult(cardId: string): Promise<CardResult> {
    const row = await findCard(db, cardId);
    if (!row) throw cardNotFound();
    return cardResultView(row);
  }

  /** An id that is not an id is answered like an unknown one. */
  function cardIdParam(request: FastifyRequest): string {
    const parsed = cardIdSchema.safeParse((request.params as { id?: unknown }).id);
    if (!parsed.success) throw cardNotFound();
    return parsed.data;
  }

  // Grading is not saving (issue 18): a grade is recorded (its /card/{id} page works) but joins the collection only
  // when saved. SPEC.md §7's save is this same call with only the image files (no URLs, no cardType): the card those
  // photos make for this caller, graded if it was not yet, is saved.
  app.post('/api/grade-card', { schema: routeDocs({ summary: 'Grade a card from photos (files or URLs); sent with only frontImage and/or backImage (no other field), the card is also saved to the caller\'s collection', tags: ['grading'], multipart: gradeCardFieldsSchema.extend({ frontImage: fileField(`The front (${IMAGE_FORMATS_LABEL}, up to 10 MB)`).optional(), backImage: fileField('The back, optional').optional(), tiltFrames: fileField(`A tilt shot of the front, optional: up to ${TILT_FRAMES_MAX} stills of the card tilted under a light, or one angled photo; one part per frame`).optional() }), responses: { 200: cardResultSchema }, errors: [400, 413, 415, 422, 429, 503] }, 'POST') }, async (request, reply) => {
    await limitGrading(accounts, request, reply);
    const { files, tiltFrames, fields: rawFields } = await readGradingUpload(request);
    const fields = gradeCardFieldsSchema.parse(rawFields);
    const tilt = parseTiltFrames(tiltFrames);
    if (files.frontImage && fields.frontImageUrl) {
      throw new AppError('invalid', 'front_image_twice', 'Send the front of the card as a file or as a URL, not both.');
    }
    if (files.backImage && fields.backImageUrl) {
      throw new AppError('invalid', 'back_image_twice', 'Send the back of the card as a file or as a URL, not both.');
    }
    if (!files.frontImage && !fields.frontImageUrl) throw missingFrontImage();

    const twoUrls = fields.frontImageUrl !== null && fields.backImageUrl !== null;
    const [front, back] = await Promise.all([
      files.frontImage ? { bytes: files.frontImage, sourceUrl: null } : fetchPhoto(imageFetcher, fields.frontImageUrl!, twoUrls ? 'Front' : null),
      files.backImage ? { bytes: files.backImage, sourceUrl: null } : fields.backImageUrl ? fetchPhoto(imageFetcher, fields.backImageUrl, 'Back') : null,
    ]);
    const saving = Object.keys(rawFields).length === 0;
    const input = { owner: ownerOf(request.session), cardType: fields.cardType, front, back, ...(tilt.length > 0 ? { tiltFrames: tilt } : {}), metadata: commandMetadata(request, clock, ids) };
    const { cardId } = saving ? await gradeAndSaveCard(gradeDeps, input) : await gradeCard(gradeDeps, input);
    return cardResult(cardId);
  });

  // Save by id, for a card graded from URLs (the browser has no files to send again). Owner only: to anyone else
  // the card does not exist. Saving twice is one card.
  app.post('/api/card/:id/save', { schema: routeDocs({ summary: 'Save a graded card to the caller\'s collection', tags: ['collection'], params: cardIdParams, responses: { 200: cardResultSchema }, errors: [404] }, 'POST') }, async (request) => {
    const cardId = cardIdParam(request);
    await saveCard({ store, metadata: commandMetadata(request, clock, ids) }, { cardId, requestedBy: ownerOf(request.session) });
    return cardResult(cardId);
  });

  // Anyone who has the id may read the card: shared links (DESIGN.md §6). Ids are unguessable.
  // `yours` tells the page whether to offer the owner's actions (submit, the collection) or only a stranger's (share).
  app.get('/api/card/:id', { schema: routeDocs({ summary: 'A graded card, for anyone who has its id (shared links), and whether the caller graded it', tags: ['grading'], params: cardIdParams, responses: { 200: sharedCardSchema }, errors: [404] }, 'GET') }, async (request) => {
    const row = await findCard(db, cardIdParam(request));
    if (!row) throw cardNotFound();
    const owner = ownerOf(request.session);
    const yours = row.owner === owner;
    // The owner's own portfolio entry for it ("In your portfolio →"); nobody else learns whether there is one.
    const portfolioCardId = yours && row.saved_at !== null && owner.startsWith('user:') ? await portfolioEntryOf(db, owner, row.id) : null;
    return { ...cardResultView(row), yours, portfolioCardId };
  });

  app.get('/api/my-cards', { schema: routeDocs({ summary: "The caller's collection, newest first (gzip; ETag)", tags: ['collection'], responses: { 200: z.array(collectionCardSchema), 304: null } }, 'GET') }, async (request, reply) => sendSnapshot(request, reply, await collections.read(ownerOf(request.session))));

  // Rename (issue 35): the owner's name for the card, shown everywhere from now on. Owner only, guests too (their cards
  // are theirs in their browser): to anyone else the card does not exist.
  app.patch('/api/card/:id', { schema: routeDocs({ summary: "Rename a card of the caller's", tags: ['collection'], params: cardIdParams, body: renameCardSchema, responses: { 200: cardResultSchema }, errors: [400, 404] }, 'PATCH') }, async (request) => {
    const cardId = cardIdParam(request);
    const { name } = renameCardSchema.parse(request.body);
    await renameCard({ store, metadata: commandMetadata(request, clock, ids) }, { cardId, requestedBy: ownerOf(request.session), name });
    return cardResult(cardId);
  });

  // Confirming the catalogue card (issue 32): one of the candidates offered when identification was not sure, or any
  // card the catalogue has. Owner only, guests too, as a rename; an id the catalogue does not have is a 400. The answer
  // carries the confirmed card's value, priced as it was confirmed, or N/A with why there is none.
  app.post('/api/card/:id/identification', { schema: routeDocs({ summary: "Confirm which catalogue card a card of the caller's is, and price it", tags: ['collection'], params: cardIdParams, body: confirmIdentificationSchema, responses: { 200: cardResultSchema }, errors: [400, 404] }, 'POST') }, async (request) => {
    const cardId = cardIdParam(request);
    const { catalogId } = confirmIdentificationSchema.parse(request.body);
    const pricing = { prices: runtime.prices, gradedPrices: runtime.gradedPrices, catalog: shippedCatalog() };
    await confirmIdentification({ store, db, metadata: commandMetadata(request, clock, ids), pricing }, { cardId, requestedBy: ownerOf(request.session), catalogId });
    return cardResult(cardId);
  });

  app.delete('/api/card/:id', { schema: routeDocs({ summary: 'Delete a card from the caller\'s collection', tags: ['collection'], params: cardIdParams, responses: { 200: messageResponseSchema }, errors: [404] }, 'DELETE') }, async (request) => {
    await deleteCard({ store, metadata: commandMetadata(request, clock, ids) }, { cardId: cardIdParam(request), requestedBy: ownerOf(request.session) });
    return { message: 'Card deleted from your collection' };
  });

  // Five gradings a call, guests included: limited like grading, per address for guests and per account for users.
  app.post('/api/restore-sample-cards', { schema: routeDocs({ summary: 'Grade the sample cards into the caller\'s collection, marked as samples', tags: ['collection'], responses: { 200: messageResponseSchema }, errors: [429] }, 'POST') }, async (request, reply) => {
    const wait = await hitCallerLimits(accounts.rateLimiter, 'sample-cards', { user: accounts.limits.sampleCardsUser, guest: accounts.limits.sampleCardsGuest }, request, reply);
    if (wait !== null) throw new AppError('rate_limited', 'sample_cards_rate_limited', `The sample cards were restored many times in a short time. Please try again in ${wait}.`);
    const restored = await restoreSampleCards(gradeDeps, { owner: ownerOf(request.session), metadata: commandMetadata(request, clock, ids) });
    return { message: `Restored ${restored.length} sample card${restored.length === 1 ? '' : 's'}` };
  });

  // SPEC.md §6: syncing needs a provider token on the user. Signed out is 401; an account not linked to a
  // provider is 400 with a message saying so (the web app disables Sync for it anyway, SPEC.md §5).
  app.post('/api/sync-instant-grades', { schema: routeDocs({ summary: 'Import instant grades from the grading provider', tags: ['collection'], responses: { 200: syncInstantGradesResponseSchema }, errors: [400, 401, 422] }, 'POST') }, async (request) => {
    const userId = requireUser(request);
    const user = await findUserById(db, userId);
    if (!user?.ags_card_token) {
      throw new AppError('invalid', 'provider_token_missing', 'Syncing instant grades needs an account linked to a grading provider.');
    }
    const { message, cards } = await accounts.provider.instantGrades(userId);
    const owner = ownerOf(request.session);
    const metadata = commandMetadata(request, clock, ids);
    const imported: string[] = [];
    for (const [index, card] of cards.entries()) {
      const [front, back] = await Promise.all([
        fetchPhoto(imageFetcher, card.frontImageUrl, 'Front'),
        card.backImageUrl ? fetchPhoto(imageFetcher, card.backImageUrl, 'Back') : null,
      ]);
      const outcome = await gradeAndSaveCard(gradeDeps, { owner, cardType: card.cardType, front, back, metadata: { ...metadata, commandId: `${metadata.commandId}:${index}` } });
      if (outcome.saved) imported.push(outcome.cardId);
    }
    const importedCards = await collectionOf(db, owner, imported);
    // Achievements are earned by an async projection: new ones arrive with the next GET /api/achievements.
    return { message: imported.length > 0 ? `Imported ${imported.length} instant grade${imported.length === 1 ? '' : 's'}` : message, importedCards, newAchievements: [] };
  });
};
