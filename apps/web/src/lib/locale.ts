import { DEFAULT_LOCALE, LOCALE_COOKIE, LOCALE_COOKIE_DAYS, LOCALES, type Locale } from '@tipcard/shared/constants';
import { functionalAllowed } from './consent.ts';
import { getCookie, setCookie } from './cookies.ts';
import { isLocale } from './is-locale.ts';

const PREFIXED = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE);

/** The locale a path starts with (`/lv/login` → lv); en has no prefix. */
export function localeFromPath(pathname: string): Locale | null {
  const first = pathname.split('/')[1];
  return PREFIXED.find((locale) => locale === first) ?? null;
}

/** The path without its locale prefix (`/lv/login` → `/login`, `/lv` → `/`). */
export function stripLocale(pathname: string): string {
  const locale = localeFromPath(pathname);
  if (!locale) return pathname || '/';
  return pathname.slice(locale.length + 1) || '/';
}

/** The path in a locale: `/login` → `/lv/login`; en keeps the bare path. */
export function localizePath(path: string, locale: Locale): string {
  const bare = path.startsWith('/') ? path : `/${path}`;
  if (locale === DEFAULT_LOCALE) return bare;
  return bare === '/' ? `/${locale}` : `/${locale}${bare}`;
}

/** The stored choice, otherwise the browser's languages, otherwise en. */
export function preferredLocale(): Locale {
  const stored = getCookie(LOCALE_COOKIE);
  if (isLocale(stored)) return stored;
  const languages =
    typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const language of languages) {
    const base = language?.slice(0, 2).toLowerCase();
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}

/** The locale of the current hash route: the URL prefix decides when present. */
export function localeOfHash(hash: string): Locale | null {
  const path = hash.replace(/^#/, '').split('?')[0] || '/';
  return localeFromPath(path);
}

/** Stores the choice for 365 days, unless the visitor refused functional cookies. */
export function rememberLocale(locale: Locale): void {
  if (functionalAllowed()) setCookie(LOCALE_COOKIE, locale, { days: LOCALE_COOKIE_DAYS, sameSite: 'Lax' });
}

/**
 * Stores the choice for 365 days (unless the visitor refused functional cookies) and reloads the current page in
 * that language; the URL prefix carries the language either way.
 */
export function switchLocale(locale: Locale): void {
  rememberLocale(locale);
  const [path = '/', search] = window.location.hash.replace(/^#/, '').split('?');
  const next = localizePath(stripLocale(path || '/'), locale) + (search ? `?${search}` : '');
  window.history.replaceState(window.history.state, '', `#${next}`);
  window.location.reload();
}
