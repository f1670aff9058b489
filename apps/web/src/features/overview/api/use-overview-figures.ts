import { queryOptions, useQuery } from '@tanstack/react-query';
import { overviewSchema } from '@tipcard/shared/transactions/schemas';
import { api } from '../../../lib/api-client.ts';

/** The overview's figures (GET /clients/{id}/overview), as a query started early (use-overview-start.ts). */
export const overviewFiguresQuery = (clientId: string | undefined) =>
  queryOptions({
    queryKey: ['overview', clientId],
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/overview`, overviewSchema, { signal }),
    enabled: Boolean(clientId),
    // Started early on the overview (use-overview-start.ts): its answer, a few seconds old, is not asked again.
    staleTime: 10_000,
    refetchInterval: 60_000,
  });

/** Received today / this week / this month, tip count, average rating and the latest lines. */
export function useOverviewFigures(clientId: string | undefined) {
  return useQuery(overviewFiguresQuery(clientId));
}
