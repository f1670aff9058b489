import { LOCALES, type Locale } from '@tipcard/shared/constants';

/** Kept apart from i18n.ts so that light entries (the guest payment page) can check a locale without the catalogs. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}
