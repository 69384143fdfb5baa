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
