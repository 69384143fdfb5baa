import type { Kysely } from 'kysely';
import { importRecordSchema, stageMessage, type ImportProgress, type ImportRecord, type ImportRowsPage, type ImportRowsQuery, type ImportRowView, type RowStatus } from '../../contracts/imports.ts';
import { plainRowReason } from '../../domain/imports/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { ImportsTable } from './tables.ts';

// Reads of imports for their owner only: every query of a user's import takes the owner, so another user's import
// is simply not found. The job handlers and start-up read rows by import id.

type ImportRow = Awaited<ReturnType<ReturnType<typeof importColumns>['executeTakeFirstOrThrow']>>;

const iso = (value: Date | string | null) => (value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString());

function importColumns(db: Kysely<Tables>) {
  return db
    .selectFrom('imports')
    .select([
      'id',
      'owner',
      'file_name',
      'file_size',
      'status',
      'total_cards',
      'processed_cards',
      'successful_cards',
      'failed_cards',
      'duplicate_cards',
      'progress',
      'current_stage',
      'current_card',
      'estimated_time_remaining',
      'average_time_per_card_ms',
      'error_message',
      'generation',
      'created_at',
      'started_at',
      'completed_at',
    ]);
}

function recordView(row: ImportRow): ImportRecord {
  return importRecordSchema.parse({
    id: row.id,
    fileName: row.file_name,
    fileSize: row.file_size,
    status: row.status,
    totalCards: row.total_cards,
    processedCards: row.processed_cards,
    successfulCards: row.successful_cards,
    failedCards: row.failed_cards,
    duplicateCards: row.duplicate_cards,
    progress: row.progress,
    currentStage: row.current_stage,
    errorMessage: row.error_message,
    createdAt: iso(row.created_at),
    startedAt: iso(row.started_at),
    completedAt: iso(row.completed_at),
  });
}

/** SPEC.md §3's progress message from an import's row. */
export function progressView(row: Pick<ImportsTable, 'id' | 'total_cards' | 'status' | 'current_stage' | 'current_card' | 'estimated_time_remaining' | 'average_time_per_card_ms'> & { processed_cards: number; failed_cards: number; duplicate_cards: number; successful_cards: number; progress: number }): ImportProgress {
  return {
    type: 'import-progress',
    importId: row.id,
    current: row.processed_cards,
    total: row.total_cards,
    progress: row.progress,
    failed: row.failed_cards,
    duplicates: row.duplicate_cards,
    successful: row.successful_cards,
    currentCard: row.current_card,
    estimatedTimeRemaining: row.estimated_time_remaining,
    averageTimePerCard: row.average_time_per_card_ms === null ? null : Math.round(row.average_time_per_card_ms / 100) / 10,
    stage: row.current_stage,
    status: row.status,
    message:
      row.status === 'cancelled'
        ? 'Import cancelled.'
        : row.status === 'failed'
          ? 'Import finished: no row could be imported.'
          : stageMessage(row.current_stage, row.processed_cards, row.total_cards),
  };
}

export async function listImports(db: Kysely<Tables>, owner: string): Promise<ImportRecord[]> {
  const rows = await importColumns(db).where('owner', '=', owner).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(recordView);
}

export async function findImport(db: Kysely<Tables>, owner: string, importId: string): Promise<ImportRecord | null> {
  const row = await importColumns(db).where('owner', '=', owner).where('id', '=', importId).executeTakeFirst();
  return row ? recordView(row) : null;
}

/** The import's progress as the live channel sends it; null once it is deleted. */
export async function importProgress(db: Kysely<Tables>, importId: string): Promise<{ owner: string; progress: ImportProgress } | null> {
  const row = await importColumns(db).where('id', '=', importId).executeTakeFirst();
  return row ? { owner: row.owner, progress: progressView(row) } : null;
}

/** What a row job needs to know of its import: whether it still runs, and which pass it is. */
export async function importState(db: Kysely<Tables>, importId: string) {
  return db.selectFrom('imports').select(['status', 'generation', 'processed_cards', 'total_cards', 'owner']).where('id', '=', importId).executeTakeFirst();
}

export interface PendingRow {
  importId: string;
  owner: string;
  row: number;
  generation: number;
  frontImageUrl: string | null;
  backImageUrl: string | null;
  itemId: string | null;
  problem: string | null;
  duplicateOf: number | null;
  portfolioCardId: number;
}

/** Rows with no outcome yet of imports still running: what start-up enqueues again. */
export async function pendingRows(db: Kysely<Tables>, options: { importId?: string } = {}): Promise<PendingRow[]> {
  let query = db
    .selectFrom('import_cards')
    .innerJoin('imports', 'imports.id', 'import_cards.import_id')
    .select([
      'import_cards.import_id',
      'imports.owner',
      'import_cards.row_number',
      'import_cards.generation',
      'import_cards.front_image_url',
      'import_cards.back_image_url',
      'import_cards.item_id',
      'import_cards.problem',
      'import_cards.duplicate_of',
      'import_cards.portfolio_card_id',
    ])
    .where('imports.status', '=', 'processing')
    .where('import_cards.status', '=', 'pending');
  if (options.importId) query = query.where('import_cards.import_id', '=', options.importId);
  const rows = await query.orderBy('import_cards.import_id').orderBy('import_cards.row_number').execute();
  return rows.map((r) => ({
    importId: r.import_id,
    owner: r.owner,
    row: r.row_number,
    generation: r.generation,
    frontImageUrl: r.front_image_url === '' ? null : r.front_image_url,
    backImageUrl: r.back_image_url,
    itemId: r.item_id,
    problem: r.problem,
    duplicateOf: r.duplicate_of,
    portfolioCardId: r.portfolio_card_id,
  }));
}

/** Running imports whose every row has its outcome but which are not completed yet (a crash between the two). */
export async function finishedButOpenImports(db: Kysely<Tables>): Promise<string[]> {
  const rows = await db.selectFrom('imports').select('id').where('status', '=', 'processing').whereRef('processed_cards', '>=', 'total_cards').execute();
  return rows.map((r) => r.id);
}

export async function failedRowNumbers(db: Kysely<Tables>, importId: string): Promise<number[]> {
  const rows = await db.selectFrom('import_cards').select('row_number').where('import_id', '=', importId).where('status', '=', 'failed').orderBy('row_number').execute();
  return rows.map((r) => r.row_number);
}

/** Rows of an import and their outcomes, for the owner (and tests). */
export async function importCards(db: Kysely<Tables>, importId: string) {
  return db.selectFrom('import_cards').selectAll().where('import_id', '=', importId).orderBy('row_number').execute();
}

/**
 * A page of an import's rows with their outcomes, by row number; `status` filters. The caller has checked that the
 * import is the owner's (findImport).
 */
export async function importRowsPage(db: Kysely<Tables>, importId: string, query: ImportRowsQuery): Promise<ImportRowsPage> {
  let rows = db.selectFrom('import_cards').where('import_id', '=', importId);
  if (query.status) rows = rows.where('status', '=', query.status);
  const [{ total } = { total: 0 }] = await rows.select((eb) => eb.fn.countAll<number>().as('total')).execute();
  const page = await rows
    .select(ROW_COLUMNS)
    .orderBy('row_number')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  return { rows: page.map(rowView), page: query.page, pageSize: query.pageSize, total: Number(total) };
}

const ROW_COLUMNS = ['row_number', 'front_image_url', 'back_image_url', 'item_id', 'status', 'error_message', 'problem', 'card_id'] as const;

/** One row as the rows route shows it, or null when the import has no such row. */
export async function importRow(db: Kysely<Tables>, importId: string, row: number): Promise<ImportRowView | null> {
  const found = await db.selectFrom('import_cards').select(ROW_COLUMNS).where('id', '=', `${importId}:${row}`).executeTakeFirst();
  return found ? rowView(found) : null;
}

function rowView(r: { row_number: number; front_image_url: string; back_image_url: string | null; item_id: string | null; status: RowStatus; error_message: string | null; problem: string | null; card_id: string | null }): ImportRowView {
  return {
    row: r.row_number,
    frontImageUrl: r.front_image_url === '' ? null : r.front_image_url,
    backImageUrl: r.back_image_url,
    itemId: r.item_id,
    status: r.status,
    // A failed row's reason is its outcome's; a pending row of a retry has none yet.
    reason: r.status === 'failed' || r.status === 'duplicate' ? plainRowReason(r.error_message ?? r.problem) : null,
    cardId: r.card_id,
  };
}

/** A row's current outcome, or null when the import has no such row. */
export async function importRowStatus(db: Kysely<Tables>, importId: string, row: number): Promise<RowStatus | null> {
  const found = await db.selectFrom('import_cards').select('status').where('id', '=', `${importId}:${row}`).executeTakeFirst();
  return found?.status ?? null;
}

/** Every failed row, for the CSV that is fixed offline and imported again. */
export async function failedRows(db: Kysely<Tables>, importId: string) {
  return db.selectFrom('import_cards').select(['row_number', 'front_image_url', 'back_image_url', 'item_id']).where('import_id', '=', importId).where('status', '=', 'failed').orderBy('row_number').execute();
}
