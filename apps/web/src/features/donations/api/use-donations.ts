import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { donationSchema } from '@tipcard/shared/donations/schemas';
import { api } from '../../../lib/api-client.ts';

/** The donations the client's card received, newest first. */
export function useDonations(clientId: string | undefined) {
  return useQuery({
    queryKey: ['donations', clientId],
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/donations`, z.array(donationSchema), { signal }),
    enabled: Boolean(clientId),
  });
}
