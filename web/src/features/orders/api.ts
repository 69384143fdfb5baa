import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrderSelectionInput, OrderView, PaymentCardInput, PaymentResult, PlaceOrderRequest, Quote, ServiceLevel, SubmissionCard } from '@contracts/orders';
import { apiRequest } from '@/lib/api-client';

// The wizard's calls: service levels (cached 15 minutes, SPEC.md §7), its card, the server's quote, payment and orders.

const FIFTEEN_MINUTES = 15 * 60 * 1000;

export const serviceLevelsQueryOptions = queryOptions<ServiceLevel[]>({ queryKey: ['/api/service-levels'], staleTime: FIFTEEN_MINUTES, gcTime: FIFTEEN_MINUTES });

export const submissionCardQueryOptions = (cardId: string) => queryOptions<SubmissionCard>({ queryKey: [`/api/submit-card/${encodeURIComponent(cardId)}`] });

export const ordersQueryOptions = queryOptions<OrderView[]>({ queryKey: ['/api/orders'] });
export const orderQueryOptions = (orderId: string) => queryOptions<OrderView>({ queryKey: [`/api/orders/${encodeURIComponent(orderId)}`] });

/** Every figure the wizard shows: asked of the server whenever the selection changes. */
export function useQuote(selection: OrderSelectionInput | null) {
  return useQuery({
    queryKey: ['/api/orders/quote', selection],
    queryFn: async () => (await (await apiRequest('POST', '/api/orders/quote', { selection })).json()) as Quote,
    enabled: selection !== null && selection.serviceLevel !== '',
    placeholderData: keepPreviousData,
  });
}

export function usePaymentMutation() {
  return useMutation({
    mutationFn: async (input: { wizardId: string; cardId: string; selection: OrderSelectionInput; payment: PaymentCardInput }) =>
      (await (await apiRequest('POST', '/api/orders/payment', input)).json()) as PaymentResult,
  });
}

export function usePlaceOrderMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: PlaceOrderRequest) => (await (await apiRequest('POST', '/api/orders', input)).json()) as OrderView,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ordersQueryOptions.queryKey }),
  });
}
