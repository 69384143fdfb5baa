import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PortfolioCard, PortfolioCardDetail, PortfolioValuePoint } from '@contracts/portfolio';
import { useErrorToast } from '@/components/ui/use-error-toast';
import { toast } from '@/components/ui/use-toast';
import { useUser } from '@/features/auth/api';
import { ApiError, apiRequest, getQueryFn } from '@/lib/api-client';

// The portfolio calls of SPEC.md §7 with the toasts of §8. The list is read only for a signed-in user (§6).

export const portfolioQueryOptions = queryOptions({
  queryKey: ['/api/portfolio'],
  queryFn: getQueryFn<PortfolioCard[]>({ on401: 'returnNull' }),
});

export const valueHistoryQueryOptions = queryOptions({
  queryKey: ['/api/portfolio/value-history'],
  queryFn: getQueryFn<PortfolioValuePoint[]>({ on401: 'returnNull' }),
});

export const portfolioCardQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [`/api/portfolio/${id}`],
    queryFn: getQueryFn<PortfolioCardDetail>({ on401: 'throw' }),
  });

export function usePortfolio() {
  const { user, isPending: userPending } = useUser();
  const query = useQuery({ ...portfolioQueryOptions, enabled: Boolean(user) });
  useErrorToast(query.isError ? query.errorUpdatedAt : 0, 'Failed to load your portfolio');
  return { cards: query.data ?? [], isPending: userPending || (Boolean(user) && query.isPending), user, userPending };
}

export function useValueHistory(enabled: boolean) {
  return useQuery({ ...valueHistoryQueryOptions, enabled });
}

export const serverMessageOf = (error: Error) => (error instanceof ApiError ? error.serverMessage : undefined) ?? error.message;

/** Every write changes the list, the value chart and the card's own page. */
function useRefresh() {
  const queryClient = useQueryClient();
  return (card?: PortfolioCard) => {
    if (card) queryClient.setQueryData(portfolioQueryOptions.queryKey, (cards) => cards?.map((c) => (c.id === card.id ? card : c)));
    void queryClient.invalidateQueries({ queryKey: portfolioQueryOptions.queryKey });
    void queryClient.invalidateQueries({ queryKey: valueHistoryQueryOptions.queryKey });
    if (card) void queryClient.invalidateQueries({ queryKey: [`/api/portfolio/${card.id}`] });
  };
}

export type NewPortfolioCard = Record<string, unknown> & { cardName: string };

export async function postPortfolioCard(card: NewPortfolioCard): Promise<PortfolioCard> {
  return (await (await apiRequest('POST', '/api/portfolio', card)).json()) as PortfolioCard;
}

export function useAddCardMutation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: postPortfolioCard,
    onSuccess: (card) => {
      toast({ title: 'Card Added', description: `${card.cardName} was added to your portfolio.` });
      refresh();
    },
    onError: (error) => toast({ title: 'Error', description: serverMessageOf(error), variant: 'destructive' }),
  });
}

/** PATCH: the inline edit sends only what changed. */
export function usePatchCardMutation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: number; changes: Record<string, unknown> }) =>
      (await (await apiRequest('PATCH', `/api/portfolio/${id}`, changes)).json()) as PortfolioCard,
    onSuccess: (card) => {
      toast({ title: 'Card Updated', description: `${card.cardName} was updated.` });
      refresh(card);
    },
    onError: (error) => toast({ title: 'Error', description: serverMessageOf(error), variant: 'destructive' }),
  });
}

/** PUT: the detail page's edit. */
export function useUpdateCardMutation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ id, card }: { id: number; card: Record<string, unknown> }) =>
      (await (await apiRequest('PUT', `/api/portfolio/${id}`, card)).json()) as PortfolioCard,
    onSuccess: (card) => {
      toast({ title: 'Card updated', description: `${card.cardName} was saved.` });
      refresh(card);
    },
    onError: (error) => toast({ title: 'Update failed', description: serverMessageOf(error), variant: 'destructive' }),
  });
}

export function useDeleteCardMutation() {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (card: PortfolioCard) => {
      await apiRequest('DELETE', `/api/portfolio/${card.id}`);
    },
    onSuccess: (_, card) => {
      toast({ title: 'Card Deleted', description: `${card.cardName} was removed from your portfolio.` });
      queryClient.setQueryData(portfolioQueryOptions.queryKey, (cards) => cards?.filter((c) => c.id !== card.id));
      queryClient.removeQueries({ queryKey: [`/api/portfolio/${card.id}`] });
      refresh();
    },
    onError: (error) => toast({ title: 'Error', description: serverMessageOf(error), variant: 'destructive' }),
  });
}
