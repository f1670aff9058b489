import { useQuery } from '@tanstack/react-query';
import type { Overview } from '@tipcard/shared/transactions/schemas';
import { api } from '../../../lib/api-client.ts';

/** Received today / this week / this month, tip count, average rating and the latest lines. */
export function useOverviewFigures(clientId: string | undefined) {
  return useQuery({
    queryKey: ['overview', clientId],
    queryFn: ({ signal }) => api.get<Overview>(`/clients/${clientId}/overview`, { signal }),
    enabled: Boolean(clientId),
    refetchInterval: 60_000,
  });
}
