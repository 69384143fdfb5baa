import { useEffect, useRef, useState } from 'react';
import { importProgressSchema, importRecordSchema, SOCKET_RECONNECT_MS, stageMessage, type ImportProgress, type ImportRecord } from '@contracts/imports';

// Live progress of one import over GET /ws (SPEC.md §7): the socket is open while the import runs and reconnects
// 2 s after it drops; on every (re)connection the import is read once, so a message missed meanwhile is made up
// for. The bar never goes back (SPEC.md §4): a message behind the one shown is ignored.

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
    message: stageMessage(record.currentStage, record.processedCards, record.totalCards),
  };
}

function isFinished(progress: ImportProgress | null) {
  return progress !== null && progress.status !== 'processing';
}

export function useImportProgress(importId: string | null, onFinished: (progress: ImportProgress) => void) {
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const finishedRef = useRef(onFinished);
  finishedRef.current = onFinished;

  useEffect(() => {
    if (!importId) return;
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    setProgress(null);

    function show(next: ImportProgress) {
      if (done || next.importId !== importId) return;
      setProgress((shown) => (shown && !isFinished(next) && (next.progress < shown.progress || next.current < shown.current) ? shown : next));
      if (isFinished(next)) {
        done = true;
        socket?.close();
        finishedRef.current(next);
      }
    }

    async function catchUp() {
      try {
        const response = await fetch(`/api/imports/${importId}`, { credentials: 'include' });
        if (response.ok) show(progressFromRecord(importRecordSchema.parse(await response.json())));
      } catch {
        // The socket brings the next message anyway.
      }
    }

    function connect() {
      if (done) return;
      const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(`${scheme}//${window.location.host}/ws`);
      socket.onopen = () => void catchUp();
      socket.onmessage = (event) => {
        try {
          const parsed = importProgressSchema.safeParse(JSON.parse(String(event.data)));
          if (parsed.success) show(parsed.data);
        } catch {
          // Not a progress message.
        }
      };
      socket.onclose = () => {
        if (!done) retry = setTimeout(connect, SOCKET_RECONNECT_MS);
      };
    }
    connect();
    return () => {
      done = true;
      clearTimeout(retry);
      socket?.close();
    };
  }, [importId]);

  return progress;
}
