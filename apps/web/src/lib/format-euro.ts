import { formatMoney } from '@tipcard/shared/money/format';
import type { Locale } from '@tipcard/shared/constants';
import { currentLocale } from './i18n.ts';

/** An EUR amount as the app shows it, in the current language unless told: the shared `formatMoney`. */
export function formatEuro(cents: number, locale: Locale = currentLocale()): string {
  return formatMoney(cents, locale);
}
