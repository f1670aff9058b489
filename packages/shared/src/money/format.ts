/** The decimal mark of a language: English writes "5.00", Latvian, French and Spanish "5,00". */
export function decimalMark(locale: string): '.' | ',' {
  return locale === 'en' ? '.' : ',';
}

/**
 * Displays integer cents as the spec's EUR amount: the currency code removed and thousands separated by spaces
 * ("1 234.50"; "1 234,50" in a language that writes a decimal comma). Integer arithmetic only, so no float ever
 * touches an amount.
 */
export function formatAmount(cents: number, locale = 'en'): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Amount must be integer cents, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const euros = Math.floor(abs / 100).toString();
  const rest = (abs % 100).toString().padStart(2, '0');
  return `${sign}${euros.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}${decimalMark(locale)}${rest}`;
}
