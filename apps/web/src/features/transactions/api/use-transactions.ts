import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import type { Overview, TransactionsPage } from '@tipcard/shared/transactions/schemas';
import { api } from '../../../lib/api-client.ts';
import type { TransactionFilters } from '../transaction-filters.ts';

const PAGE_SIZE = 20;

/** The history, newest first, one keyset page at a time. HOLD turns PAID in the background, so it refetches. */
export function useTransactions(clientId: string | undefined, filters: TransactionFilters) {
  return useInfiniteQuery({
    queryKey: ['transactions', clientId, filters],
    queryFn: ({ pageParam, signal }) =>
      api.get<TransactionsPage>(`/clients/${clientId}/transactions`, {
        query: { ...filters, cursor: pageParam ?? undefined, limit: String(PAGE_SIZE) },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    enabled: Boolean(clientId),
    refetchInterval: 60_000,
  });
}

/** Received today / this week / this month, tip count, average rating and the latest lines. */
export function useOverviewFigures(clientId: string | undefined) {
  return useQuery({
    queryKey: ['overview', clientId],
    queryFn: ({ signal }) => api.get<Overview>(`/clients/${clientId}/overview`, { signal }),
    enabled: Boolean(clientId),
    refetchInterval: 60_000,
  });
}

/** The filtered history as a CSV file: fetched with the bearer token (a plain link would carry none), then saved. */
export function useExportCsv(clientId: string | undefined) {
  return useMutation({
    mutationFn: async (filters: TransactionFilters) => {
      const blob = await api.get<Blob>(`/clients/${clientId}/transactions.csv`, {
        query: { ...filters },
        responseType: 'blob',
        headers: { Accept: 'text/csv' },
        // The page shows its own message; a failed download is no reason for the error page.
        errorHandling: 'none',
      });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `tipcard-transactions-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      // Some browsers read the blob after click() returns.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
}
