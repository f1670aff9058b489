import { useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { saveBlob } from '../../lib/download-file.ts';
import { cardFileName } from './use-card-qr.ts';

/**
 * Downloads the printable card PDF (the user's own card, or a team card its admin holds). The call needs the bearer
 * header, so it is fetched as a blob and saved through a temporary link rather than opened as a plain URL.
 */
export function useCardSheet() {
  return useMutation({
    mutationFn: async (card: { id: string; public_name: string }) => {
      const blob = await api.getBlob(`/cards/${card.id}/print.pdf`, {
        query: { locale: currentLocale() },
      });
      saveBlob(blob, cardFileName('card', card, 'pdf'));
    },
  });
}
