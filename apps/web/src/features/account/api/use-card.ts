import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Card, CardBody, CardPatchBody, UploadBody } from '@tipcard/shared/cards/schemas';
import { api } from '../../../lib/api-client.ts';
import { privateClientId, useMe } from '../../auth/api/use-me.ts';

export const cardsQueryKey = (clientId: string | undefined) => ['cards', clientId] as const;

/** The user's cards; each private client has one card, and the first one is the private card. */
export function useMyCard() {
  const me = useMe();
  const clientId = privateClientId(me.data);
  const cards = useQuery({
    queryKey: cardsQueryKey(clientId),
    queryFn: ({ signal }) => api.get<Card[]>(`/clients/${clientId}/cards`, { signal }),
    enabled: Boolean(clientId),
    staleTime: 30_000,
  });
  const card = cards.data?.find((item) => item.is_private) ?? cards.data?.[0] ?? null;
  return {
    me: me.data,
    clientId,
    card,
    isPending: me.isPending || (Boolean(clientId) && cards.isPending),
    isError: me.isError || cards.isError,
  };
}

function useStoreCard() {
  const queryClient = useQueryClient();
  return (card: Card) => {
    queryClient.setQueryData<Card[]>(cardsQueryKey(card.client_id), (cards) =>
      cards?.some((item) => item.id === card.id) ? cards.map((item) => (item.id === card.id ? card : item)) : [...(cards ?? []), card],
    );
    void queryClient.invalidateQueries({ queryKey: ['me'] });
  };
}

export function useCreateCard(clientId: string | undefined) {
  const store = useStoreCard();
  return useMutation({
    mutationFn: (body: CardBody) => api.post<Card>(`/clients/${clientId}/cards`, body),
    onSuccess: store,
  });
}

export function useUpdateCard(cardId: string | undefined) {
  const store = useStoreCard();
  return useMutation({
    mutationFn: (body: CardPatchBody) => api.patch<Card>(`/cards/${cardId}`, body),
    onSuccess: store,
  });
}

export function useUploadPhoto(cardId: string | undefined) {
  const store = useStoreCard();
  return useMutation({
    mutationFn: (body: UploadBody) => api.post<Card>(`/cards/${cardId}/photo`, body),
    onSuccess: store,
  });
}

export function useDeletePhoto(cardId: string | undefined) {
  const store = useStoreCard();
  return useMutation({
    mutationFn: () => api.delete<Card>(`/cards/${cardId}/photo`),
    onSuccess: store,
  });
}
