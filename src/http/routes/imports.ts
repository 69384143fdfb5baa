import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { cancelImport, deleteImport, editFailedRow, retryFailedRows, startImport } from '../../commands/imports/manage-import.ts';
import { messageResponseSchema } from '../../contracts/cards.ts';
import { csvText } from '../../contracts/csv.ts';
import { AppError } from '../../contracts/errors.ts';
import { cleanedTextOrRefuse } from '../../contracts/text.ts';
import {
  editImportRowSchema,
  failedRowsFileName,
  IMPORT_EXTENSIONS,
  IMPORT_MAX_BYTES,
  importIdParamsSchema,
  importRowParamsSchema,
  importRowsPageSchema,
  importRowsQuerySchema,
  importRowViewSchema,
  TEMPLATE_COLUMNS,
  importMessages,
  importProgressSchema,
  importRecordSchema,
  TEMPLATE_FILE_NAME,
  uploadResponseSchema,
  type ImportProgress,
  type ImportRecord,
  type ImportRowsPage,
  type ImportRowView,
  type UploadResponse,
} from '../../contracts/imports.ts';
import type { Owner } from '../../domain/accounts/identity.ts';
import { importNotFound, importRowNotFound, readSheetRows, sheetRowsToRead } from '../../domain/imports/index.ts';
import { importTemplate, invalidFileType, parseSpreadsheet } from '../../infra/spreadsheet/index.ts';
import { listenToProgress, type ProgressNotice } from '../../projections/imports/progress-channel.ts';
import { failedRowNumbers, failedRows, findImport, importRow, importRowsPage, importRowStatus, listImports, pendingRows } from '../../projections/imports/queries.ts';
import type { RouteOptions } from '../app.ts';
import { queueUnavailable } from '../../infra/outage-errors.ts';
import { commandMetadata, requireUser } from '../plugins/session.ts';
import { fileField, routeDocs } from '../route-docs.ts';

// Bulk import (SPEC.md §7): the template, the upload that starts an import, the list, delete, and beyond SPEC cancel,
// every row's outcome (paged, filtered), a failed row's URLs edited, the failed rows as a CSV to fix offline, and retry
// of the failed rows; and GET /ws, the live channel on which an import's owner (only) receives its
// progress, from whichever process worked on its rows (LISTEN/NOTIFY, ../../projections/imports/progress-channel.ts).

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Messages a socket gets about one import at most this often; the last one (and a finished import's) always. */
const SOCKET_INTERVAL_MS = 200;

export const noFileSelected = () => new AppError('invalid', 'import_no_file', importMessages.noFileSelected.description);
const fileTooLarge = () => new AppError('too_large', 'import_file_too_large', 'The file is larger than 10 MB. Split it into smaller files.');

async function readUpload(request: FastifyRequest): Promise<{ fileName: string; bytes: Buffer }> {
  if (!request.isMultipart()) throw noFileSelected();
  let found: { fileName: string; bytes: Buffer } | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } })) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || found) {
        part.file.resume();
        throw new AppError('invalid', 'unexpected_field', `Unexpected file field '${part.fieldname}': send one spreadsheet as 'file'.`);
      }
      const bytes = await part.toBuffer();
      if (bytes.length > 0 || part.filename) found = { fileName: part.filename ?? '', bytes };
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge();
    if (code === 'FST_FILES_LIMIT') throw new AppError('invalid', 'unexpected_field', "Send one spreadsheet as 'file'.");
    if (error instanceof AppError || typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
    throw new AppError('invalid', 'invalid_multipart', 'The upload is not a well-formed multipart/form-data body.');
  }
  if (!found) throw noFileSelected();
  // The file name is kept in the import's events and shown back: the one text rule, like any typed text.
  found.fileName = cleanedTextOrRefuse(found.fileName, 'line', 'The file name');
  const name = found.fileName.toLowerCase();
  if (!IMPORT_EXTENSIONS.some((extension) => name.endsWith(extension))) throw invalidFileType();
  return found;
}

export const importRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { eventStore: store, clock, ids, database, importRows, importProgress } = runtime;
  const { db } = database;

  const ownerOfRequest = (request: FastifyRequest): Owner => `user:${requireUser(request)}`;

  function importIdParam(request: FastifyRequest): string {
    const raw = (request.params as { id?: unknown }).id;
    if (typeof raw !== 'string' || !UUID.test(raw)) throw importNotFound();
    return raw.toLowerCase();
  }

  // Rows are worked on through the job queue: while it does not answer (Redis down), an import is not started (a
  // 503 that says so, nothing written) rather than recorded with rows nobody is told about. Should it stop answering
  // between the check and the enqueue, the rows are in the event log already: the workers' sweep enqueues them once
  // it is back (IMPORT_SWEEP_MS), so the import is started all the same.
  async function queueAnswers(): Promise<void> {
    await runtime.queue.ping().catch((error: unknown) => {
      app.log.warn({ err: error }, 'job queue not answering: import not started');
      throw queueUnavailable();
    });
  }
  async function enqueueOrLeaveToSweep(importId: string, rows: Parameters<typeof importRows.enqueue>[0]): Promise<void> {
    await importRows.enqueue(rows).catch((error: unknown) => app.log.warn({ err: error, importId }, 'import rows not enqueued: the sweep will enqueue them'));
  }

  async function recordOf(owner: Owner, importId: string): Promise<ImportRecord> {
    const record = await findImport(db, owner, importId);
    if (!record) throw importNotFound();
    return record;
  }

  app.get('/api/download-template', { schema: routeDocs({ summary: `The import template (${TEMPLATE_FILE_NAME}): FrontImage, BackImage, ItemID, an example row and a sheet explaining them`, tags: ['imports'], responses: { 200: fileField('The .xlsx template') } }, 'GET') }, async (_request, reply) =>
    reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', `attachment; filename="${TEMPLATE_FILE_NAME}"`)
      .header('cache-control', 'public, max-age=3600')
      .send(importTemplate()),
  );

  app.post(
    '/api/ultra-fast-upload',
    {
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: routeDocs({ summary: 'Start a bulk import from a spreadsheet (.xlsx, .xls or .csv; 10 MB and 10,000 rows at most)', tags: ['imports'], multipart: z.object({ file: fileField('The spreadsheet: a FrontImage column, optionally BackImage and ItemID') }), responses: { 200: uploadResponseSchema }, errors: [400, 401, 413, 415, 422, 429, 503] }, 'POST'),
    },
    async (request): Promise<UploadResponse> => {
      const owner = ownerOfRequest(request);
      const { fileName, bytes } = await readUpload(request);
      const sheet = await parseSpreadsheet(bytes, { maxRows: sheetRowsToRead() });
      const sheetRows = readSheetRows(sheet.cells, { firstRow: sheet.firstRow, moreRows: sheet.moreRows });
      await queueAnswers();
      const importId = randomUUID();
      const rows = await startImport({ store, db, metadata: commandMetadata(request, clock, ids) }, { importId, owner, fileName: fileName.slice(0, 255), fileSize: bytes.length, rows: sheetRows });
      importProgress.publish(importId, { now: true });
      await enqueueOrLeaveToSweep(importId, rows.map((row) => ({ ...row, importId, owner, generation: 0 })));
      const failed = rows.filter((r) => r.problem !== null).length;
      const duplicates = rows.filter((r) => r.problem === null && r.duplicateOf !== null).length;
      const stats = { total: rows.length, toProcess: rows.length - failed - duplicates, successful: 0, duplicates, failed };
      return { importId, message: `Import started: ${stats.toProcess} card${stats.toProcess === 1 ? '' : 's'} to process`, ...stats, stats };
    },
  );

  app.get('/api/imports', { schema: routeDocs({ summary: "The caller's imports, newest first", tags: ['imports'], responses: { 200: z.array(importRecordSchema) }, errors: [401] }, 'GET') }, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return listImports(db, ownerOfRequest(request));
  });

  app.get('/api/imports/:id', { schema: routeDocs({ summary: 'One of the caller\'s imports', tags: ['imports'], params: importIdParamsSchema, responses: { 200: importRecordSchema }, errors: [401, 404] }, 'GET') }, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return recordOf(ownerOfRequest(request), importIdParam(request));
  });

  app.delete('/api/imports/:id', { schema: routeDocs({ summary: 'Delete an import (its rows not yet worked on are stopped; graded cards stay)', tags: ['imports'], params: importIdParamsSchema, responses: { 200: messageResponseSchema }, errors: [401, 404] }, 'DELETE') }, async (request) => {
    await deleteImport({ store, metadata: commandMetadata(request, clock, ids) }, { importId: importIdParam(request), requestedBy: ownerOfRequest(request) });
    return { message: 'Import Deleted' };
  });

  app.post('/api/imports/:id/cancel', { schema: routeDocs({ summary: 'Stop a running import: rows not yet worked on are left', tags: ['imports'], params: importIdParamsSchema, responses: { 200: importRecordSchema }, errors: [401, 404] }, 'POST') }, async (request) => {
    const owner = ownerOfRequest(request);
    const importId = importIdParam(request);
    await cancelImport({ store, metadata: commandMetadata(request, clock, ids) }, { importId, requestedBy: owner });
    importProgress.publish(importId, { now: true });
    return recordOf(owner, importId);
  });

  app.get(
    '/api/imports/:id/rows',
    { schema: routeDocs({ summary: "An import's rows by row number, each with its URLs and its outcome, a failure's or a duplicate's reason in plain words; `status` filters", tags: ['imports'], params: importIdParamsSchema, querystring: importRowsQuerySchema, responses: { 200: importRowsPageSchema }, errors: [400, 401, 404] }, 'GET') },
    async (request, reply): Promise<ImportRowsPage> => {
      const owner = ownerOfRequest(request);
      const importId = importIdParam(request);
      await recordOf(owner, importId);
      const query = importRowsQuerySchema.parse(request.query);
      reply.header('cache-control', 'private, no-store');
      return importRowsPage(db, importId, query);
    },
  );

  app.patch(
    '/api/imports/:id/rows/:row',
    { schema: routeDocs({ summary: "Fix a failed row's URLs (a finished import's) before its failed rows are retried", tags: ['imports'], params: importRowParamsSchema, body: editImportRowSchema, responses: { 200: importRowViewSchema }, errors: [400, 401, 404, 409] }, 'PATCH') },
    async (request): Promise<ImportRowView> => {
      const owner = ownerOfRequest(request);
      const importId = importIdParam(request);
      const rawRow = (request.params as { row?: string }).row ?? '';
      const row = /^[1-9]\d{0,6}$/.test(rawRow) ? Number(rawRow) : null;
      await recordOf(owner, importId);
      if (row === null) throw importRowNotFound();
      const body = editImportRowSchema.parse(request.body);
      const frontImageUrl = body.frontImageUrl.trim();
      const backImageUrl = body.backImageUrl?.trim() || null;
      const rowStatus = await importRowStatus(db, importId, row);
      await editFailedRow({ store, metadata: commandMetadata(request, clock, ids) }, { importId, requestedBy: owner, row, rowStatus, frontImageUrl, backImageUrl });
      const edited = await importRow(db, importId, row);
      if (!edited) throw importRowNotFound();
      return edited;
    },
  );

  app.get(
    '/api/imports/:id/failed-rows.csv',
    { schema: routeDocs({ summary: "An import's failed rows as a CSV with the template's columns (FrontImage, BackImage, ItemID), to fix offline and import again", tags: ['imports'], params: importIdParamsSchema, responses: { 200: fileField('The CSV, UTF-8') }, errors: [401, 404] }, 'GET') },
    async (request, reply) => {
      const record = await recordOf(ownerOfRequest(request), importIdParam(request));
      const rows = await failedRows(db, record.id);
      const lines = [[...TEMPLATE_COLUMNS], ...rows.map((r) => [r.front_image_url, r.back_image_url ?? '', r.item_id ?? ''])];
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${failedRowsFileName(record.fileName)}"`)
        .header('cache-control', 'private, no-store')
        .send(`\uFEFF${csvText(lines)}`);
    },
  );

  app.post('/api/imports/:id/retry-failed', { schema: routeDocs({ summary: "Work on a finished import's failed rows again", tags: ['imports'], params: importIdParamsSchema, responses: { 200: importRecordSchema }, errors: [401, 404, 409] }, 'POST') }, async (request) => {
    const owner = ownerOfRequest(request);
    const importId = importIdParam(request);
    await recordOf(owner, importId);
    const failedRows = await failedRowNumbers(db, importId);
    await queueAnswers();
    await retryFailedRows({ store, metadata: commandMetadata(request, clock, ids) }, { importId, requestedBy: owner, failedRows });
    importProgress.publish(importId, { now: true });
    await enqueueOrLeaveToSweep(importId, await pendingRows(db, { importId }));
    return recordOf(owner, importId);
  });

  // ── GET /ws: the live channel ─────────────────────────────────────────────────────────────────────
  /** What is used of a ws socket (the ws package ships no types here). */
  interface Socket {
    readonly readyState: number;
    readonly OPEN: number;
    send(data: string): void;
    close(code?: number, reason?: string): void;
    on(event: 'message' | 'close', listener: () => void): void;
  }
  interface Listener {
    socket: Socket;
    /** The last message sent per import: a later one that goes backwards (another process was slower) is dropped. */
    sent: Map<string, ImportProgress>;
    waiting: Map<string, ImportProgress>;
    timer: NodeJS.Timeout | undefined;
  }
  const listeners = new Map<string, Set<Listener>>();

  function deliver(listener: Listener): void {
    listener.timer = undefined;
    for (const [importId, progress] of listener.waiting) {
      listener.sent.set(importId, progress);
      if (listener.socket.readyState === listener.socket.OPEN) listener.socket.send(JSON.stringify(progress));
    }
    listener.waiting.clear();
  }

  function onNotice({ owner, progress }: ProgressNotice): void {
    for (const listener of listeners.get(owner) ?? []) {
      const last = listener.waiting.get(progress.importId) ?? listener.sent.get(progress.importId);
      const backwards = last && last.status === 'processing' && progress.status === 'processing' && (progress.current < last.current || progress.progress < last.progress);
      if (backwards) continue;
      listener.waiting.set(progress.importId, progress);
      if (progress.status !== 'processing') {
        if (listener.timer) clearTimeout(listener.timer);
        deliver(listener);
      } else if (!listener.timer) {
        listener.timer = setTimeout(() => deliver(listener), SOCKET_INTERVAL_MS);
      }
    }
  }

  // Listening starts with the server; while the database does not answer, it is tried again every few seconds (the
  // server still starts, and /readyz says what is down).
  let stopListening: (() => Promise<void>) | undefined;
  let retryListening: NodeJS.Timeout | undefined;
  let closed = false;
  async function startListening(): Promise<void> {
    try {
      stopListening = await listenToProgress(database, onNotice);
    } catch (error) {
      app.log.warn({ err: error }, 'import progress: not listening yet; trying again in 5 s');
      if (!closed) retryListening = setTimeout(() => void startListening(), 5_000).unref();
    }
  }
  app.addHook('onReady', startListening);
  app.addHook('onClose', async () => {
    closed = true;
    clearTimeout(retryListening);
    for (const set of listeners.values()) for (const listener of set) clearTimeout(listener.timer);
    await stopListening?.();
  });

  app.get(
    '/ws',
    {
      websocket: true,
      // OpenAPI has no WebSocket operations (@fastify/swagger leaves this route out): described here, hidden there.
      schema: { ...routeDocs({ summary: "WebSocket: the caller's imports' progress as import-progress messages (SPEC.md §3), only to their owner", tags: ['imports'], responses: { 200: importProgressSchema } }, 'GET'), hide: true },
    },
    (socket: Socket, request) => {
      // Another site's page may not open the channel with this browser's cookie.
      if (request.headers.origin) {
        if (!app.isAllowedOrigin(request)) {
          socket.close(4403, 'Origin not allowed');
          return;
        }
      }
      // Capped per user and address, closed when its session ends, cut when idle (../plugins/live-sockets.ts).
      if (!app.liveSockets.admit(request, socket)) return;
      const { userId } = request.session;
      // A guest has no imports: the socket stays open and quiet.
      if (!userId) return;
      const owner = `user:${userId}`;
      const listener: Listener = { socket, sent: new Map(), waiting: new Map(), timer: undefined };
      let set = listeners.get(owner);
      if (!set) listeners.set(owner, (set = new Set()));
      set.add(listener);
      socket.on('message', () => {
        // The channel only speaks; what a client says is ignored.
      });
      socket.on('close', () => {
        clearTimeout(listener.timer);
        set.delete(listener);
        if (set.size === 0) listeners.delete(owner);
      });
    },
  );
};
