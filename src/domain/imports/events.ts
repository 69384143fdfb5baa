import { z } from 'zod';
import { ownerSchema } from '../cards/events.ts';
import type { DomainEvent } from '../decider.ts';

// The events of a bulk import. The import itself is stream `import-<importId>`: started with its rows, then
// completed, cancelled, retried or deleted. Each row's outcome is a stream of its own, `import-row-<importId>-<row>`,
// so fifty rows finishing at once never queue on one stream, and the store itself guarantees one outcome per row
// (and generation: retrying failed rows starts the next). Version 1 of each; times are ISO strings from the clock.

/** A row as read from the file, with what was decided about it before any work. */
export const importRowSchema = z.object({
  /** The row's number in the spreadsheet (the header is row 1). */
  row: z.number().int().positive(),
  frontImageUrl: z.string().nullable(),
  backImageUrl: z.string().nullable(),
  itemId: z.string().nullable(),
  /** Why the row cannot be graded (no valid FrontImage…): it fails without any work. */
  problem: z.string().nullable(),
  /** An earlier row of the same file with the same images: this one is a duplicate without any work. */
  duplicateOf: z.number().int().positive().nullable(),
  /** The portfolio card the row becomes if it is graded, drawn when the import started so a retry never adds a second. */
  portfolioCardId: z.number().int().positive(),
});
export type ImportRow = z.infer<typeof importRowSchema>;

export const importStartedSchema = z.object({
  importId: z.uuid(),
  owner: ownerSchema,
  fileName: z.string(),
  fileSize: z.number().int().nonnegative(),
  rows: z.array(importRowSchema),
  startedAt: z.string(),
});
export type ImportStarted = DomainEvent<'ImportStarted', z.infer<typeof importStartedSchema>>;

/** Every row has its outcome: decided by the import's process manager from the imports read model. */
export const importCompletedSchema = z.object({ importId: z.uuid(), completedAt: z.string() });
export type ImportCompleted = DomainEvent<'ImportCompleted', z.infer<typeof importCompletedSchema>>;

/** The owner stopped it: rows without an outcome are not worked on any more. */
export const importCancelledSchema = z.object({ importId: z.uuid(), cancelledAt: z.string() });
export type ImportCancelled = DomainEvent<'ImportCancelled', z.infer<typeof importCancelledSchema>>;

/** The owner asked for the failed rows again: they are worked on once more, as generation `generation`. */
export const importFailedRowsRetriedSchema = z.object({
  importId: z.uuid(),
  rows: z.array(z.number().int().positive()),
  generation: z.number().int().positive(),
  retriedAt: z.string(),
});
export type ImportFailedRowsRetried = DomainEvent<'ImportFailedRowsRetried', z.infer<typeof importFailedRowsRetriedSchema>>;

/** The owner fixed a failed row's URLs (a finished import's): the next retry of the failed rows uses these. */
export const importRowEditedSchema = z.object({
  importId: z.uuid(),
  row: z.number().int().positive(),
  frontImageUrl: z.string(),
  backImageUrl: z.string().nullable(),
  editedAt: z.string(),
});
export type ImportRowEdited = DomainEvent<'ImportRowEdited', z.infer<typeof importRowEditedSchema>>;

export const importDeletedSchema = z.object({ importId: z.uuid(), owner: ownerSchema, deletedAt: z.string() });
export type ImportDeleted = DomainEvent<'ImportDeleted', z.infer<typeof importDeletedSchema>>;

export type ImportEvent = ImportStarted | ImportCompleted | ImportCancelled | ImportFailedRowsRetried | ImportRowEdited | ImportDeleted;

const rowOutcomeBase = {
  importId: z.uuid(),
  owner: ownerSchema,
  row: z.number().int().positive(),
  /** 0 for the import's first pass; each retry of failed rows is the next. */
  generation: z.number().int().nonnegative(),
  /** Milliseconds the row took, download to outcome. */
  processingMs: z.number().int().nonnegative(),
  at: z.string(),
};

export const importRowGradedSchema = z.object({
  ...rowOutcomeBase,
  cardId: z.string(),
  portfolioCardId: z.number().int().positive(),
  cardName: z.string(),
});
export type ImportRowGraded = DomainEvent<'ImportRowGraded', z.infer<typeof importRowGradedSchema>>;

export const importRowDuplicateSchema = z.object({
  ...rowOutcomeBase,
  /** The card the user already has, when known (null for a repeat of an earlier row of the file). */
  cardId: z.string().nullable(),
  reason: z.string(),
});
export type ImportRowDuplicate = DomainEvent<'ImportRowDuplicate', z.infer<typeof importRowDuplicateSchema>>;

export const importRowFailedSchema = z.object({
  ...rowOutcomeBase,
  code: z.string(),
  reason: z.string(),
});
export type ImportRowFailed = DomainEvent<'ImportRowFailed', z.infer<typeof importRowFailedSchema>>;

export type ImportRowEvent = ImportRowGraded | ImportRowDuplicate | ImportRowFailed;

export const importEventSchemas = {
  ImportStarted: importStartedSchema,
  ImportCompleted: importCompletedSchema,
  ImportCancelled: importCancelledSchema,
  ImportFailedRowsRetried: importFailedRowsRetriedSchema,
  ImportRowEdited: importRowEditedSchema,
  ImportDeleted: importDeletedSchema,
  ImportRowGraded: importRowGradedSchema,
  ImportRowDuplicate: importRowDuplicateSchema,
  ImportRowFailed: importRowFailedSchema,
} as const;
