import { analysisResultSchema, cardFromAnalysis } from '@contracts/portfolio-analysis';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '@/components/ui/use-toast';
import { ApiError, apiRequest } from '@/lib/api-client';
import { portfolioQueryOptions, postPortfolioCard, valueHistoryQueryOptions } from './api';

// The bulk add of SPEC.md §4: each front/back pair is analysed, one pair at a time, and added; an item goes
// analysing, then complete or error ('Error analyzing Card N'). Only what was analysed is added (issue 35 departs
// from SPEC.md §4 here: no 'Unanalyzed Card N' placeholder, and a total failure's items are not cleared):
// a pair that fails stays listed with the server's reason and the photo or URL it names, and stays in the form to fix
// (onFinished says which pairs were added). When every pair was added the items clear after 3 seconds.

export const CLEAR_AFTER_MS = 3_000;

export interface BulkItem {
  n: number;
  status: 'analyzing' | 'complete' | 'error';
  name: string;
  /** For a failed pair: why, in the server's words, and which side it was about when the server said. */
  failure?: { reason: string; side: 'front' | 'back' | null };
  /** What the person knows the pair by: its URLs or file names. */
  front?: string | undefined;
  back?: string | null | undefined;
}

export interface BulkPair {
  front: string;
  back: string | null;
  /** What the pair is shown as (a URL, a file name); the data itself may be a long data: URL. */
  label?: { front: string; back: string | null };
}

/** The server names the side it could not read ("Front image URL: …"); the reason is the rest. */
export function failureOf(error: unknown): NonNullable<BulkItem['failure']> {
  const message = (error instanceof ApiError ? error.serverMessage : undefined) ?? 'The card could not be analysed. Please try again.';
  const side = /^(Front|Back) image( URL)?: (.*)$/s.exec(message);
  if (!side) return { reason: message, side: null };
  const reason = side[3]!;
  return { reason: reason.charAt(0).toUpperCase() + reason.slice(1), side: side[1] === 'Front' ? 'front' : 'back' };
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
    async (pairs: BulkPair[], onFinished?: (added: ReadonlySet<number>) => void) => {
      if (pairs.length === 0 || running) return;
      clearTimeout(timer.current);
      setRunning(true);
      setOutcome(null);
      setItems(pairs.map((pair, i) => ({ n: i + 1, status: 'analyzing', name: `Card ${i + 1}`, front: pair.label?.front, back: pair.label?.back })));
      const update = (n: number, item: Partial<BulkItem>) => setItems((all) => all.map((it) => (it.n === n ? { ...it, ...item } : it)));
      const added = new Set<number>();
      for (const [i, pair] of pairs.entries()) {
        const n = i + 1;
        try {
          const response = await apiRequest('POST', '/api/analyze-card-images', { frontImage: pair.front, backImage: pair.back });
          const result = analysisResultSchema.parse(await response.json());
          await postPortfolioCard(cardFromAnalysis(result));
          added.add(i);
          update(n, { status: 'complete', name: result.cardName });
        } catch (error) {
          update(n, { status: 'error', name: `Error analyzing Card ${n}`, failure: failureOf(error) });
        }
      }
      void queryClient.invalidateQueries({ queryKey: portfolioQueryOptions.queryKey });
      void queryClient.invalidateQueries({ queryKey: valueHistoryQueryOptions.queryKey });
      setRunning(false);
      onFinished?.(added);
      const failed = pairs.length - added.size;
      if (added.size === 0) {
        toast({ title: 'Error', description: 'Failed to analyze images. Please try adding cards manually.', variant: 'destructive' });
        setOutcome(`No card was added: ${pairs.length === 1 ? 'the reason is' : 'the reasons are'} below. Fix what they name and try again, or add the card by hand.`);
        return;
      }
      const addedText = `Successfully analyzed and added ${added.size} card(s) to your portfolio`;
      toast({ title: 'Cards Added', description: addedText });
      if (failed > 0) {
        // What failed stays on screen, with its reason, until the next try.
        setOutcome(`${addedText}. ${failed} ${failed === 1 ? 'card was' : 'cards were'} not added: see below.`);
        return;
      }
      setOutcome(addedText);
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
