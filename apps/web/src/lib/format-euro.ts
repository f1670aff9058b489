import { formatAmount } from '@tipcard/shared/money/format';

/** An EUR amount as text in the spec format (thousands with spaces, currency code removed) with a € sign. */
export function formatEuro(cents: number): string {
  return `€ ${formatAmount(cents)}`;
}
