import { useQuery } from '@tanstack/react-query';
import { overviewSchema } from '@tipcard/shared/transactions/schemas';
import { api } from '../../../lib/api-client.ts';

/** Received today / this week / this month, tip count, average rating and the latest lines. */
export function useOverviewFigures(clientId: string | undefined) {
  return useQuery({
    queryKey: ['overview', clientId],
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/overview`, overviewSchema, { signal }),
    enabled: Boolean(clientId),
    refetchInterval: 60_000,
  });
}
