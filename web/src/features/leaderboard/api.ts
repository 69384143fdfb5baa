import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LeaderboardEntry } from '@contracts/cards';
import { useErrorToast } from '@/components/ui/use-error-toast';

const LEADERBOARD_URL = '/api/leaderboard';
/** The most graders the server lists at once: the whole of /leaderboard. */
export const FULL_LEADERBOARD_SIZE = 100;

function leaderboardOptions(url: string) {
  return queryOptions({
    queryKey: [url],
    queryFn: async ({ signal }): Promise<LeaderboardEntry[]> => {
      const response = await fetch(url, { credentials: 'include', signal });
      // SPEC.md §8 names this message for a non-OK answer.
      if (!response.ok) throw new Error(`Failed to fetch leaderboard: ${response.status}`);
      return (await response.json()) as LeaderboardEntry[];
    },
  });
}

/** The home page's Top Graders: the server's default top ten. */
export const leaderboardQueryOptions = leaderboardOptions(LEADERBOARD_URL);
/** /leaderboard: everyone the server lists. */
export const fullLeaderboardQueryOptions = leaderboardOptions(`${LEADERBOARD_URL}?limit=${FULL_LEADERBOARD_SIZE}`);

/** The public leaderboard, top ten or in full; a failure is said inline and once as a toast (SPEC.md §8). */
export function useLeaderboard({ full = false }: { full?: boolean } = {}) {
  const query = useQuery(full ? fullLeaderboardQueryOptions : leaderboardQueryOptions);
  useErrorToast(query.isError ? query.errorUpdatedAt : 0, 'Failed to load leaderboard data');
  return query;
}
