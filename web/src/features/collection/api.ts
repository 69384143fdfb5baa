import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CollectionCard } from '@contracts/cards';
import { messageResponseSchema, syncInstantGradesResponseSchema } from '@contracts/cards';
import { useErrorToast } from '@/components/ui/use-error-toast';
import { toast } from '@/components/ui/use-toast';
import { achievementsQueryOptions } from '@/features/achievements/api';
import { ApiError, apiRequest, getQueryFn } from '@/lib/api-client';

/** GET /api/my-cards: the caller's graded cards, a guest's too (under the guest session). */
export const myCardsQueryOptions = queryOptions({
  queryKey: ['/api/my-cards'],
  queryFn: getQueryFn<CollectionCard[]>({ on401: 'returnNull' }),
});

export function useMyCards() {
  const query = useQuery(myCardsQueryOptions);
  useErrorToast(query.isError ? query.errorUpdatedAt : 0, 'Failed to load your card collection');
  return { ...query, cards: query.data ?? [] };
}

function serverMessageOf(error: Error): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

export function useDeleteCardMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (card: CollectionCard) => {
      await apiRequest('DELETE', `/api/card/${encodeURIComponent(card.id)}`);
    },
    onSuccess: (_, card) => {
      toast({ title: 'Card deleted', description: 'Card deleted from your collection' });
      queryClient.setQueryData(myCardsQueryOptions.queryKey, (cards) => cards?.filter((c) => c.id !== card.id));
      queryClient.removeQueries({ queryKey: [`/api/card/${encodeURIComponent(card.id)}`] });
      void queryClient.invalidateQueries({ queryKey: myCardsQueryOptions.queryKey });
    },
    onError: () => {
      toast({ title: 'Error', description: 'Failed to delete card from your collection', variant: 'destructive' });
    },
  });
}

export function useRestoreSampleCardsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => messageResponseSchema.parse(await (await apiRequest('POST', '/api/restore-sample-cards')).json()),
    onSuccess: ({ message }) => {
      toast({ title: 'Sample Cards Restored', description: message });
      void queryClient.invalidateQueries({ queryKey: myCardsQueryOptions.queryKey });
    },
    onError: () => {
      toast({ title: 'Error', description: 'Failed to restore sample cards', variant: 'destructive' });
    },
  });
}

/** POST /api/sync-instant-grades: cards graded at the provider come into the collection (SPEC.md §7, §8). */
export function useSyncInstantGradesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      syncInstantGradesResponseSchema.parse(await (await apiRequest('POST', '/api/sync-instant-grades', {})).json()),
    onSuccess: ({ message, importedCards, newAchievements }) => {
      const imported = message || `Imported ${importedCards.length} ${importedCards.length === 1 ? 'card' : 'cards'}.`;
      // One toast at a time (SPEC.md §9): the achievements ride along in the same one.
      const earned = newAchievements.length;
      toast({
        title: 'Success',
        description: earned > 0 ? `${imported} New Achievements Unlocked! You earned ${earned}.` : imported,
      });
      void queryClient.invalidateQueries({ queryKey: myCardsQueryOptions.queryKey });
      if (earned > 0) void queryClient.invalidateQueries({ queryKey: achievementsQueryOptions.queryKey });
    },
    onError: (error) => {
      toast({ title: 'Error', description: serverMessageOf(error) ?? 'Failed to import cards from AGSCard', variant: 'destructive' });
    },
  });
}
