import { queryOptions, useQuery } from '@tanstack/react-query';
import { balancesSchema } from '@tipcard/shared/balances/schemas';
import { api } from '../../lib/api-client.ts';

/** The client's balances (GET /clients/{id}/account), as a query the overview may start early. */
export const balancesQuery = (clientId: string | undefined) =>
  queryOptions({
    queryKey: ['balances', clientId],
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/account`, balancesSchema, { signal }),
    enabled: Boolean(clientId),
    // Started early on the overview (use-overview-start.ts): its answer, a few seconds old, is not asked again.
    staleTime: 10_000,
    refetchInterval: 60_000,
  });

/** Main and hold balances in cents (a missing type counts as 0, spec 3), and when each amount on hold is released. */
export function useBalances(clientId: string | undefined) {
  const query = useQuery(balancesQuery(clientId));
  const balance = (type: 'main' | 'hold') => query.data?.account_balances.find((item) => item.type === type)?.balance ?? 0;
  return {
    main: balance('main'),
    hold: balance('hold'),
    holdReleases: query.data?.hold_releases ?? [],
    /** When the balances shown were fetched (0 before): offline, they are the last ones kept on the device. */
    updatedAt: query.dataUpdatedAt,
    isPending: query.isPending,
    isError: query.isError,
  };
}
