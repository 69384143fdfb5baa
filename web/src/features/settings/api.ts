import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { personalDataMessages, type AccountSettings, type ChangePasswordInput, type DeleteAccountInput } from '@contracts/account';
import { toast } from '@/components/ui/use-toast';
import { ApiError, apiRequest } from '@/lib/api-client';
import { providerProfileQueryOptions } from '@/features/profile/api';
import { userQueryOptions } from '@/features/auth/api';
import { saveFile } from '@/lib/save-file';

export const accountSettingsQueryOptions = queryOptions<AccountSettings>({ queryKey: ['/api/account/settings'] });

const messageOf = (error: Error, fallback: string) => (error instanceof ApiError ? (error.serverMessage ?? fallback) : fallback);

export function useMarketingPreferenceMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (enabled: boolean) =>
      (await (await apiRequest('PUT', '/api/account/marketing', { is_marketing_notifications_enabled: enabled })).json()) as AccountSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(accountSettingsQueryOptions.queryKey, settings);
      void queryClient.invalidateQueries({ queryKey: providerProfileQueryOptions.queryKey });
      toast({
        title: 'Preferences Updated',
        description: settings.is_marketing_notifications_enabled ? 'You will receive promotional offers and updates.' : 'You will no longer receive promotional offers.',
        duration: 3000,
      });
    },
    onError: (error) => toast({ title: 'Update Failed', description: messageOf(error, 'Failed to update your preferences'), variant: 'destructive' }),
  });
}

export function useChangePasswordMutation() {
  return useMutation({
    mutationFn: async (input: ChangePasswordInput) => (await (await apiRequest('POST', '/api/account/password', input)).json()) as { message: string },
    onSuccess: (result) => toast({ title: 'Password Changed', description: result.message, duration: 4000 }),
    onError: (error) => toast({ title: 'Password Error', description: messageOf(error, 'Failed to change your password'), variant: 'destructive' }),
  });
}

/** Ends every session of the account, this browser's too: the app is then signed out. */
export function useSignOutEverywhereMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => apiRequest('POST', '/api/account/sign-out-everywhere'),
    onSuccess: () => {
      toast({ title: 'Signed Out Everywhere', description: 'You have been signed out of all devices.', duration: 3000 });
      queryClient.setQueryData(userQueryOptions.queryKey, null);
      void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== userQueryOptions.queryKey[0] });
    },
    onError: (error) => toast({ title: 'Sign Out Failed', description: messageOf(error, 'Failed to sign out of all devices'), variant: 'destructive' }),
  });
}

export function useLeaderboardOptOutMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (optedOut: boolean) => (await (await apiRequest('PUT', '/api/account/leaderboard', { leaderboard_opt_out: optedOut })).json()) as AccountSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(accountSettingsQueryOptions.queryKey, settings);
      void queryClient.invalidateQueries({ queryKey: ['/api/leaderboard'] });
      toast({ title: personalDataMessages.leaderboardUpdated, description: settings.leaderboard_opt_out ? 'You are no longer shown in Top Graders.' : 'You are shown in Top Graders again.', duration: 3000 });
    },
    onError: (error) => toast({ title: 'Update Failed', description: messageOf(error, 'Failed to update your preferences'), variant: 'destructive' }),
  });
}

/** GET /api/account/export, saved under the name the server gives (card-grader-my-data-<date>.zip). */
export function useDownloadMyDataMutation() {
  return useMutation({
    mutationFn: async () => {
      const response = await fetch('/api/account/export', { credentials: 'include' });
      if (!response.ok) throw new ApiError(response.status, response.statusText, await response.text());
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'card-grader-my-data.zip';
      saveFile(await response.blob(), name);
    },
    onSuccess: () => toast({ title: 'Download Ready', description: 'Your data has been downloaded.', duration: 3000 }),
    onError: (error) => toast({ title: 'Download Failed', description: messageOf(error, personalDataMessages.downloadFailed), variant: 'destructive' }),
  });
}

/** Erases the account (password confirmed); every session ends, this browser's too: the app is then signed out. */
export function useDeleteAccountMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: DeleteAccountInput) => (await (await apiRequest('POST', '/api/account/delete', input)).json()) as { message: string },
    onSuccess: () => {
      toast({ ...personalDataMessages.deleted, duration: 5000 });
      queryClient.setQueryData(userQueryOptions.queryKey, null);
      void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== userQueryOptions.queryKey[0] });
    },
  });
}
