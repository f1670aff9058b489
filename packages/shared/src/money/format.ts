import { DEFAULT_LOCALE, type Locale } from '../constants.ts';

/** The decimal mark each language's readers expect; the thousands are spaces in every language (spec 5). */
const DECIMAL_MARK: Record<Locale, string> = { en: '.', lv: ',', fr: ',', es: ',' };

/**
 * Displays integer cents as the spec's EUR amount: the currency code removed and thousands separated by spaces
 * ("1 234.50", in lv/fr/es "1 234,50"). Integer arithmetic only, so no float ever touches an amount. Plain spaces:
 * it is also the amount of SMS bodies, where a no-break space may not survive.
 */
export function formatAmount(cents: number, locale: Locale = DEFAULT_LOCALE): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Amount must be integer cents, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const euros = Math.floor(abs / 100).toString();
  const rest = (abs % 100).toString().padStart(2, '0');
  return `${sign}${euros.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}${DECIMAL_MARK[locale]}${rest}`;
}

/**
 * The one formatter of money on screen: `formatAmount` with the € sign where the reader's language puts it ("€ 1 234.50";
 * "1 234,50 €" in lv/fr/es). Plain spaces, like every text that compares amounts; where an amount stands alone the
 * `Money` component keeps it on one line.
 */
export function formatMoney(cents: number, locale: Locale = DEFAULT_LOCALE): string {
  const amount = formatAmount(cents, locale);
  return locale === 'en' ? `€ ${amount}` : `${amount} €`;
}
