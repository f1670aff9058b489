import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { cardSchema } from '@tipcard/shared/cards/schemas';
import { api } from '../../lib/api-client.ts';
import { privateClientId, useMe } from './use-me.ts';

export const cardsQueryKey = (clientId: string | undefined) => ['cards', clientId] as const;

/** The user's cards; each private client has one card, and the first one is the private card. */
export function useMyCard() {
  const me = useMe();
  const clientId = privateClientId(me.data);
  // A deleted account (signed in to restore it) opens nothing but /me and the restore call.
  const active = Boolean(clientId) && !me.data?.deletion;
  const cards = useQuery({
    queryKey: cardsQueryKey(clientId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/cards`, z.array(cardSchema), { signal }),
    enabled: active,
    staleTime: 30_000,
  });
  const card = cards.data?.find((item) => item.is_private) ?? cards.data?.[0] ?? null;
  return {
    me: me.data,
    clientId,
    card,
    /** Every card of the user's client: the private card, and a team card its admin holds (decision 0047 edits it). */
    cards: cards.data ?? [],
    isPending: me.isPending || (active && cards.isPending),
    isError: me.isError || cards.isError,
  };
}
