import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  cardOrderSchema,
  cardOrdersSchema,
  cardProductSchema,
  type CardOrder,
  type CardOrderBody,
  type CardProductId,
} from '@tipcard/shared/card-orders/schemas';
import { api } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';

export const cardOrdersKey = (clientId: string | undefined) => ['card-orders', clientId] as const;

/** The user's orders and what the next one may be (free, items left). */
export function useCardOrders(clientId: string | undefined) {
  return useQuery({
    queryKey: cardOrdersKey(clientId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/card-orders`, cardOrdersSchema, { signal }),
    enabled: Boolean(clientId),
    // An order awaiting payment or on its way changes by itself (the provider's event, the back office).
    refetchInterval: (query) => (query.state.data?.orders.some((order) => order.status === 'awaiting_payment') ? 5_000 : false),
  });
}

export function useCardProducts() {
  return useQuery({
    queryKey: ['card-products'],
    queryFn: ({ signal }) => api.get('/card-products', z.array(cardProductSchema), { signal }),
    staleTime: 5 * 60_000,
  });
}

/** Places an order; one Idempotency-Key per confirmation, so a retried request never orders twice. */
export function usePlaceCardOrder(clientId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: CardOrderBody; key: string }): Promise<CardOrder> =>
      api.post(`/clients/${clientId}/card-orders`, body, cardOrderSchema, { headers: { 'Idempotency-Key': key } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cardOrdersKey(clientId) }),
  });
}
export { newIdempotencyKey };

/** What a preview prints: an order as placed, or a product with a card (the user's own when none is given). */
export type PrintSource = { product: CardProductId; cardId?: string | undefined } | { orderId: string };

/**
 * The print file (PDF) rendered for the screen: the first page drawn by pdf.js (through unpdf, loaded only here) into
 * an image. The preview is the very file the printer gets, not a drawing of it.
 */
export function usePrintPreview(clientId: string | undefined, source: PrintSource) {
  const path =
    'orderId' in source
      ? (`/clients/${clientId}/card-orders/${source.orderId}/preview` as const)
      : (`/clients/${clientId}/card-orders/preview?product=${source.product}${source.cardId ? `&card_id=${source.cardId}` : ''}` as const);
  return useQuery({
    queryKey: ['card-print-preview', clientId, path],
    queryFn: async ({ signal }) => {
      const pdf = await api.getBlob(path as `/clients/${string}/card-orders/preview`, { signal });
      const { renderPageAsImage } = await import('unpdf');
      return renderPageAsImage(new Uint8Array(await pdf.arrayBuffer()), 1, { scale: 3, toDataURL: true });
    },
    enabled: Boolean(clientId),
    staleTime: Infinity,
    retry: false,
  });
}
