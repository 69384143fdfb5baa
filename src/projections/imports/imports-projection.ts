import { sql, type Transaction } from 'kysely';
import { cardDeletedSchema } from '../../domain/cards/index.ts';
import {
  importCancelledSchema,
  importCompletedSchema,
  importDeletedSchema,
  importFailedRowsRetriedSchema,
  importRowDuplicateSchema,
  importRowEditedSchema,
  importRowFailedSchema,
  importRowGradedSchema,
  importStartedSchema,
} from '../../domain/imports/index.ts';
import type { Tables } from '../../infra/database/schema.ts';
import type { InlineProjection, RecordedEvent } from '../../infra/event-store/types.ts';
import { userIdOf } from '../cards/owner.ts';

// Inline: the import screen shows an upload's import at once, and its counts move with every row's outcome in the
// outcome's own transaction, so the counts are exactly the outcomes recorded. Progress only goes up within a pass;
// the time per card and the time left come from the events' own times, so a rebuild gives the same figures.

const ROWS_PER_INSERT = 1_000;

async function applyOutcome(
  trx: Transaction<Tables>,
  outcome: { importId: string; row: number; generation: number; processingMs: number; at: string },
  row: { status: 'graded' | 'duplicate' | 'failed'; cardId: string | null; errorMessage: string | null; currentCard: string },
): Promise<void> {
  await trx
    .updateTable('import_cards')
    .set({ status: row.status, card_id: row.cardId, error_message: row.errorMessage, processing_time: outcome.processingMs, generation: outcome.generation })
    .where('id', '=', `${outcome.importId}:${outcome.row}`)
    .execute();
  const graded = row.status === 'graded' ? 1 : 0;
  const failed = row.status === 'failed' ? 1 : 0;
  const duplicate = row.status === 'duplicate' ? 1 : 0;
  await sql`
    update imports set
      processed_cards = processed_cards + 1,
      successful_cards = successful_cards + ${graded},
      failed_cards = failed_cards + ${failed},
      duplicate_cards = duplicate_cards + ${duplicate},
      progress = greatest(progress, least(100, floor((processed_cards + 1) * 100.0 / greatest(total_cards, 1))::int)),
      current_stage = case when status <> 'processing' then current_stage when processed_cards + 1 >= total_cards then 'saving' else 'analyzing' end,
      current_card = ${row.currentCard},
      last_processed_row = greatest(last_processed_row, ${outcome.row}),
      average_time_per_card_ms = round(greatest(0, extract(epoch from (${outcome.at}::timestamptz - started_at)) * 1000) / (processed_cards + 1))::int,
      estimated_time_remaining = ceil(greatest(0, extract(epoch from (${outcome.at}::timestamptz - started_at))) / (processed_cards + 1) * greatest(0, total_cards - processed_cards - 1))::int,
      updated_at = ${outcome.at}::timestamptz
    where id = ${outcome.importId}
  `.execute(trx);
}

async function applyOne(trx: Transaction<Tables>, event: RecordedEvent): Promise<void> {
  switch (event.type) {
    case 'ImportStarted': {
      const data = importStartedSchema.parse(event.data);
      await trx
        .insertInto('imports')
        .values({
          id: data.importId,
          owner: data.owner,
          user_id: userIdOf(data.owner)!,
          file_name: data.fileName,
          file_size: data.fileSize,
          total_cards: data.rows.length,
          status: 'processing',
          current_stage: 'preparing',
          started_at: data.startedAt,
          created_at: data.startedAt,
          updated_at: data.startedAt,
        })
        .onConflict((c) => c.column('id').doNothing())
        .execute();
      for (let from = 0; from < data.rows.length; from += ROWS_PER_INSERT) {
        await trx
          .insertInto('import_cards')
          .values(
            data.rows.slice(from, from + ROWS_PER_INSERT).map((row) => ({
              id: `${data.importId}:${row.row}`,
              import_id: data.importId,
              portfolio_card_id: row.portfolioCardId,
              front_image_url: row.frontImageUrl ?? '',
              back_image_url: row.backImageUrl,
              item_id: row.itemId,
              row_number: row.row,
              status: 'pending' as const,
              problem: row.problem,
              duplicate_of: row.duplicateOf,
              created_at: data.startedAt,
            })),
          )
          .onConflict((c) => c.column('id').doNothing())
          .execute();
      }
      return;
    }
    case 'ImportRowGraded': {
      const data = importRowGradedSchema.parse(event.data);
      return applyOutcome(trx, data, { status: 'graded', cardId: data.cardId, errorMessage: null, currentCard: data.cardName });
    }
    case 'ImportRowDuplicate': {
      const data = importRowDuplicateSchema.parse(event.data);
      return applyOutcome(trx, data, { status: 'duplicate', cardId: data.cardId, errorMessage: data.reason, currentCard: `Row ${data.row}` });
    }
    case 'ImportRowFailed': {
      const data = importRowFailedSchema.parse(event.data);
      return applyOutcome(trx, data, { status: 'failed', cardId: null, errorMessage: data.reason, currentCard: `Row ${data.row}` });
    }
    case 'ImportCompleted': {
      const data = importCompletedSchema.parse(event.data);
      await sql`
        update imports set
          status = case when successful_cards = 0 and duplicate_cards = 0 and failed_cards > 0 then 'failed' else 'completed' end,
          error_message = case when successful_cards = 0 and duplicate_cards = 0 and failed_cards > 0 then 'No row of the file could be imported.' else null end,
          current_stage = 'completed',
          progress = 100,
          estimated_time_remaining = 0,
          completed_at = ${data.completedAt}::timestamptz,
          updated_at = ${data.completedAt}::timestamptz
        where id = ${data.importId}
      `.execute(trx);
      return;
    }
    case 'ImportCancelled': {
      const data = importCancelledSchema.parse(event.data);
      await trx
        .updateTable('imports')
        .set({ status: 'cancelled', error_message: 'Import cancelled.', estimated_time_remaining: null, completed_at: data.cancelledAt, updated_at: data.cancelledAt })
        .where('id', '=', data.importId)
        .execute();
      return;
    }
    case 'ImportFailedRowsRetried': {
      const data = importFailedRowsRetriedSchema.parse(event.data);
      const retried = data.rows.length;
      await trx
        .updateTable('import_cards')
        .set({ status: 'pending', error_message: null, processing_time: null, generation: data.generation })
        .where('import_id', '=', data.importId)
        .where('row_number', 'in', data.rows.length > 0 ? data.rows : [0])
        .execute();
      await sql`
        update imports set
          processed_cards = processed_cards - ${retried},
          failed_cards = failed_cards - ${retried},
          progress = floor((processed_cards - ${retried}) * 100.0 / greatest(total_cards, 1))::int,
          status = 'processing',
          current_stage = 'analyzing',
          error_message = null,
          generation = ${data.generation},
          started_at = ${data.retriedAt}::timestamptz,
          completed_at = null,
          updated_at = ${data.retriedAt}::timestamptz
        where id = ${data.importId}
      `.execute(trx);
      return;
    }
    case 'ImportRowEdited': {
      // The fixed URLs were checked when edited: what was wrong with the file's (its problem) no longer holds, and a
      // repeat of an earlier row is judged again by its photos when it is retried.
      const data = importRowEditedSchema.parse(event.data);
      await trx
        .updateTable('import_cards')
        .set({ front_image_url: data.frontImageUrl, back_image_url: data.backImageUrl, problem: null, duplicate_of: null })
        .where('id', '=', `${data.importId}:${data.row}`)
        .execute();
      return;
    }
    case 'ImportDeleted': {
      const data = importDeletedSchema.parse(event.data);
      await trx.deleteFrom('import_cards').where('import_id', '=', data.importId).execute();
      await trx.deleteFrom('imports').where('id', '=', data.importId).execute();
      return;
    }
    case 'CardDeleted':
      return forgetDeletedCards(trx, [event]);
  }
}

/** Rows that imported a card now deleted no longer point at it. */
async function forgetDeletedCards(trx: Transaction<Tables>, events: readonly RecordedEvent[]): Promise<void> {
  const cardIds = events.map((event) => cardDeletedSchema.parse(event.data).cardId);
  await trx.updateTable('import_cards').set({ card_id: null }).where('card_id', 'in', cardIds).execute();
}

/**
 * The events one at a time, but a run of CardDeleted in one statement: most of a log's events here are deletes of
 * cards no import made (a rebuild hands this projection every CardDeleted of the log), and one statement per delete
 * was most of this projection's share of a rebuild. Deletes in a run only clear card ids, so their order is moot.
 */
async function applyAll(trx: Transaction<Tables>, events: readonly RecordedEvent[]): Promise<void> {
  let deletes: RecordedEvent[] = [];
  for (const event of events) {
    if (event.type === 'CardDeleted') {
      deletes.push(event);
      continue;
    }
    if (deletes.length > 0) await forgetDeletedCards(trx, deletes);
    deletes = [];
    await applyOne(trx, event);
  }
  if (deletes.length > 0) await forgetDeletedCards(trx, deletes);
}

export const importsProjection: InlineProjection = {
  name: 'imports',
  handles: ['ImportStarted', 'ImportRowGraded', 'ImportRowDuplicate', 'ImportRowFailed', 'ImportCompleted', 'ImportCancelled', 'ImportFailedRowsRetried', 'ImportRowEdited', 'ImportDeleted', 'CardDeleted'],
  tables: ['imports', 'import_cards'],
  apply: applyAll,
};
