import { LOCALES, type Locale } from '@tipcard/shared/constants';

/** Kept apart from i18n.ts so that light entries (the guest payment page) can check a locale without the catalogs. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * A guest page's path without the language prefix it may carry (`/lv/payment/…` → `/payment/…`): the server renders
 * such a page in that language, and the page's routes are the same as without it.
 */
export function withoutLocalePrefix(pathname: string): string {
  const [, first, ...rest] = pathname.split('/');
  return isLocale(first) && rest.length > 0 ? `/${rest.join('/')}` : pathname;
}

/** The language prefix a guest page's path carries (`/lv/payment/…` → `/lv`), or '' for none. */
export function localePrefixOf(pathname: string): string {
  return withoutLocalePrefix(pathname) === pathname ? '' : `/${pathname.split('/')[1]}`;
}
