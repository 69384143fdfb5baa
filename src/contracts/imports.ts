import { z } from 'zod';

// Bulk import (SPEC.md §2 Bulk import, §3 Import record and Import progress message, §5 file rules, §7 the import
// calls and /ws, §9 Import), shared by the server and the web app.

/** SPEC.md §5: the accepted file types, by extension (the server also checks the content). */
export const IMPORT_EXTENSIONS = ['.xlsx', '.xls', '.csv'] as const;
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;
export const TEMPLATE_FILE_NAME = 'card-import-template.xlsx';
/** The template's columns, in order (SPEC.md §5). */
export const TEMPLATE_COLUMNS = ['FrontImage', 'BackImage', 'ItemID'] as const;
/** SPEC.md §9: the total shown when an answer has none. */
export const FALLBACK_TOTAL = 432;
/** SPEC.md §9: the socket reconnects after this. */
export const SOCKET_RECONNECT_MS = 2_000;

export const IMPORT_STAGES = ['preparing', 'analyzing', 'saving', 'completed'] as const;
export type ImportStage = (typeof IMPORT_STAGES)[number];

/** SPEC.md §4: completed, processing, failed or other (here: cancelled). */
export const IMPORT_STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const ROW_STATUSES = ['pending', 'graded', 'duplicate', 'failed'] as const;
export type RowStatus = (typeof ROW_STATUSES)[number];

/** One import as GET /api/imports lists it: SPEC.md §3's import record, and its stage and message. */
export const importRecordSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  fileSize: z.number().int(),
  status: z.enum(IMPORT_STATUSES),
  totalCards: z.number().int(),
  processedCards: z.number().int(),
  successfulCards: z.number().int(),
  failedCards: z.number().int(),
  duplicateCards: z.number().int(),
  progress: z.number().int().min(0).max(100),
  currentStage: z.enum(IMPORT_STAGES),
  errorMessage: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type ImportRecord = z.infer<typeof importRecordSchema>;

/** POST /api/ultra-fast-upload's answer: the stats at the top level and nested (SPEC.md §7 reads either). */
export const uploadStatsSchema = z.object({
  total: z.number().int(),
  toProcess: z.number().int(),
  successful: z.number().int(),
  duplicates: z.number().int(),
  failed: z.number().int(),
});
export const uploadResponseSchema = uploadStatsSchema.extend({
  importId: z.string(),
  message: z.string(),
  stats: uploadStatsSchema,
});
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

/** SPEC.md §3: the live channel's message (GET /ws), with the import it is about. */
export const importProgressSchema = z.object({
  type: z.literal('import-progress'),
  importId: z.string(),
  current: z.number().int(),
  total: z.number().int(),
  progress: z.number().int().min(0).max(100),
  failed: z.number().int(),
  duplicates: z.number().int(),
  successful: z.number().int(),
  /** What was last worked on: the card's name, or its row. */
  currentCard: z.string().nullable(),
  /** Seconds. */
  estimatedTimeRemaining: z.number().int().nullable(),
  /** Seconds, one decimal. */
  averageTimePerCard: z.number().nullable(),
  stage: z.enum(IMPORT_STAGES),
  status: z.enum(IMPORT_STATUSES),
  message: z.string(),
});
export type ImportProgress = z.infer<typeof importProgressSchema>;

/** One row of an import as GET /api/imports/{id}/rows shows it: what the file said and what became of it. */
export const importRowViewSchema = z.object({
  /** The row's number in the spreadsheet (the header is row 1). */
  row: z.number().int().positive(),
  frontImageUrl: z.string().nullable(),
  backImageUrl: z.string().nullable(),
  itemId: z.string().nullable(),
  status: z.enum(ROW_STATUSES),
  /** Why it failed or is a duplicate, in plain words; null while pending and once graded. */
  reason: z.string().nullable(),
  /** The collection card the row became (graded) or repeats (duplicate), while it exists. */
  cardId: z.string().nullable(),
});
export type ImportRowView = z.infer<typeof importRowViewSchema>;

export const IMPORT_ROWS_MAX_PAGE_SIZE = 200;

/** GET /api/imports/{id}/rows?status=&page=&pageSize= */
export const importRowsQuerySchema = z.strictObject({
  status: z.enum(ROW_STATUSES).optional().meta({ description: 'Only rows with this outcome' }),
  page: z.coerce.number().int().min(1).max(100_000).default(1).meta({ description: 'From 1' }),
  pageSize: z.coerce.number().int().min(1).max(IMPORT_ROWS_MAX_PAGE_SIZE).default(50),
});
export type ImportRowsQuery = z.infer<typeof importRowsQuerySchema>;

export const importRowsPageSchema = z.object({
  rows: z.array(importRowViewSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Rows matching the filter, over every page. */
  total: z.number().int(),
});
export type ImportRowsPage = z.infer<typeof importRowsPageSchema>;

/** PATCH /api/imports/{id}/rows/{row}: a failed row's URLs, fixed before its import's failed rows are retried. */
export const editImportRowSchema = z.strictObject({
  frontImageUrl: z.string().meta({ description: 'A direct http(s) image URL of the front of the card' }),
  backImageUrl: z.string().nullable().optional().meta({ description: 'The back; empty or null for none' }),
});
export type EditImportRow = z.infer<typeof editImportRowSchema>;

export const importRowParamsSchema = z.object({
  id: z.string().meta({ description: 'The import id (a UUID)' }),
  row: z.string().meta({ description: "The row's number in the spreadsheet" }),
});

/** The CSV of an import's failed rows: the template's columns, so the fixed file can be imported again. */
export const failedRowsFileName = (fileName: string) => `${fileName.replace(/\.(xlsx|xls|csv)$/i, '').replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'import'}-failed-rows.csv`;

export const importIdParamsSchema = z.object({ id: z.string().meta({ description: 'The import id (a UUID)' }) });

/** The text shown beside the bar for a stage. */
export function stageMessage(stage: ImportStage, current: number, total: number): string {
  switch (stage) {
    case 'preparing':
      return `Preparing ${total} card${total === 1 ? '' : 's'}...`;
    case 'analyzing':
      return `Analyzing cards: ${current} of ${total}`;
    case 'saving':
      return 'Saving results...';
    case 'completed':
      return `Import complete: ${current} of ${total} cards processed`;
  }
}

/** SPEC.md §5, §8: the import screen's messages, word for word. */
export const importMessages = {
  invalidFileType: { title: 'Invalid File Type', description: 'Please upload an Excel file (.xlsx, .xls) or CSV file' },
  noFileSelected: { title: 'No File Selected', description: 'Please select a file to upload.' },
  uploadFailed: { title: 'Upload Failed', description: 'Upload failed' },
  uploadFailedPanel: 'Upload failed. Please try again.',
  deleteFailed: { title: 'Delete Failed', description: 'Failed to delete import. Please try again.' },
  downloadFailed: { title: 'Download Failed', description: 'Failed to download template. Please try again.' },
  templateDownloaded: { title: 'Template Downloaded', description: `${TEMPLATE_FILE_NAME} is in your downloads: one card per row, the front image URL under FrontImage.` },
  importDeleted: { title: 'Import Deleted' },
  /** SPEC.md §9: the import's success toast stays 10 s. */
  completeDurationMs: 10_000,
} as const;

/** SPEC.md §8: an upload error saying the cards are already collected, or that the import started, is not an error. */
export const isIgnorableUploadError = (message: string) => /already (in|exist)|import (has )?started/i.test(message);
