/**
 * Displays integer cents as the spec's EUR amount: the currency code removed and thousands separated by spaces
 * ("1 234.50"). Integer arithmetic only, so no float ever touches an amount.
 */
export function formatAmount(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Amount must be integer cents, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const euros = Math.floor(abs / 100).toString();
  const rest = (abs % 100).toString().padStart(2, '0');
  return `${sign}${euros.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}.${rest}`;
}
