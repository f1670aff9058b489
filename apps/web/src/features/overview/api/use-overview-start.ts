import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { balancesQuery } from '../../../app/session/use-balances.ts';
import { overviewFiguresQuery } from './use-overview-figures.ts';

/**
 * Starts the overview's balances and figures as soon as the client is known, beside the card's request that the
 * session guard waits for, instead of after it: one round trip less before the balances show (decision 0056).
 * `clientId` undefined (not known yet, or another page): nothing.
 */
export function useOverviewStart(clientId: string | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!clientId) return;
    void queryClient.prefetchQuery(balancesQuery(clientId));
    void queryClient.prefetchQuery(overviewFiguresQuery(clientId));
  }, [clientId, queryClient]);
}
