import { formatAmount } from '@tipcard/shared/money/format';

/**
 * An EUR amount as text in the spec format (thousands with spaces, currency code removed) with a € sign, in the
 * reader's decimal mark when a language is given.
 */
export function formatEuro(cents: number, locale?: string): string {
  return `€ ${formatAmount(cents, locale)}`;
}
