import { queryOptions } from '@tanstack/react-query';
import type { ProviderProfile } from '@contracts/auth';
import { getQueryFn } from '@/lib/api-client';

const readProfile = getQueryFn<ProviderProfile>({ on401: 'returnNull' });

// The provider profile (SPEC.md §7): a failure yields null quietly, and the page falls back to the user's own fields.
// Callers enable it only for a user with a provider token (SPEC.md §6).
export const providerProfileQueryOptions = queryOptions({
  queryKey: ['/api/agscard/profile'],
  queryFn: async (context) => {
    try {
      return await readProfile(context);
    } catch {
      return null;
    }
  },
});
