import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddressInput, AddressSyncResult, ShippingAddress } from '@contracts/addresses';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, getQueryFn } from '@/lib/api-client';

// The address book (SPEC.md §7, §8): one query shared by Settings and the wizard, and the mutations with their toasts.

const ADDRESSES_URL = '/api/shipping-addresses';
const readAddresses = getQueryFn<ShippingAddress[] | { addresses: ShippingAddress[] }>({ on401: 'throw' });

export const addressesQueryOptions = queryOptions({
  queryKey: [ADDRESSES_URL],
  // SPEC.md §7: an array or an object with addresses.
  queryFn: async (context) => {
    const body = await readAddresses(context);
    return Array.isArray(body) ? body : (body?.addresses ?? []);
  },
});

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: addressesQueryOptions.queryKey });
}

export function useAddAddressMutation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (input: AddressInput) => (await (await apiRequest('POST', ADDRESSES_URL, input)).json()) as ShippingAddress,
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Address Added', description: 'The address has been added to your address book.', duration: 3000 });
    },
    onError: () => toast({ title: 'Error', description: 'Failed to add address', variant: 'destructive' }),
  });
}

export function useUpdateAddressMutation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ id, input }: { id: string; input: AddressInput }) => (await (await apiRequest('PUT', `${ADDRESSES_URL}/${id}`, input)).json()) as ShippingAddress,
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Address Updated', description: 'The address has been updated.', duration: 3000 });
    },
    onError: () => toast({ title: 'Error', description: 'Failed to update address', variant: 'destructive' }),
  });
}

export function useDeleteAddressMutation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (id: string) => apiRequest('DELETE', `${ADDRESSES_URL}/${id}`),
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Address Deleted', description: 'The address has been removed from your address book.', duration: 3000 });
    },
    onError: () => toast({ title: 'Delete Failed', description: 'Failed to delete address', variant: 'destructive' }),
  });
}

export function useSetDefaultAddressMutation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (id: string) => apiRequest('PUT', `${ADDRESSES_URL}/${id}/set-default`),
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Default Address Updated', description: 'This address is now your default shipping address.', duration: 3000 });
    },
    onError: () => toast({ title: 'Update Failed', description: 'Failed to update default address', variant: 'destructive' }),
  });
}

export function useSyncAddressesMutation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async () => (await (await apiRequest('POST', '/api/sync-ags-addresses')).json()) as AddressSyncResult,
    onSuccess: async (result) => {
      await refresh();
      toast({ title: 'Addresses Synced', description: result.message || `${result.synced} address(es) synced.`, duration: 4000 });
    },
    onError: () => toast({ title: 'Sync Failed', description: `Failed to sync addresses from ${window.location.host}`, variant: 'destructive' }),
  });
}
