import { queryOptions } from '@tanstack/react-query';
import type { SharedCard } from '@contracts/cards';
import { getQueryFn } from '@/lib/api-client';

/** GET /api/card/{id}: a graded card with its evidence, readable by anyone who has the id (DESIGN.md §6), saying whether it is the caller's. */
export function cardQueryOptions(id: string) {
  return queryOptions({
    queryKey: [`/api/card/${encodeURIComponent(id)}`],
    queryFn: getQueryFn<SharedCard>({ on401: 'throw' }),
  });
}
