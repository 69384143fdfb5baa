import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { reportProfessionalGrade } from '../../commands/cards/report-professional-grade.ts';
import { AppError } from '../../contracts/errors.ts';
import { IMAGE_FORMATS_LABEL } from '../../contracts/image-formats.ts';
import { accuracySchema, gradeHistorySchema, professionalGradeFieldsSchema, professionalGradeHistorySchema, type ProfessionalGradeHistory } from '../../contracts/professional-grades.ts';
import { ownerOf } from '../../domain/accounts/identity.ts';
import { cardIdSchema, cardNotFound } from '../../domain/cards/index.ts';
import { accuracyOf } from '../../domain/grading/accuracy.ts';
import { findCard } from '../../projections/cards/queries.ts';
import { gradeHistory, professionalGradeReports, scoredReports } from '../../projections/professional-grades/queries.ts';
import { cardStream } from '../../commands/cards/streams.ts';
import type { RouteOptions } from '../app.ts';
import { commandMetadata, requireUser } from '../plugins/session.ts';
import { fileField, routeDocs } from '../route-docs.ts';
import { limitGrading, UPLOAD_MAX_BYTES } from './cards.ts';
import { z } from 'zod';

// Professional results coming back (issue 33): an owner reports the grade a card got from a grading company, with a
// slab photo if they like (its label is read, and a matching one verifies the report); the public accuracy figures
// over every card's latest report, and the caller's own.

const cardIdParams = z.object({ id: z.string().meta({ description: 'The card id (22 characters)' }) });
const TEXT_FIELDS = ['company', 'grade', 'cert'] as const;

interface ReportUpload {
  fields: Record<string, string>;
  slabPhoto: Buffer | null;
}

/** The multipart body: the three fields and at most one slabPhoto file, nothing else. */
async function readReportUpload(request: FastifyRequest): Promise<ReportUpload> {
  if (!request.isMultipart()) {
    throw new AppError('unsupported', 'multipart_required', 'Send the report as multipart/form-data: company, grade, cert and optionally slabPhoto (file).');
  }
  const upload: ReportUpload = { fields: {}, slabPhoto: null };
  try {
    const parts = request.parts({ limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: TEXT_FIELDS.length, parts: 4 } });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'slabPhoto') {
          part.file.resume();
          throw new AppError('invalid', 'unexpected_field', `Unexpected file field '${part.fieldname}': send at most one slabPhoto.`);
        }
        const bytes = await part.toBuffer().catch((error: unknown) => {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('too_large', 'upload_too_large', 'The slab photo is larger than 10 MB. Please use a smaller photo.');
          throw error;
        });
        // A form's empty file input: nothing was chosen.
        if (bytes.length > 0) upload.slabPhoto = bytes;
      } else {
        if (!(TEXT_FIELDS as readonly string[]).includes(part.fieldname)) {
          throw new AppError('invalid', 'unexpected_field', `Unexpected field '${part.fieldname}': the fields are ${TEXT_FIELDS.join(', ')}.`);
        }
        upload.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    if (error instanceof AppError || typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
    throw new AppError('invalid', 'invalid_multipart', 'The upload is not a well-formed multipart/form-data body.');
  }
  return upload;
}

export const professionalGradeRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { database, eventStore: store, clock, ids, accounts } = runtime;
  const { db } = database;
  const reportDeps = { store, imageStore: runtime.imageStore, gradePhotos: runtime.gradePhotos };

  /** An id that is not an id, or another owner's card, is answered like an unknown one. */
  function cardIdParam(request: FastifyRequest): string {
    const parsed = cardIdSchema.safeParse((request.params as { id?: unknown }).id);
    if (!parsed.success) throw cardNotFound();
    return parsed.data;
  }

  /** The card's stream, for its owner only. */
  async function ownCardEvents(cardId: string, request: FastifyRequest) {
    const card = await findCard(db, cardId);
    if (!card || card.owner !== ownerOf(request.session)) throw cardNotFound();
    return (await store.readStream(cardStream(cardId).streamId)).events;
  }

  async function history(cardId: string, request: FastifyRequest): Promise<ProfessionalGradeHistory> {
    const reports = professionalGradeReports(await ownCardEvents(cardId, request));
    return { current: reports.at(-1) ?? null, reports };
  }

  app.post(
    '/api/card/:id/professional-grade',
    {
      schema: routeDocs(
        {
          summary: "Report the grade the caller's card got from a grading company; a later report supersedes it. With a slab photo whose label reads the same company and grade, the report is verified",
          tags: ['professional grades'],
          params: cardIdParams,
          multipart: z.object({ company: z.string(), grade: z.string(), cert: z.string(), slabPhoto: fileField(`A photo of the slab, its label in frame (${IMAGE_FORMATS_LABEL}, up to 10 MB)`).optional() }),
          responses: { 200: professionalGradeHistorySchema },
          errors: [400, 401, 404, 413, 415, 422, 429, 503],
        },
        'POST',
      ),
    },
    async (request, reply) => {
      requireUser(request);
      const cardId = cardIdParam(request);
      const { fields: rawFields, slabPhoto } = await readReportUpload(request);
      const fields = professionalGradeFieldsSchema.parse(rawFields);
      // Reading a slab photo's label is a grading: limited like one.
      if (slabPhoto) await limitGrading(accounts, request, reply);
      await reportProfessionalGrade(reportDeps, { cardId, requestedBy: ownerOf(request.session), ...fields, slabPhoto, source: 'owner', metadata: commandMetadata(request, clock, ids) });
      return history(cardId, request);
    },
  );

  app.get(
    '/api/card/:id/professional-grade',
    { schema: routeDocs({ summary: "The professional grades reported for the caller's card, oldest first, and the one that counts", tags: ['professional grades'], params: cardIdParams, responses: { 200: professionalGradeHistorySchema }, errors: [404] }, 'GET') },
    async (request) => history(cardIdParam(request), request),
  );

  app.get(
    '/api/card/:id/grade-history',
    {
      schema: routeDocs(
        {
          summary: "Every grade of the caller's card, oldest first, each with the engine (vision and calibration) that made it and when (its grading, then each `npm run regrade`), and its professional grade reports",
          tags: ['professional grades'],
          params: cardIdParams,
          responses: { 200: gradeHistorySchema },
          errors: [404],
        },
        'GET',
      ),
    },
    async (request) => {
      const events = await ownCardEvents(cardIdParam(request), request);
      return { grades: gradeHistory(events), reports: professionalGradeReports(events) };
    },
  );

  app.get(
    '/api/accuracy',
    { schema: routeDocs({ summary: "How the engine's estimates agreed with the professional grades reported since, over every card's latest report (public)", tags: ['professional grades'], responses: { 200: accuracySchema } }, 'GET') },
    async () => accuracyOf(await scoredReports(db)),
  );

  app.get(
    '/api/accuracy/mine',
    { schema: routeDocs({ summary: "The same figures over the caller's own reports", tags: ['professional grades'], responses: { 200: accuracySchema }, errors: [401] }, 'GET') },
    async (request) => accuracyOf(await scoredReports(db, requireUser(request))),
  );
};
