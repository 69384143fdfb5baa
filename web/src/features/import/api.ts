import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { importMessages, isIgnorableUploadError, TEMPLATE_FILE_NAME, uploadResponseSchema, type ImportRecord, type UploadResponse } from '@contracts/imports';
import { toast } from '@/components/ui/use-toast';
import { myCardsQueryOptions } from '@/features/collection/api';
import { portfolioQueryOptions } from '@/features/portfolio/api';
import { ApiError, apiRequest, apiUpload, getQueryFn } from '@/lib/api-client';

// The import calls of SPEC.md §7 with the toasts of §8: the template, the upload, the history, delete; and beyond
// SPEC cancel and retry of the failed rows.

export const importsQueryOptions = queryOptions({
  queryKey: ['/api/imports'],
  queryFn: getQueryFn<ImportRecord[]>({ on401: 'returnNull' }),
});

export function useImports(enabled: boolean) {
  const query = useQuery({ ...importsQueryOptions, enabled });
  return { ...query, imports: query.data ?? [] };
}

const serverMessageOf = (error: Error) => (error instanceof ApiError ? error.serverMessage : undefined);

/** SPEC.md §7: after an import, the collection, the portfolio and the imports are read again. */
export function useRefreshAfterImport() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: myCardsQueryOptions.queryKey });
    void queryClient.invalidateQueries({ queryKey: portfolioQueryOptions.queryKey });
    void queryClient.invalidateQueries({ queryKey: importsQueryOptions.queryKey });
  };
}

/** GET /api/download-template, saved as card-import-template.xlsx. */
export function useDownloadTemplateMutation() {
  return useMutation({
    mutationFn: async () => {
      const response = await fetch('/api/download-template', { credentials: 'include' });
      if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = TEMPLATE_FILE_NAME;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1_000);
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
      return uploadResponseSchema.partial().parse(await (await apiUpload('/api/ultra-fast-upload', form)).json());
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: importsQueryOptions.queryKey }),
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
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: importsQueryOptions.queryKey }),
    onError: (error) => toast({ title: 'Error', description: serverMessageOf(error) ?? error.message, variant: 'destructive' }),
  });
}
