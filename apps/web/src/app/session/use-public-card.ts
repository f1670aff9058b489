import { useQuery } from '@tanstack/react-query';
import { publicCardSchema } from '@tipcard/shared/payments/schemas';
import { api } from '../../lib/api-client.ts';

/**
 * A card as a guest reads it (`GET /public/cards/{id}`): its public name, and its team or venue. Its 404 (no such card,
 * or its owner deleted the account) is an answer for the page to show, not a snackbar.
 */
export function usePublicCard(cardId: string | null) {
  return useQuery({
    queryKey: ['public-card', cardId],
    queryFn: ({ signal }) => api.get(`/public/cards/${cardId}`, publicCardSchema, { signal, auth: false, errorHandling: 'none' }),
    enabled: cardId !== null,
    retry: false,
  });
}
