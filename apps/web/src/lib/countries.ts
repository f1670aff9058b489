import { useMemo } from 'react';
import { SERVED_COUNTRIES } from '@tipcard/shared/auth/phone';
import type { Locale } from '@tipcard/shared/constants';
import { currentLocale } from './i18n.ts';

/** A country's name in the reader's language ("Latvia", "Lettonie"); its code where the browser knows no name. */
export function countryName(code: string, locale: Locale): string {
  return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
}

/** The countries Tipcard serves, as a select's options: their names in the reader's language, sorted for it. */
export function useServedCountryOptions(): { value: string; label: string }[] {
  const locale = currentLocale();
  return useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    return SERVED_COUNTRIES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) =>
      a.label.localeCompare(b.label, locale),
    );
  }, [locale]);
}
