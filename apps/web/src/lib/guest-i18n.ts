import { useMemo, useSyncExternalStore } from 'react';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@tipcard/shared/constants';
import { typeset } from '@tipcard/shared/i18n/typography';
import { formatMoney } from '@tipcard/shared/money/format';
import type { GuestErrorKey } from './error-text.ts';
import { isLocale } from './is-locale.ts';
import { rememberLocale } from './locale.ts';

/**
 * The guest pages' texts with only what they show: their namespace, the amount rule, the language names and the
 * errors a guest can meet (error-text.ts `GUEST_ERROR_KEYS`); lib/i18n.ts bundles the catalogs of every app page,
 * several times the weight of this whole page. Translated by a few lines of our own rather than i18next, which was a
 * tenth of the guest page's script (decision 0052): keys as `namespace:path.to.key` (namespace `payment` by default),
 * `{{placeholders}}`, plurals by `count` with i18next's suffixes (`_one`, `_other`, Latvian `_zero`, …) and English
 * as the fallback, every text through the typography filter. Only the lazily loaded anti-bot widget, which needs
 * react-i18next, builds an i18next instance from the same resources (components/guest/guest-human-check.tsx).
 *
 * JSON named imports keep the unused entries of validation.json, common.json and errors.json out of the bundle, but
 * only of a module of its own: the app's i18n imports the same files whole, and a module shared with it is bundled
 * whole. The query `?guest=.json` makes these imports modules apart (it ends in `.json` so they are still read as JSON).
 * The public build holds none of the app (vite.public.config.ts), but `vite dev` and the tests do.
 */
const CATALOGS = '../../../../packages/shared/src/i18n/locales';
// The bulk of a language's texts, loaded when the language is asked for (`loadGuestLocale`); the few entries of the
// other catalogs below come with the page in every language (about 1 KB gzip in all).
const payment = import.meta.glob<GuestCatalog>('../../../../packages/shared/src/i18n/locales/*/payment.json', {
  import: 'default',
});
const amountRange = import.meta.glob<string>('../../../../packages/shared/src/i18n/locales/*/validation.json', {
  eager: true,
  query: '?guest=.json',
  import: 'amount_range',
});
const notBlank = import.meta.glob<string>('../../../../packages/shared/src/i18n/locales/*/validation.json', {
  eager: true,
  query: '?guest=.json',
  import: 'not_blank',
});
const invalidEmail = import.meta.glob<string>('../../../../packages/shared/src/i18n/locales/*/validation.json', {
  eager: true,
  query: '?guest=.json',
  import: 'email',
});
const invalidValue = import.meta.glob<string>('../../../../packages/shared/src/i18n/locales/*/validation.json', {
  eager: true,
  query: '?guest=.json',
  import: 'valid',
});
const language = import.meta.glob<Record<string, unknown>>('../../../../packages/shared/src/i18n/locales/*/common.json', {
  eager: true,
  query: '?guest=.json',
  import: 'language',
});
const humanCheck = import.meta.glob<Record<string, unknown>>('../../../../packages/shared/src/i18n/locales/*/common.json', {
  eager: true,
  query: '?guest=.json',
  import: 'human_check',
});

// One glob per entry: the options of import.meta.glob must be literals.
const errorTexts: Record<GuestErrorKey, Record<string, string>> = {
  no_answer: import.meta.glob<string>('../../../../packages/shared/src/i18n/locales/*/errors.json', {
    eager: true,
    query: '?guest=.json',
    import: 'no_answer',
  }),
  rate_limited: import.meta.glob<string>('../../../../packages/shared/src/i18n/locales/*/errors.json', {
    eager: true,
    query: '?guest=.json',
    import: 'rate_limited',
  }),
  bot_check_failed: import.meta.glob<string>('../../../../packages/shared/src/i18n/locales/*/errors.json', {
    eager: true,
    query: '?guest=.json',
    import: 'bot_check_failed',
  }),
  payment_changed: import.meta.glob<string>('../../../../packages/shared/src/i18n/locales/*/errors.json', {
    eager: true,
    query: '?guest=.json',
    import: 'payment_changed',
  }),
};

/** A namespace's texts: nested objects of strings. */
export type GuestCatalog = { [key: string]: string | GuestCatalog };
/**
 * Every language's namespaces, `payment` once the language is loaded (the pseudo-locale's are added when it is switched
 * on, lib/pseudo-locale.ts).
 */
export const guestResources: Record<string, Record<string, GuestCatalog>> = {};
const file = (locale: string, name: string) => `${CATALOGS}/${locale}/${name}.json`;
for (const locale of LOCALES) {
  guestResources[locale] = {
    validation: {
      amount_range: amountRange[file(locale, 'validation')] ?? '',
      not_blank: notBlank[file(locale, 'validation')] ?? '',
      email: invalidEmail[file(locale, 'validation')] ?? '',
      valid: invalidValue[file(locale, 'validation')] ?? '',
    },
    common: {
      language: (language[file(locale, 'common')] ?? {}) as GuestCatalog,
      human_check: (humanCheck[file(locale, 'common')] ?? {}) as GuestCatalog,
    },
    errors: Object.fromEntries(Object.entries(errorTexts).map(([key, texts]) => [key, texts[file(locale, 'errors')] ?? ''])),
  };
}

const loading = new Map<Locale, Promise<void>>();

/**
 * Loads a language's `payment` texts once: a guest's page needs only its own language's (decision 0064). English, the
 * fallback, is there only when loaded: every language has every key of English (`npm run i18n:check`), so only the
 * pseudo-locale (lib/pseudo-locale.ts) falls back to it.
 */
export function loadGuestLocale(locale: Locale): Promise<void> {
  let loaded = loading.get(locale);
  if (!loaded) {
    loaded = payment[file(locale, 'payment')]!().then((catalog) => {
      guestResources[locale] = { ...guestResources[locale], payment: catalog };
    });
    loading.set(locale, loaded);
  }
  return loaded;
}

/** A text of the guest pages by its key, its placeholders filled from `values`. */
export type GuestT = (key: string, values?: Record<string, unknown>) => string;

const DEFAULT_NAMESPACE = 'payment';

function lookup(language: string, namespace: string, path: string): string | undefined {
  let node: string | GuestCatalog | undefined = guestResources[language]?.[namespace];
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** i18next's plural suffix of a count in a language (the pseudo-locale counts as English). */
function pluralSuffix(language: string, count: number): string {
  return new Intl.PluralRules(isLocale(language) ? language : DEFAULT_LOCALE).select(count);
}

function translate(language: string, key: string, values?: Record<string, unknown>): string {
  const colon = key.indexOf(':');
  const namespace = colon > 0 ? key.slice(0, colon) : DEFAULT_NAMESPACE;
  const path = colon > 0 ? key.slice(colon + 1) : key;
  const count = values?.count;
  let text: string | undefined;
  for (const candidate of language === DEFAULT_LOCALE ? [language] : [language, DEFAULT_LOCALE]) {
    text =
      (typeof count === 'number' ? lookup(candidate, namespace, `${path}_${pluralSuffix(candidate, count)}`) : undefined) ??
      lookup(candidate, namespace, path);
    if (text !== undefined) break;
  }
  if (text === undefined) return path;
  // A placeholder without a value stays as it is (i18next's skipOnVariables), as `PayLabel` relies on.
  const filled = text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (placeholder, name: string) =>
    values?.[name] === undefined ? placeholder : String(values[name]),
  );
  return typeset(filled, language);
}

type LanguageListener = (language: string) => void;
const listeners = new Set<LanguageListener>();
let current: string = DEFAULT_LOCALE;

/** The guest pages' language and texts: what the server render, the entry and the pseudo-locale switch use. */
export const guestI18n = {
  get language(): string {
    return current;
  },
  changeLanguage(language: string): void {
    if (language === current) return;
    current = language;
    for (const listener of listeners) listener(language);
  },
  getFixedT(language: string): GuestT {
    return (key, values) => translate(language, key, values);
  },
  /** Adds or replaces a namespace's texts of a language (the pseudo-locale's, lib/pseudo-locale.ts). */
  addResourceBundle(language: string, namespace: string, catalog: GuestCatalog): void {
    guestResources[language] = { ...guestResources[language], [namespace]: catalog };
  },
  on(_event: 'languageChanged', listener: LanguageListener): void {
    listeners.add(listener);
  },
  off(_event: 'languageChanged', listener: LanguageListener): void {
    listeners.delete(listener);
  },
};

export function guestLocale(): Locale {
  return isLocale(guestI18n.language) ? guestI18n.language : DEFAULT_LOCALE;
}

/** An amount in the guest's language, by the one money formatter (the app's `formatEuro` would pull in its i18n). */
export function guestMoney(cents: number): string {
  return formatMoney(cents, guestLocale());
}

let requested: Locale | undefined;

/**
 * Switches in place (no reload: the guest keeps the amount they chose) and remembers the choice like the app's
 * switcher does; the page's lang attribute follows. At once when the language's texts are loaded, else once they are
 * (the last language asked for wins).
 */
export function setGuestLocale(locale: Locale, remember: boolean): Promise<void> {
  requested = locale;
  if (remember) rememberLocale(locale);
  const apply = () => {
    if (requested !== locale) return;
    guestI18n.changeLanguage(locale);
    if (typeof document !== 'undefined') document.documentElement.lang = locale;
  };
  if (guestResources[locale]?.payment) {
    apply();
    return Promise.resolve();
  }
  return loadGuestLocale(locale).then(apply);
}

function subscribe(onChange: () => void): () => void {
  guestI18n.on('languageChanged', onChange);
  return () => guestI18n.off('languageChanged', onChange);
}

/** `t` of the current language (default namespace `payment`); components re-render when the guest switches. */
export function useGuestT(): GuestT {
  // The server renders in the language it chose and hydration starts from the same one (public-main sets it first).
  const language = useSyncExternalStore(
    subscribe,
    () => guestI18n.language,
    () => guestI18n.language,
  );
  return useMemo(() => guestI18n.getFixedT(language), [language]);
}
