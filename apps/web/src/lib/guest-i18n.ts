import { useMemo, useSyncExternalStore } from 'react';
import i18next, { type Resource, type TFunction } from 'i18next';
import { DEFAULT_LOCALE, LOCALES, PSEUDO_LANGUAGE, type Locale } from '@tipcard/shared/constants';
import { formatMoney } from '@tipcard/shared/money/format';
import type { GuestErrorKey } from './error-text.ts';
import { isLocale } from './is-locale.ts';
import { rememberLocale } from './locale.ts';
import { typography } from './typography.ts';

/**
 * The guest page's own i18next instance with only what it shows: its namespace, the amount rule, the language names
 * and the errors a guest can meet (error-text.ts `GUEST_ERROR_KEYS`); lib/i18n.ts bundles the catalogs of every app
 * page, several times the weight of this whole page. The page reads it through `useGuestT` rather than react-i18next,
 * which would add about 10 KB gzipped to the first paint; only the lazily loaded anti-bot widget brings it along.
 *
 * JSON named imports keep the unused entries of validation.json, common.json and errors.json out of the bundle, but
 * only of a module of its own: the app's i18n imports the same files whole, and a module shared with it is bundled
 * whole. The query `?guest=.json` makes these imports modules apart (it ends in `.json` so they are still read as JSON).
 */
const CATALOGS = '../../../../packages/shared/src/i18n/locales';
const payment = import.meta.glob<Record<string, unknown>>('../../../../packages/shared/src/i18n/locales/*/payment.json', {
  eager: true,
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

const resources: Resource = {};
for (const locale of LOCALES) {
  const file = (name: string) => `${CATALOGS}/${locale}/${name}.json`;
  resources[locale] = {
    payment: payment[file('payment')] ?? {},
    validation: {
      amount_range: amountRange[file('validation')] ?? '',
      not_blank: notBlank[file('validation')] ?? '',
      email: invalidEmail[file('validation')] ?? '',
      valid: invalidValue[file('validation')] ?? '',
    },
    common: { language: language[file('common')] ?? {}, human_check: humanCheck[file('common')] ?? {} },
    errors: Object.fromEntries(Object.entries(errorTexts).map(([key, texts]) => [key, texts[file('errors')] ?? ''])),
  };
}

export const guestI18n = i18next.createInstance();

void guestI18n.use(typography).init({
  resources,
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES, PSEUDO_LANGUAGE],
  ns: ['payment', 'validation', 'common', 'errors'],
  defaultNS: 'payment',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  postProcess: ['typography'],
});

export function guestLocale(): Locale {
  return isLocale(guestI18n.language) ? guestI18n.language : DEFAULT_LOCALE;
}

/** An amount in the guest's language, by the one money formatter (the app's `formatEuro` would pull in its i18n). */
export function guestMoney(cents: number): string {
  return formatMoney(cents, guestLocale());
}

/**
 * Switches in place (no reload: the guest keeps the amount they chose) and remembers the choice like the app's
 * switcher does; the page's lang attribute follows.
 */
export function setGuestLocale(locale: Locale, remember: boolean): void {
  void guestI18n.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  if (remember) rememberLocale(locale);
}

function subscribe(onChange: () => void): () => void {
  guestI18n.on('languageChanged', onChange);
  return () => guestI18n.off('languageChanged', onChange);
}

/** `t` of the current language (default namespace `payment`); components re-render when the guest switches. */
export function useGuestT(): TFunction {
  // The server renders in the language it chose and hydration starts from the same one (public-main sets it first).
  const language = useSyncExternalStore(
    subscribe,
    () => guestI18n.language,
    () => guestI18n.language,
  );
  return useMemo(() => guestI18n.getFixedT(language), [language]);
}
