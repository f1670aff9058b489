import { describe, expect, it } from 'vitest';
import { filtersFromSearch, hasFilters, searchFromFilters } from './transaction-filters.ts';

describe('transaction filters in the URL', () => {
  it('keeps what the API accepts and drops the rest', () => {
    const search = new URLSearchParams('type=PAYIN&status=BOGUS&from=2025-01-01&to=01/02/2025');
    expect(filtersFromSearch(search)).toEqual({ type: 'PAYIN', from: '2025-01-01' });
  });

  it('round-trips through the query string', () => {
    const filters = { status: 'HOLD' as const, to: '2025-02-01' };
    expect(filtersFromSearch(searchFromFilters(filters))).toEqual(filters);
    expect(hasFilters(filters)).toBe(true);
    expect(hasFilters({})).toBe(false);
  });
});
