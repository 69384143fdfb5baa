import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CardResult, CollectionCard, SharedCard } from '@contracts/cards';
import type { GradeHistory } from '@contracts/professional-grades';
import { toast } from '@/components/ui/use-toast';
import { ApiError, apiRequest, getQueryFn } from '@/lib/api-client';

/** GET /api/card/{id}: a graded card with its evidence, readable by anyone who has the id (DESIGN.md §6), saying whether it is the caller's. */
export function cardQueryOptions(id: string) {
  return queryOptions({
    queryKey: [`/api/card/${encodeURIComponent(id)}`],
    queryFn: getQueryFn<SharedCard>({ on401: 'throw' }),
  });
}

export const gradeHistoryUrl = (id: string) => `/api/card/${encodeURIComponent(id)}/grade-history`;

/**
 * GET /api/card/{id}/grade-history: the owner's card's grades, each with its engine, and its professional reports.
 * Anyone else (a shared link) gets the server's 404, read here as null: the section is then not shown.
 */
export function gradeHistoryQueryOptions(id: string) {
  return queryOptions({
    queryKey: [gradeHistoryUrl(id)],
    queryFn: getQueryFn<GradeHistory>({ on401: 'returnNull', on404: 'returnNull' }),
  });
}

/**
 * PATCH /api/card/{id}: the owner renames a card (issue 35). The card's page and the collection show the new name at
 * once, and are fetched again behind it.
 */
export function useRenameCardMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) => (await (await apiRequest('PATCH', `/api/card/${encodeURIComponent(id)}`, { name })).json()) as CardResult,
    onSuccess: (card) => {
      toast({ title: 'Card renamed', description: `The card is now called ${card.cardName}.` });
      const key = cardQueryOptions(card.id).queryKey;
      queryClient.setQueryData(key, (shown) => (shown ? { ...shown, cardName: card.cardName } : shown));
      queryClient.setQueryData<CollectionCard[] | null>(['/api/my-cards'], (cards) => cards?.map((c) => (c.id === card.id ? { ...c, cardName: card.cardName } : c)) ?? cards);
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: ['/api/my-cards'] });
    },
    onError: (error) =>
      toast({ title: 'Rename failed', description: (error instanceof ApiError ? error.serverMessage : undefined) ?? 'The card could not be renamed. Please try again.', variant: 'destructive' }),
  });
}

/**
 * POST /api/card/{id}/identification: the owner confirms which catalogue card it is (issue 32), one of the candidates
 * offered. The card's page and the collection show the catalogue's card at once, and are fetched again behind it.
 */
export function useConfirmIdentificationMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, catalogId }: { id: string; catalogId: string }) =>
      (await (await apiRequest('POST', `/api/card/${encodeURIComponent(id)}/identification`, { catalogId })).json()) as CardResult,
    onSuccess: (card) => {
      toast({ title: 'Card identified', description: `${card.cardName}, ${card.cardSet ?? ''} #${card.cardNumber ?? ''}.` });
      const key = cardQueryOptions(card.id).queryKey;
      queryClient.setQueryData(key, (shown) => (shown ? { ...shown, ...card } : shown));
      void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: ['/api/my-cards'] });
      // The confirmed card was priced as it was confirmed: "Is it worth grading?" weighs it now, and the portfolio's
      // entries added from it (their list, value chart and pages) are worth what it is.
      void queryClient.invalidateQueries({ predicate: ({ queryKey: [path] }) => typeof path === 'string' && (path.startsWith('/api/portfolio') || path === `/api/card/${encodeURIComponent(card.id)}/worth-grading`) });
    },
    onError: (error) =>
      toast({ title: 'Not confirmed', description: (error instanceof ApiError ? error.serverMessage : undefined) ?? 'The card could not be confirmed. Please try again.', variant: 'destructive' }),
  });
}
