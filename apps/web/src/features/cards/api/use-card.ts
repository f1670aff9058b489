import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cardSchema, type Card, type CardBody, type CardPatchBody, type UploadBody } from '@tipcard/shared/cards/schemas';
import { api } from '../../../lib/api-client.ts';
import { meQueryKey } from '../../../app/session/use-me.ts';
import { cardsQueryKey } from '../../../app/session/use-my-card.ts';

function useStoreCard() {
  const queryClient = useQueryClient();
  return (card: Card) => {
    queryClient.setQueryData<Card[]>(cardsQueryKey(card.client_id), (cards) =>
      cards?.some((item) => item.id === card.id)
        ? cards.map((item) => (item.id === card.id ? card : item))
        : [...(cards ?? []), card],
    );
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  };
}

export function useCreateCard(clientId: string | undefined) {
  const store = useStoreCard();
  return useMutation({
    mutationFn: (body: CardBody) => api.post(`/clients/${clientId}/cards`, body, cardSchema),
    onSuccess: store,
  });
}

export function useUpdateCard(cardId: string | undefined) {
  const store = useStoreCard();
  return useMutation({
    mutationFn: (body: CardPatchBody) => api.patch(`/cards/${cardId}`, body, cardSchema),
    onSuccess: store,
  });
}

export function useUploadPhoto(cardId: string | undefined) {
  const store = useStoreCard();
  return useMutation({
    mutationFn: (body: UploadBody) => api.post(`/cards/${cardId}/photo`, body, cardSchema),
    onSuccess: store,
  });
}

export function useDeletePhoto(cardId: string | undefined) {
  const store = useStoreCard();
  return useMutation({
    mutationFn: () => api.delete(`/cards/${cardId}/photo`, cardSchema),
    onSuccess: store,
  });
}

/** The thank-you's photo (decision 0047): the card photo's upload, in its own slot. */
export function useUploadThankYouPhoto(cardId: string | undefined) {
  const store = useStoreCard();
  return useMutation({
    mutationFn: (body: UploadBody) => api.post(`/cards/${cardId}/thank-you/photo`, body, cardSchema),
    onSuccess: store,
  });
}

export function useDeleteThankYouPhoto(cardId: string | undefined) {
  const store = useStoreCard();
  return useMutation({
    mutationFn: () => api.delete(`/cards/${cardId}/thank-you/photo`, cardSchema),
    onSuccess: store,
  });
}
