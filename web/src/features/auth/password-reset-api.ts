import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NewPasswordInput, PasswordResetLinkStatus } from '@contracts/password-reset';
import { apiRequest } from '@/lib/api-client';
import { userQueryOptions } from './api';

// "Forgot password?" (issue 35): ask for a link, check it, choose a new password through it.

export function useRequestResetLink() {
  return useMutation({
    mutationFn: async (email: string) => ((await apiRequest('POST', '/api/password-reset', { email })).json() as Promise<{ message: string }>),
  });
}

/** What the link is worth; asked once per page view (a used or expired link stays so). */
export function useResetLinkStatus(token: string) {
  return useQuery({
    queryKey: ['/api/password-reset/check', token],
    queryFn: async () => ((await (await apiRequest('POST', '/api/password-reset/check', { token })).json()) as { status: PasswordResetLinkStatus }).status,
    enabled: token !== '',
    staleTime: Infinity,
    retry: false,
  });
}

export function useResetPassword(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: NewPasswordInput) => ((await apiRequest('POST', '/api/password-reset/confirm', { token, ...input })).json() as Promise<{ message: string }>),
    // Every session of the account was signed out; this browser may have been one of them.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userQueryOptions.queryKey }),
  });
}
