import type { FastifyRequest } from 'fastify';
// The cookie plugin's typing of request.cookies, for every program that compiles this file without app.ts.
import type {} from '@fastify/cookie';
import { DEFAULT_LOCALE, LOCALE_COOKIE, LOCALES, PSEUDO_LANGUAGE, type Locale } from '@tipcard/shared/constants';
import { readCatalogs } from '@tipcard/shared/i18n/node-catalogs';
import { pseudoCatalog } from '@tipcard/shared/i18n/pseudo';
import { translate, type Catalog } from '@tipcard/shared/i18n/translate';
import { typeset } from '@tipcard/shared/i18n/typography';

const catalogs = readCatalogs();

/**
 * Server-side texts (SMS bodies, e-mails, PDFs, validation messages) from the same catalogs the web app uses, through
 * the same typography filter as the app's (no-break spaces, decision 0035).
 */
export function t(key: string, vars?: Record<string, string | number>, locale: TextLanguage = DEFAULT_LOCALE): string {
  if (locale === PSEUDO_LANGUAGE) return typeset(translate({ ...catalogs, en: pseudoCatalogs() }, 'en', key, vars), 'en');
  return typeset(translate(catalogs, locale, key, vars), locale);
}

/**
 * A served language, or the pseudo-locale a server page may render in outside production (decision 0035): its texts
 * are generated from English, its amounts and dates written in English as in the web app.
 */
export type TextLanguage = Locale | typeof PSEUDO_LANGUAGE;

/** The language a text's amounts, dates and paths are written in. */
export const formatLanguage = (language: TextLanguage): Locale => (language === PSEUDO_LANGUAGE ? 'en' : language);

/** A page's `lang` attribute: the pseudo-locale is tagged as CLDR's pseudo-English. */
export const htmlLang = (language: TextLanguage): string => (language === PSEUDO_LANGUAGE ? 'en-XA' : language);

let pseudo: Record<string, Catalog> | undefined;

/** Every namespace in the pseudo-locale, generated from English once (development and tests only: decision 0035). */
export function pseudoCatalogs(): Record<string, Catalog> {
  pseudo ??= Object.fromEntries(Object.entries(catalogs.en).map(([namespace, catalog]) => [namespace, pseudoCatalog(catalog)]));
  return pseudo;
}

/** The first served locale an Accept-Language header names, or null when it names none. */
function namedLocale(acceptLanguage: string | undefined): Locale | null {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim().slice(0, 2).toLowerCase();
    const match = LOCALES.find((locale) => locale === tag);
    if (match) return match;
  }
  return null;
}

/** The best served locale for an Accept-Language header. */
export function pickLocale(acceptLanguage: string | undefined): Locale {
  return namedLocale(acceptLanguage) ?? DEFAULT_LOCALE;
}

/** The language an API call asks for: the apps send their own in Accept-Language, which may differ from the browser's. */
export function acceptedLocale(request: FastifyRequest): Locale {
  return pickLocale(request.headers['accept-language']);
}

/**
 * The language a call states it is in, or null when its Accept-Language names none of ours: a sign-in or refresh
 * without one leaves the user's stored language as it was rather than turning it to the default.
 */
export function statedLocale(request: FastifyRequest): Locale | null {
  return namedLocale(request.headers['accept-language']);
}

/** The language a page's path names (`/lv/payment/…`), or null for a path without one. */
export function pathLocale(url: string): Locale | null {
  const first = url.split('?')[0]!.split('/')[1];
  return LOCALES.find((locale) => locale === first) ?? null;
}

/**
 * A guest page's path in a language (`/fr/payment/…`). The provider's return and cancel links carry it, because the
 * browser that comes back may send another Accept-Language and no stored choice, and the page must stay in the
 * language the guest paid in.
 */
export function guestPagePath(locale: Locale, path: string): string {
  return `/${locale}${path}`;
}

/** A route of the signed-in app in a language: the default language at the root of the hash router, others under theirs. */
export function appRoutePath(locale: Locale, route: string): string {
  return locale === DEFAULT_LOCALE ? `/#${route}` : `/#/${locale}${route}`;
}

/**
 * The language of a page a visitor opens: the one its path names, else their stored choice (the `locale` cookie),
 * otherwise their browser's. Cookies are read only once parsed: a request the router refused never got that far.
 */
/**
 * The language a server page renders in: the pseudo-locale when `pseudoLocale` allows it (never in production) and the
 * `locale` cookie asks for it on a path without a language prefix; otherwise the request's language.
 */
export function requestTextLanguage(request: FastifyRequest, pseudoLocale: boolean): TextLanguage {
  if (pseudoLocale && !pathLocale(request.url) && request.cookies?.[LOCALE_COOKIE] === PSEUDO_LANGUAGE) return PSEUDO_LANGUAGE;
  return requestLocale(request);
}

export function requestLocale(request: FastifyRequest): Locale {
  const named = pathLocale(request.url);
  if (named) return named;
  const stored = request.cookies?.[LOCALE_COOKIE];
  return pickLocale(stored ? `${stored},${request.headers['accept-language'] ?? ''}` : request.headers['accept-language']);
}
