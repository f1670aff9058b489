import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Download, Inbox, SearchX, X } from 'lucide-react';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@tipcard/shared/transactions/schemas';
import { Button } from '../../components/ui/button.tsx';
import { SelectField, TextField } from '../../components/ui/field.tsx';
import { EmptyState, LoadError } from '../../components/ui/list-state.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { showSnackbar } from '../../lib/ui-store.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useExportCsv, useTransactions } from './api/use-transactions.ts';
import { OpenableTransactionRow, TransactionRowSkeleton } from '../../components/ui/transaction-row.tsx';
import { TipAnswer } from './components/tip-answer.tsx';
import { filtersFromSearch, hasFilters, searchFromFilters, type TransactionFilters } from './transaction-filters.ts';

/** Loads the next page when the sentinel scrolls into view; the visible button does the same without an observer. */
function useLoadOnScroll(enabled: boolean, load: () => void) {
  const ref = useRef<HTMLDivElement>(null);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && loadRef.current(), {
      rootMargin: '400px 0px',
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled]);
  return ref;
}

function Filters({
  filters,
  onChange,
}: {
  filters: TransactionFilters;
  /** A change to some filters (`{}` with `clear`: all of them removed). */
  onChange(patch: Partial<TransactionFilters>, clear?: boolean): void;
}) {
  const { t } = useTranslation('transactions');
  return (
    <Panel className="p-4! sm:p-5!">
      <h2 className="sr-only">{t('filters.label')}</h2>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <SelectField
          label={t('filters.type')}
          value={filters.type ?? ''}
          onChange={(event) => onChange({ type: (event.target.value || undefined) as TransactionFilters['type'] })}
          options={[
            { value: '', label: t('filters.all_types') },
            ...TRANSACTION_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) })),
          ]}
        />
        <SelectField
          label={t('filters.status')}
          value={filters.status ?? ''}
          onChange={(event) => onChange({ status: (event.target.value || undefined) as TransactionFilters['status'] })}
          options={[
            { value: '', label: t('filters.all_statuses') },
            ...TRANSACTION_STATUSES.map((status) => ({ value: status, label: t(`statuses.${status}`) })),
          ]}
        />
        <TextField
          label={t('filters.from')}
          type="date"
          value={filters.from ?? ''}
          max={filters.to}
          onChange={(event) => onChange({ from: event.target.value || undefined })}
        />
        <TextField
          label={t('filters.to')}
          type="date"
          value={filters.to ?? ''}
          min={filters.from}
          onChange={(event) => onChange({ to: event.target.value || undefined })}
        />
      </div>
      {hasFilters(filters) ? (
        <Button
          variant="ghost"
          size="sm"
          className="-ml-2 mt-3"
          onClick={() => onChange({}, true)}
          icon={<X className="size-4" aria-hidden="true" />}
        >
          {t('filters.reset')}
        </Button>
      ) : null}
    </Panel>
  );
}

export default function TransactionsPage() {
  const { t } = useTranslation('transactions');
  const { clientId } = useMyCard();
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  // Filters changed faster than the page renders (a select changed twice at once) each build on the one before, not on
  // the last render's address, which would bring back a filter just removed. Kept until the address shows them.
  const asked = useRef<TransactionFilters | null>(null);
  useEffect(() => {
    if (asked.current && searchFromFilters(asked.current).toString() === search.toString()) asked.current = null;
  }, [search]);
  const changeFilters = (patch: Partial<TransactionFilters>, clear = false) => {
    const next = clear ? {} : { ...(asked.current ?? filters), ...patch };
    asked.current = next;
    setSearch(searchFromFilters(next), { replace: true });
  };
  const list = useTransactions(clientId, filters);
  const exportCsv = useExportCsv(clientId);
  useDocumentTitle(t('title'));

  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const canLoadMore = list.hasNextPage && !list.isFetchingNextPage;
  const sentinel = useLoadOnScroll(Boolean(list.hasNextPage), () => {
    if (canLoadMore) void list.fetchNextPage();
  });

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Button
            variant="secondary"
            loading={exportCsv.isPending}
            disabled={!clientId}
            onClick={() => exportCsv.mutate(filters, { onError: () => showSnackbar(t('export_failed')) })}
            icon={<Download className="size-4" aria-hidden="true" />}
          >
            {t('export')}
          </Button>
        }
      />
      <Filters filters={filters} onChange={changeFilters} />

      <Panel className="mt-4 py-1!">
        {list.isPending ? (
          <div role="status" aria-label={t('loading')} className="divide-y divide-slate-100">
            {[0, 1, 2, 3].map((key) => (
              <TransactionRowSkeleton key={key} />
            ))}
          </div>
        ) : list.isError && items.length === 0 ? (
          <LoadError text={t('error')} onRetry={list.refetch} />
        ) : items.length === 0 ? (
          hasFilters(filters) ? (
            <EmptyState
              icon={<SearchX className="size-7" />}
              title={t('filtered_title')}
              text={t('filtered_text')}
              testId="transactions-empty"
            />
          ) : (
            <EmptyState
              icon={<Inbox className="size-7" />}
              title={t('empty_title')}
              text={t('empty_text')}
              testId="transactions-empty"
            />
          )
        ) : (
          <ul aria-label={t('list_label')} className="divide-y divide-slate-100" aria-busy={list.isFetching || undefined}>
            {items.map((transaction) => (
              <li key={transaction.id}>
                <OpenableTransactionRow
                  transaction={transaction}
                  // Only a received tip with a message can have an answer; the section asks the server whether it can go.
                  actions={(row) =>
                    row.type === 'PAYIN' && row.message ? <TipAnswer clientId={clientId} transaction={row} /> : null
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </Panel>

      {items.length > 0 ? (
        <div ref={sentinel} className="mt-4 flex justify-center">
          {list.hasNextPage ? (
            <Button
              variant="secondary"
              onClick={() => void list.fetchNextPage()}
              loading={list.isFetchingNextPage}
              disabled={!canLoadMore}
            >
              {list.isFetchingNextPage ? t('loading') : t('load_more')}
            </Button>
          ) : (
            <p className="text-sm text-slate-500">{t('end')}</p>
          )}
        </div>
      ) : null}
      {list.isFetching && !list.isPending && !list.isFetchingNextPage ? (
        <Spinner className="sr-only" label={t('loading')} />
      ) : null}
    </div>
  );
}
