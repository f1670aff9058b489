import { DEFAULT_LOCALE, type Locale } from '../constants.ts';

/** The decimal mark each language's readers expect; the thousands are spaces in every language (spec 5). */
const DECIMAL_MARK: Record<Locale, string> = { en: '.', lv: ',', fr: ',', es: ',' };

/** Sign, whole euros and the two cent digits of integer cents, by integer arithmetic so no float touches an amount. */
function parts(cents: number): { sign: string; euros: string; rest: string } {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Amount must be integer cents, got ${cents}`);
  const abs = Math.abs(cents);
  return { sign: cents < 0 ? '-' : '', euros: Math.floor(abs / 100).toString(), rest: (abs % 100).toString().padStart(2, '0') };
}

/**
 * Displays integer cents as the spec's EUR amount: the currency code removed and thousands separated by spaces
 * ("1 234.50", in lv/fr/es "1 234,50"). Plain spaces: it is also the amount of SMS bodies, where a no-break space
 * may not survive.
 */
export function formatAmount(cents: number, locale: Locale = DEFAULT_LOCALE): string {
  const { sign, euros, rest } = parts(cents);
  return `${sign}${euros.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}${DECIMAL_MARK[locale]}${rest}`;
}

/**
 * The one formatter of money on screen: `formatAmount` with the € sign where the reader's language puts it ("€1 234.50";
 * "1 234,50 €" in lv/fr/es). Plain spaces, like every text that compares amounts; where an amount stands alone the
 * `Money` component keeps it on one line.
 */
export function formatMoney(cents: number, locale: Locale = DEFAULT_LOCALE): string {
  const amount = formatAmount(cents, locale);
  return locale === 'en' ? `€${amount}` : `${amount} €`;
}

/**
 * Integer cents as a machine reads them, in every language: "-1234.50", a point and no thousands separator. For files
 * (CSV, SEPA XML, bank files), logs, and an input field's value, which `parseAmountInput` reads back the same.
 */
export function decimalAmount(cents: number): string {
  const { sign, euros, rest } = parts(cents);
  return `${sign}${euros}.${rest}`;
}
