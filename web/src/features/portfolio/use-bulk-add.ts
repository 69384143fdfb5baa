import { analysisResultSchema, cardFromAnalysis } from '@contracts/portfolio-analysis';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '@/components/ui/use-toast';
import { apiRequest } from '@/lib/api-client';
import { portfolioQueryOptions, postPortfolioCard, valueHistoryQueryOptions } from './api';

// The bulk add of SPEC.md §4: each front/back pair is analysed, one pair at a time, and added; an item goes
// analysing, then complete or error. A pair that fails still adds a placeholder 'Unanalyzed Card N'. When all are
// done the items clear after 3 seconds.

export const CLEAR_AFTER_MS = 3_000;

export interface BulkItem {
  n: number;
  status: 'analyzing' | 'complete' | 'error';
  name: string;
}

export interface BulkPair {
  front: string;
  back: string | null;
  /** URL mode: the URLs themselves are kept as the placeholder's pictures. */
  keepAsImages?: boolean;
}

export function useBulkAdd(onCleared: () => void) {
  const queryClient = useQueryClient();
  const [items, setItems] = useState<BulkItem[]>([]);
  const [running, setRunning] = useState(false);
  // The outcome in the dialog too: while the dialog is open, what is outside it (the toast) is hidden from screen readers.
  const [outcome, setOutcome] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const run = useCallback(
    async (pairs: BulkPair[]) => {
      if (pairs.length === 0 || running) return;
      clearTimeout(timer.current);
      setRunning(true);
      setOutcome(null);
      setItems(pairs.map((_, i) => ({ n: i + 1, status: 'analyzing', name: `Card ${i + 1}` })));
      const update = (n: number, item: Partial<BulkItem>) => setItems((all) => all.map((it) => (it.n === n ? { ...it, ...item } : it)));
      let analysed = 0;
      for (const [i, pair] of pairs.entries()) {
        const n = i + 1;
        try {
          const response = await apiRequest('POST', '/api/analyze-card-images', { frontImage: pair.front, backImage: pair.back });
          const result = analysisResultSchema.parse(await response.json());
          await postPortfolioCard(cardFromAnalysis(result));
          analysed++;
          update(n, { status: 'complete', name: result.cardName });
        } catch {
          update(n, { status: 'error', name: `Error analyzing Card ${n}` });
          // The placeholder is still added (SPEC.md §4), with the pictures when they were URLs.
          await postPortfolioCard({
            cardName: `Unanalyzed Card ${n}`,
            isGraded: false,
            category: 'Trading Card',
            ...(pair.keepAsImages ? { imageUrl: pair.front, backImageUrl: pair.back } : {}),
          }).catch(() => undefined);
        }
      }
      void queryClient.invalidateQueries({ queryKey: portfolioQueryOptions.queryKey });
      void queryClient.invalidateQueries({ queryKey: valueHistoryQueryOptions.queryKey });
      setRunning(false);
      if (analysed === 0) {
        toast({ title: 'Error', description: 'Failed to analyze images. Please try adding cards manually.', variant: 'destructive' });
        setItems([]);
        setOutcome('Failed to analyze images. Please try adding cards manually.');
        onCleared();
        return;
      }
      const added = `Successfully analyzed and added ${analysed} card(s) to your portfolio`;
      toast({ title: 'Cards Added', description: added });
      setOutcome(added);
      timer.current = setTimeout(() => {
        setItems([]);
        setOutcome(null);
        onCleared();
      }, CLEAR_AFTER_MS);
    },
    [queryClient, running, onCleared],
  );

  return { items, running, outcome, run };
}

/** A file as a data URL (base64), the way the analysis call takes it. */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}
