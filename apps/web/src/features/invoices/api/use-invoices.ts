import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { invoiceSchema, type CreateInvoiceBody } from '@tipcard/shared/invoices/schemas';
import { api } from '../../../lib/api-client.ts';

export const invoicesKey = (clientId: string | undefined) => ['invoices', clientId] as const;

/** The colour of the QR modules: the brand's dark blue (as on the card's own QR code). */
const QR_COLOR = '#132552';

/** The client's invoices, newest first; an open one may be paid any moment, so the list is refreshed while shown. */
export function useInvoices(clientId: string | undefined) {
  return useQuery({
    queryKey: invoicesKey(clientId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/invoices`, z.array(invoiceSchema), { signal }),
    enabled: Boolean(clientId),
    refetchInterval: (query) => (query.state.data?.some((invoice) => invoice.status === 'open') ? 15_000 : false),
  });
}

export function useCreateInvoice(clientId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInvoiceBody) => api.post(`/clients/${clientId}/invoices`, body, invoiceSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invoicesKey(clientId) }),
  });
}

export function useCancelInvoice(clientId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invoiceId: string) => api.post(`/clients/${clientId}/invoices/${invoiceId}/cancel`, undefined, invoiceSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invoicesKey(clientId) }),
  });
}

/** An invoice's QR code as a PNG object URL (the call needs the bearer header, so it is fetched as a blob). */
export function useInvoiceQr(clientId: string | undefined, invoiceId: string | null) {
  const query = useQuery({
    queryKey: ['invoice-qr', clientId, invoiceId],
    queryFn: async ({ signal }) =>
      URL.createObjectURL(
        await api.getBlob(`/clients/${clientId}/invoices/${invoiceId}/qr_code`, { query: { hexColor: QR_COLOR }, signal }),
      ),
    enabled: Boolean(clientId && invoiceId),
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return { url: query.data ?? null, isPending: query.isPending, isError: query.isError };
}
