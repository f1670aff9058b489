import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@tipcard/shared/transactions/schemas';

type TransactionType = (typeof TRANSACTION_TYPES)[number];
type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** The list's filters as the API takes them; absent means "all". */
export interface TransactionFilters {
  type?: TransactionType;
  status?: TransactionStatus;
  from?: string;
  to?: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Filters from the URL (`#/transactions?status=HOLD`), dropping anything the API would refuse. */
export function filtersFromSearch(search: URLSearchParams): TransactionFilters {
  const filters: TransactionFilters = {};
  const type = search.get('type');
  const status = search.get('status');
  const from = search.get('from');
  const to = search.get('to');
  if (type && (TRANSACTION_TYPES as readonly string[]).includes(type)) filters.type = type as TransactionType;
  if (status && (TRANSACTION_STATUSES as readonly string[]).includes(status)) filters.status = status as TransactionStatus;
  if (from && ISO_DATE.test(from)) filters.from = from;
  if (to && ISO_DATE.test(to)) filters.to = to;
  return filters;
}

/** The URL query of the filters, so a filtered list can be reloaded and shared. */
export function searchFromFilters(filters: TransactionFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) search.set(key, value);
  return search;
}

export function hasFilters(filters: TransactionFilters): boolean {
  return Object.values(filters).some(Boolean);
}
