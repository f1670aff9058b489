import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/download-file.ts';
import { currentLocale } from '../../../lib/i18n.ts';

/** The venue page's QR code as a PNG object URL (the call needs the bearer header); kept for the session. */
export function useVenueQr(workplaceId: string) {
  const query = useQuery({
    queryKey: ['venue-qr', workplaceId],
    queryFn: async ({ signal }) => URL.createObjectURL(await api.getBlob(`/workplaces/${workplaceId}/qr.png`, { signal })),
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return { url: query.data ?? null, isError: query.isError };
}

/** Downloads the venue's print sheet (its QR code on the card sheet) in the app's language. */
export function useVenueSheet(workplaceId: string) {
  return useMutation({
    mutationFn: async () =>
      saveBlob(
        await api.getBlob(`/workplaces/${workplaceId}/print.pdf`, { query: { locale: currentLocale() } }),
        'tipcard-venue.pdf',
      ),
  });
}
