import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { importMessages, importProgressSchema, SOCKET_RECONNECT_MS, stageMessage, type ImportProgress, type ImportRecord } from '@contracts/imports';
import { toast } from '@/components/ui/use-toast';
import { useUser } from '@/features/auth/api';
import { awaitedImports, importsQueryOptions, refreshAfterImport } from './api';

// Imports live wherever the user is (issue 35). One channel per tab, mounted with the app shell, not with the import
// page: the page's own socket and state died when the user left it, so a progress panel came back empty and the
// history showed the "Processing 0%" of its last read (data is never stale here, SPEC.md §9) long after the import
// had finished; and nothing listened for an import retried from the history, which stayed at its 80% until some
// other read. Now the imports list in the query cache is the one state: GET /ws (SPEC.md §7) is open while any
// import in it is processing, each message updates its record there, every (re)connection reads the list again so
// a message missed meanwhile (or before the socket opened) is made up for, and an import seen running that is seen
// finished, by a message or by a read, refreshes the collection and the portfolio and says so, once.

export const importProgressKey = (importId: string) => ['import-progress', importId] as const;

export function progressFromRecord(record: ImportRecord): ImportProgress {
  return {
    type: 'import-progress',
    importId: record.id,
    current: record.processedCards,
    total: record.totalCards,
    progress: record.progress,
    failed: record.failedCards,
    duplicates: record.duplicateCards,
    successful: record.successfulCards,
    currentCard: null,
    estimatedTimeRemaining: null,
    averageTimePerCard: null,
    stage: record.currentStage,
    status: record.status,
    message:
      record.status === 'cancelled' ? 'Import cancelled.' : record.status === 'failed' ? 'Import finished: no row could be imported.' : stageMessage(record.currentStage, record.processedCards, record.totalCards),
  };
}

/** A message behind the record while both say processing is an older one (another process was slower): dropped. */
export const isBehind = (next: Pick<ImportProgress, 'status' | 'progress' | 'current'>, shown: Pick<ImportProgress, 'status' | 'progress' | 'current'>) =>
  next.status === 'processing' && shown.status === 'processing' && (next.progress < shown.progress || next.current < shown.current);

/**
 * A rows list on screen follows the rows' outcomes, read again at most this often while its import runs, and always
 * once it has ended: the last rows' outcomes come with the last message, however soon after the one before.
 */
const ROWS_REFRESH_MS = 1_000;
const rowsReadAt = new Map<string, number>();

function refreshRows(queryClient: QueryClient, importId: string, ended: boolean): void {
  if (!ended && Date.now() - (rowsReadAt.get(importId) ?? 0) < ROWS_REFRESH_MS) return;
  rowsReadAt.set(importId, Date.now());
  // Only lists on screen are read; the others are read when shown.
  void queryClient.invalidateQueries({ queryKey: [...importsQueryOptions.queryKey, importId, 'rows'] });
}

function applyMessage(queryClient: QueryClient, progress: ImportProgress): void {
  const imports = queryClient.getQueryData<ImportRecord[] | null>(importsQueryOptions.queryKey);
  const record = imports?.find((item) => item.id === progress.importId);
  if (!imports || !record) {
    // An import this tab has not read yet (started in another tab): read the list.
    void queryClient.invalidateQueries({ queryKey: importsQueryOptions.queryKey, exact: true });
    return;
  }
  if (isBehind(progress, progressFromRecord(record))) return;
  queryClient.setQueryData(importProgressKey(progress.importId), progress);
  refreshRows(queryClient, progress.importId, progress.status !== 'processing');
  queryClient.setQueryData<ImportRecord[] | null>(importsQueryOptions.queryKey, (list) =>
    list?.map((item) =>
      item.id !== progress.importId
        ? item
        : {
            ...item,
            status: progress.status,
            totalCards: progress.total,
            processedCards: progress.current,
            successfulCards: progress.successful,
            failedCards: progress.failed,
            duplicateCards: progress.duplicates,
            progress: progress.progress,
            currentStage: progress.stage,
          },
    ),
  );
}

function announce(record: ImportRecord): void {
  const { successfulCards: graded, duplicateCards: duplicates, failedCards: failed } = record;
  toast({
    title: record.status === 'cancelled' ? 'Import Cancelled' : 'Import Complete',
    description: `${graded} card${graded === 1 ? '' : 's'} graded, ${duplicates} duplicate${duplicates === 1 ? '' : 's'}, ${failed} failed.`,
    duration: importMessages.completeDurationMs,
  });
}

/** The channel: mounted once, in the app shell, for a signed-in user. */
export function useImportsLiveChannel(): void {
  const { user } = useUser();
  const queryClient = useQueryClient();
  const { data } = useQuery({ ...importsQueryOptions, enabled: user !== null });
  const imports = user ? (data ?? null) : null;
  const running = imports?.some((item) => item.status === 'processing') ?? false;

  // Finished imports: those seen processing before and not now, whichever way the news came, and those this tab
  // started or retried once seen finished (that pass, not the one before it).
  const seen = useRef(new Map<string, ImportRecord['status']>());
  useEffect(() => {
    if (!imports) return;
    let finished = false;
    for (const record of imports) {
      const awaited = awaitedImports.has(record.id) && (awaitedImports.get(record.id) ?? record.startedAt) === record.startedAt;
      if (record.status !== 'processing' && (awaited || seen.current.get(record.id) === 'processing')) {
        finished = true;
        awaitedImports.delete(record.id);
        announce(record);
      }
      seen.current.set(record.id, record.status);
    }
    if (finished) refreshAfterImport(queryClient);
  }, [imports, queryClient]);

  const userId = user?.id;
  useEffect(() => {
    if (!userId || !running) return;
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    function connect() {
      if (closed) return;
      const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(`${scheme}//${window.location.host}/ws`);
      socket.onopen = () => void queryClient.invalidateQueries({ queryKey: importsQueryOptions.queryKey, exact: true });
      socket.onmessage = (event) => {
        try {
          const parsed = importProgressSchema.safeParse(JSON.parse(String(event.data)));
          if (parsed.success) applyMessage(queryClient, parsed.data);
        } catch {
          // Not a progress message.
        }
      };
      socket.onclose = () => {
        if (!closed) retry = setTimeout(connect, SOCKET_RECONNECT_MS);
      };
    }
    connect();
    return () => {
      closed = true;
      clearTimeout(retry);
      socket?.close();
    };
  }, [userId, running, queryClient]);
}

/** The last live message about an import (its current card, time left), if one came since the page loaded. */
export function useLiveProgress(importId: string | null): ImportProgress | null {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: importProgressKey(importId ?? ''),
    queryFn: () => queryClient.getQueryData<ImportProgress>(importProgressKey(importId ?? '')) ?? null,
    enabled: false,
  });
  return importId ? (data ?? null) : null;
}

/** Mounted in the app shell. */
export function ImportsLiveChannel() {
  useImportsLiveChannel();
  return null;
}
