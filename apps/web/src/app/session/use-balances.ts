import { useQuery } from '@tanstack/react-query';
import { balancesSchema } from '@tipcard/shared/balances/schemas';
import { api } from '../../lib/api-client.ts';

/** Main and hold balances in cents (a missing type counts as 0, spec 3), and when each amount on hold is released. */
export function useBalances(clientId: string | undefined) {
  const query = useQuery({
    queryKey: ['balances', clientId],
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/account`, balancesSchema, { signal }),
    enabled: Boolean(clientId),
    refetchInterval: 60_000,
  });
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
