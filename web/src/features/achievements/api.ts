import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Achievement, AchievementProgress } from '@contracts/cards';
import { useErrorToast } from '@/components/ui/use-error-toast';
import { useUser } from '@/features/auth/api';
import { apiRequest, getQueryFn } from '@/lib/api-client';

// SPEC.md §9: the achievements list is read again every 60 s while someone is signed in.
const POLL_INTERVAL_MS = 60_000;

export const achievementsQueryOptions = queryOptions({
  queryKey: ['/api/achievements'],
  queryFn: getQueryFn<Achievement[]>({ on401: 'returnNull' }),
});

/** The signed-in user's achievements not yet announced, in the server's order (SPEC.md §4). */
export function useUnannouncedAchievements(): Achievement[] {
  const { user } = useUser();
  const { data } = useQuery({
    ...achievementsQueryOptions,
    enabled: user !== null,
    refetchInterval: user ? POLL_INTERVAL_MS : false,
    select: (achievements) => (achievements ?? []).filter((achievement) => !achievement.notificationShown),
  });
  return user ? (data ?? []) : [];
}

export function useRefetchAchievements(): () => void {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: achievementsQueryOptions.queryKey });
    void queryClient.invalidateQueries({ queryKey: achievementProgressQueryOptions.queryKey });
  };
}

/** POST /api/mark-achievement-shown/{achievementId}, then the list is read again. */
export function useMarkAchievementShown() {
  const refetch = useRefetchAchievements();
  return useMutation({
    mutationFn: async (achievementId: number) => {
      await apiRequest('POST', `/api/mark-achievement-shown/${achievementId}`);
    },
    onSettled: refetch,
  });
}

/** GET /api/achievements/progress: every achievement, earned or locked, with how far along the user is. */
export const achievementProgressQueryOptions = queryOptions({
  queryKey: ['/api/achievements/progress'],
  queryFn: getQueryFn<AchievementProgress[]>({ on401: 'returnNull' }),
});

export function useAchievementProgress() {
  const { user } = useUser();
  const query = useQuery({ ...achievementProgressQueryOptions, enabled: user !== null });
  useErrorToast(query.isError ? query.errorUpdatedAt : 0, 'Failed to load your achievements');
  return { ...query, achievements: query.data ?? [] };
}
