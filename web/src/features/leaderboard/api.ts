import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LeaderboardEntry } from '@contracts/cards';
import { useErrorToast } from '@/components/ui/use-error-toast';

const LEADERBOARD_URL = '/api/leaderboard';

export const leaderboardQueryOptions = queryOptions({
  queryKey: [LEADERBOARD_URL],
  queryFn: async ({ signal }): Promise<LeaderboardEntry[]> => {
    const response = await fetch(LEADERBOARD_URL, { credentials: 'include', signal });
    // SPEC.md §8 names this message for a non-OK answer.
    if (!response.ok) throw new Error(`Failed to fetch leaderboard: ${response.status}`);
    return (await response.json()) as LeaderboardEntry[];
  },
});

/** The public Top Graders list; a failure is said inline and once as a toast (SPEC.md §8). */
export function useLeaderboard() {
  const query = useQuery(leaderboardQueryOptions);
  useErrorToast(query.isError ? query.errorUpdatedAt : 0, 'Failed to load leaderboard data');
  return query;
}
