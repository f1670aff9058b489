import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { transactionsPageSchema } from '@tipcard/shared/transactions/schemas';
import { api } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/download-file.ts';
import type { TransactionFilters } from '../transaction-filters.ts';

const PAGE_SIZE = 20;

/** The history, newest first, one keyset page at a time. HOLD turns PAID in the background, so it refetches. */
export function useTransactions(clientId: string | undefined, filters: TransactionFilters) {
  return useInfiniteQuery({
    queryKey: ['transactions', clientId, filters],
    queryFn: ({ pageParam, signal }) =>
      api.get(`/clients/${clientId}/transactions`, transactionsPageSchema, {
        query: { ...filters, cursor: pageParam ?? undefined, limit: String(PAGE_SIZE) },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    enabled: Boolean(clientId),
    refetchInterval: 60_000,
  });
}

/** The filtered history as a CSV file: fetched with the bearer token (a plain link would carry none), then saved. */
export function useExportCsv(clientId: string | undefined) {
  return useMutation({
    mutationFn: async (filters: TransactionFilters) => {
      const blob = await api.getBlob(`/clients/${clientId}/transactions.csv`, {
        query: { ...filters },
        headers: { Accept: 'text/csv' },
        // The page shows its own message; a failed download is no reason for the error page.
        errorHandling: 'none',
      });
      saveBlob(blob, `tipcard-transactions-${new Date().toISOString().slice(0, 10)}.csv`);
    },
  });
}
