import { useQuery } from '@tanstack/react-query';
import type { Card } from '@tipcard/shared/cards/schemas';
import { api } from '../../lib/api-client.ts';

/** The colour of the QR modules: the brand's dark blue. */
export const QR_COLOR = '#132552';

/**
 * The card's QR code as a PNG (the call needs the bearer header, so it is fetched as a blob). The cache keeps one
 * object URL per card and payment link for the session.
 */
export function useCardQr(card: Pick<Card, 'id' | 'payment_url'> | null | undefined) {
  const query = useQuery({
    queryKey: ['card-qr', card?.id, card?.payment_url],
    queryFn: async ({ signal }) => {
      // A QR code that cannot be drawn is its panel's error, never the whole page's (every caller shows `isError`).
      const blob = await api.getBlob(`/cards/${card!.id}/qr_code`, {
        query: { url: card!.payment_url, hexColor: QR_COLOR },
        signal,
        errorHandling: 'none',
      });
      return URL.createObjectURL(blob);
    },
    enabled: Boolean(card),
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return { url: query.data ?? null, isPending: query.isPending, isError: query.isError };
}

/** A download's file name from the card's public name: `tipcard-qr-anna-b.png`, the card's id when the name has no letters. */
export const cardFileName = (kind: 'qr' | 'card', card: { id: string; public_name: string }, extension: 'png' | 'pdf') =>
  `tipcard-${kind}-${card.public_name.replace(/[^\p{L}\p{N}]+/gu, '-').toLowerCase() || card.id}.${extension}`;
