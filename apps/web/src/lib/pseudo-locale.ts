import type { ResourceLanguage } from 'i18next';
import { LOCALE_COOKIE, PSEUDO_LANGUAGE } from '@tipcard/shared/constants';
import { getCookie } from './cookies.ts';

/**
 * The pseudo-locale (development and tests: accented, 40 % longer, bracketed texts) is asked for with the cookie
 * `locale=pseudo` and served by the API outside production only (GET /api/dev/pseudo-catalogs): in production the
 * catalogs are not there and the page stays in its language (decision 0035). The app and the guest pages render in
 * it with their usual locale for amounts and dates (English).
 */
export function pseudoLocaleRequested(): boolean {
  return getCookie(LOCALE_COOKIE) === PSEUDO_LANGUAGE;
}

let active = false;

/** Whether this page's texts are in the pseudo-locale (the app's root layout keeps it on unprefixed routes). */
export function pseudoLocaleActive(): boolean {
  return active;
}

/** What the pseudo catalogs are loaded into: the app's i18next instance, or the guest pages' texts (guest-i18n.ts). */
interface Translations {
  addResourceBundle(language: string, namespace: string, catalog: ResourceLanguage[string]): unknown;
  changeLanguage(language: string): unknown;
}

/** Loads the pseudo catalogs into an instance and switches it to them; false (nothing changed) without them. */
export async function switchToPseudoLocale(instance: Translations): Promise<boolean> {
  try {
    const response = await fetch('/api/dev/pseudo-catalogs');
    if (!response.ok) return false;
    const { data } = (await response.json()) as { data: Record<string, ResourceLanguage[string]> };
    for (const [namespace, catalog] of Object.entries(data)) {
      instance.addResourceBundle(PSEUDO_LANGUAGE, namespace, catalog);
    }
    await instance.changeLanguage(PSEUDO_LANGUAGE);
    active = true;
    return true;
  } catch {
    return false;
  }
}
