import { queryOptions } from '@tanstack/react-query';
import type { SharedCard } from '@contracts/cards';
import type { GradeHistory } from '@contracts/professional-grades';
import { getQueryFn } from '@/lib/api-client';

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
