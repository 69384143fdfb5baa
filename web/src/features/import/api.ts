import { keepPreviousData, queryOptions, replaceEqualDeep, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  importMessages,
  importRowsPageSchema,
  importRowViewSchema,
  isIgnorableUploadError,
  TEMPLATE_FILE_NAME,
  uploadResponseSchema,
  type EditImportRow,
  type ImportRecord,
  type RowStatus,
  type UploadResponse,
} from '@contracts/imports';
import { toast } from '@/components/ui/use-toast';
import { myCardsQueryOptions } from '@/features/collection/api';
import { portfolioQueryOptions } from '@/features/portfolio/api';
import { ApiError, apiRequest, apiUpload, getQueryFn } from '@/lib/api-client';
import { saveFile } from '@/lib/save-file';

// The import calls of SPEC.md §7 with the toasts of §8: the template, the upload, the history, delete; and beyond
// SPEC cancel, every row's outcome, a failed row's URLs fixed, and retry of the failed rows. The imports list in the
// cache is the one state of every import: the live channel (./live-imports.ts) keeps it current.

export const importsQueryOptions = queryOptions({
  queryKey: ['/api/imports'],
  queryFn: getQueryFn<ImportRecord[]>({ on401: 'returnNull' }),
  // The bar never goes back (SPEC.md §4): a read that left the server before the last live message came keeps the
  // record that message made. A retry (processing after finished) is not going back.
  structuralSharing: (previous, next) => {
    const before = new Map((previous as ImportRecord[] | null | undefined)?.map((record) => [record.id, record]));
    const kept = (next as ImportRecord[] | null)?.map((record) => {
      const old = before.get(record.id);
      return old && old.status === 'processing' && record.status === 'processing' && (record.progress < old.progress || record.processedCards < old.processedCards) ? old : record;
    });
    return replaceEqualDeep(previous, kept ?? next);
  },
});

/** The import page reads the list again whenever it is shown: coming back to it shows the imports as they are now. */
export function useImports(enabled: boolean) {
  const query = useQuery({ ...importsQueryOptions, enabled, refetchOnMount: 'always' });
  return { ...query, imports: query.data ?? [] };
}

/**
 * Imports this tab started or retried, to be announced once finished even if no read ever saw them running (a
 * retry of one row can finish before its answer arrives): by id, the startedAt the finished record must have (a
 * retry's), or null for any.
 */
export const awaitedImports = new Map<string, string | null>();

/** One record in the cached list, put there or replaced: what the server just answered about it. */
function putRecord(queryClient: QueryClient, record: ImportRecord): void {
  queryClient.setQueryData<ImportRecord[] | null>(importsQueryOptions.queryKey, (list) => {
    const others = (list ?? []).filter((item) => item.id !== record.id);
    return list?.some((item) => item.id === record.id) ? (list ?? []).map((item) => (item.id === record.id ? record : item)) : [record, ...others];
  });
}

const serverMessageOf = (error: Error) => (error instanceof ApiError ? error.serverMessage : undefined);

/** SPEC.md §7: after an import, the collection, the portfolio and the imports (and their rows) are read again. */
export function refreshAfterImport(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: myCardsQueryOptions.queryKey });
  void queryClient.invalidateQueries({ queryKey: portfolioQueryOptions.queryKey });
  void queryClient.invalidateQueries({ queryKey: importsQueryOptions.queryKey });
}

/** GET /api/download-template, saved as card-import-template.xlsx. */
export function useDownloadTemplateMutation() {
  return useMutation({
    mutationFn: async () => {
      const response = await fetch('/api/download-template', { credentials: 'include' });
      if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
      saveFile(await response.blob(), TEMPLATE_FILE_NAME);
    },
    onSuccess: () => toast({ ...importMessages.templateDownloaded }),
    onError: () => toast({ ...importMessages.downloadFailed, variant: 'destructive' }),
  });
}

/** Stats nested or at the top level (SPEC.md §7); the total falls back to 432 (§9). */
export function statsOf(response: Partial<UploadResponse>) {
  const stats = response.stats ?? response;
  return { total: stats.total ?? 432, toProcess: stats.toProcess ?? stats.total ?? 432, duplicates: stats.duplicates ?? 0, failed: stats.failed ?? 0 };
}

export function useUploadMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return { file, response: uploadResponseSchema.partial().parse(await (await apiUpload('/api/ultra-fast-upload', form)).json()) };
    },
    onSuccess: ({ file, response }) => {
      // Seen running at once, before the list is read again: an import that finishes before that read is still
      // seen finishing (announced, the collection refreshed) and the channel opens now.
      if (response.importId) {
        awaitedImports.set(response.importId, null);
        const total = statsOf(response).total;
        const now = new Date().toISOString();
        putRecord(queryClient, {
          id: response.importId,
          fileName: file.name,
          fileSize: file.size,
          status: 'processing',
          totalCards: total,
          processedCards: 0,
          successfulCards: 0,
          failedCards: 0,
          duplicateCards: 0,
          progress: 0,
          currentStage: 'preparing',
          errorMessage: null,
          createdAt: now,
          startedAt: now,
          completedAt: null,
        });
      }
      void queryClient.invalidateQueries({ queryKey: importsQueryOptions.queryKey, exact: true });
    },
  });
}

/** The upload's failure toast; an error saying the cards are already collected or that the import started is not one. */
export function uploadFailure(error: Error): string | null {
  const message = serverMessageOf(error) ?? importMessages.uploadFailed.description;
  if (isIgnorableUploadError(message)) return null;
  toast({ title: importMessages.uploadFailed.title, description: message, variant: 'destructive' });
  return message;
}

export function useDeleteImportMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => apiRequest('DELETE', `/api/imports/${id}`),
    onSuccess: (_response, id) => {
      queryClient.setQueryData(importsQueryOptions.queryKey, (imports) => imports?.filter((i) => i.id !== id));
      void queryClient.invalidateQueries({ queryKey: importsQueryOptions.queryKey });
      toast({ ...importMessages.importDeleted });
    },
    onError: () => toast({ ...importMessages.deleteFailed, variant: 'destructive' }),
  });
}

/** Beyond SPEC: stop a running import, or work on a finished one's failed rows again. */
export function useImportActionMutation(action: 'cancel' | 'retry-failed') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => (await (await apiRequest('POST', `/api/imports/${id}/${action}`)).json()) as ImportRecord,
    // The answer is the import as it is now (a retry: processing again): in the list at once, so the live channel
    // follows it from here.
    onSuccess: (record) => {
      if (action === 'retry-failed') awaitedImports.set(record.id, record.startedAt);
      putRecord(queryClient, record);
      void queryClient.invalidateQueries({ queryKey: importsQueryOptions.queryKey });
    },
    onError: (error) => toast({ title: 'Error', description: serverMessageOf(error) ?? error.message, variant: 'destructive' }),
  });
}

export const IMPORT_ROWS_PAGE_SIZE = 20;

/** GET /api/imports/{id}/rows: a page of rows, `status` filtering. Under the imports' key: reading the list reads these. */
export function useImportRows(importId: string, status: RowStatus | 'all', page: number) {
  return useQuery({
    queryKey: [...importsQueryOptions.queryKey, importId, 'rows', status, page],
    queryFn: async ({ signal }) => {
      const params = new URLSearchParams({ page: String(page), pageSize: String(IMPORT_ROWS_PAGE_SIZE), ...(status === 'all' ? {} : { status }) });
      const response = await fetch(`/api/imports/${importId}/rows?${params}`, { credentials: 'include', signal });
      if (!response.ok) throw new ApiError(response.status, response.statusText, await response.text());
      return importRowsPageSchema.parse(await response.json());
    },
    placeholderData: keepPreviousData,
  });
}

/** PATCH /api/imports/{id}/rows/{row}: a failed row's URLs, fixed before Retry failed. */
export function useEditImportRowMutation(importId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ row, ...body }: EditImportRow & { row: number }) => importRowViewSchema.parse(await (await apiRequest('PATCH', `/api/imports/${importId}/rows/${row}`, body)).json()),
    onSuccess: (row) => {
      void queryClient.invalidateQueries({ queryKey: [...importsQueryOptions.queryKey, importId, 'rows'] });
      toast({ title: 'Row Updated', description: `Row ${row.row} will be tried with its new URL when you retry the failed rows.` });
    },
  });
}

/** Where the failed rows' CSV is downloaded from (the template's columns: fix it offline and import it again). */
export const failedRowsCsvUrl = (importId: string) => `/api/imports/${importId}/failed-rows.csv`;
