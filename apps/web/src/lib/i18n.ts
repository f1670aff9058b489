import { use } from 'react';
import i18next, { type Resource, type ResourceLanguage } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, PSEUDO_LANGUAGE, type Locale } from '@tipcard/shared/constants';
import { ruleVariables, type ValidationRule } from '@tipcard/shared/validation-rules';
import { isLocale } from './is-locale.ts';
import { typography } from './typography.ts';

/**
 * The catalogs live in packages/shared (the API uses them too). The app bundles English, the fallback, and loads the
 * other languages' catalogs on start (`loadLocale`), so a page carries one language, not four. The long texts of the
 * public site load with their pages (`useNamespaces`), so no other page carries them.
 */
// Exclusions spell out the path: a `**` does not reach above the app's root, so `!**/sms.json` would match nothing.
const modules = import.meta.glob<Record<string, unknown>>(
  [
    '../../../../packages/shared/src/i18n/locales/en/*.json',
    '!../../../../packages/shared/src/i18n/locales/en/{sms,documents,checkout,marketing,legal}.json',
  ],
  { eager: true, import: 'default' },
);
// Each other language's catalogs come in one module (one request, not one per namespace): catalogs/{locale}.ts.
const localeModules = import.meta.glob<Record<string, Record<string, unknown>>>('./catalogs/*.ts', { import: 'default' });
const lazyModules = import.meta.glob<Record<string, unknown>>(
  ['../../../../packages/shared/src/i18n/locales/*/{marketing,legal}.json'],
  {
    import: 'default',
  },
);

const SERVER_ONLY_NAMESPACES = new Set(['sms', 'email', 'documents', 'checkout']);
const CATALOG_PATH = /locales\/([a-z]{2})\/([\w-]+)\.json$/;

export const resources: Resource = {};
for (const [path, catalog] of Object.entries(modules)) {
  const match = CATALOG_PATH.exec(path);
  if (!match) continue;
  const [, locale, namespace] = match as unknown as [string, string, string];
  if (SERVER_ONLY_NAMESPACES.has(namespace)) continue;
  const bundle: ResourceLanguage = (resources[locale] ??= {});
  bundle[namespace] = catalog as ResourceLanguage[string];
}

export const NAMESPACES = Object.keys(resources[DEFAULT_LOCALE] ?? {});

export const i18n = i18next.createInstance();

void i18n
  .use(initReactI18next)
  .use(typography)
  .init({
    resources,
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES, PSEUDO_LANGUAGE],
    ns: NAMESPACES,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
    postProcess: ['typography'],
  });

/** A promise React's `use` can read without suspending once it has settled (it looks at `status` and `value`). */
type TrackedPromise = Promise<void> & { status?: 'fulfilled'; value?: void };

const loading = new Map<string, TrackedPromise>();

/** Marks a promise settled for React's `use`, so a render after it resolved does not suspend again. */
function track(promise: Promise<void>, key: string): TrackedPromise {
  const tracked: TrackedPromise = promise;
  tracked.then(
    () => Object.assign(tracked, { status: 'fulfilled', value: undefined }),
    () => loading.delete(key),
  );
  loading.set(key, tracked);
  return tracked;
}

const BUNDLED: TrackedPromise = Object.assign(Promise.resolve(), { status: 'fulfilled' as const, value: undefined });

/**
 * Loads every app namespace of a language other than English (which is bundled), once and in one request: before the first render in
 * it, and when a route's prefix switches language in the running app.
 */
export function loadLocale(locale: Locale): Promise<void> {
  if (locale === DEFAULT_LOCALE) return BUNDLED;
  const key = `locale/${locale}`;
  const cached = loading.get(key);
  if (cached) return cached;
  const load = localeModules[`./catalogs/${locale}.ts`];
  const loaded = load
    ? load().then((catalogs) => {
        for (const [path, catalog] of Object.entries(catalogs)) {
          const namespace = CATALOG_PATH.exec(path)?.[2];
          if (namespace && !SERVER_ONLY_NAMESPACES.has(namespace)) i18n.addResourceBundle(locale, namespace, catalog, true, true);
        }
      })
    : Promise.reject(new Error(`no catalogs for ${locale}`));
  return track(loaded, key);
}

/** Suspends the caller until the language's catalogs are there (at once for English and loaded languages). */
export function useLocaleCatalogs(locale: Locale): void {
  use(loadLocale(locale));
}

/** Loads a lazily bundled namespace in a locale once; later calls answer the same promise. */
export function loadNamespace(namespace: string, locale: Locale): Promise<void> {
  const key = `${locale}/${namespace}`;
  let promise = loading.get(key);
  if (!promise) {
    const load = Object.entries(lazyModules).find(([path]) => path.endsWith(`/locales/${key}.json`))?.[1];
    promise = track(
      load
        ? load().then((catalog) => void i18n.addResourceBundle(locale, namespace, catalog, true, true))
        : Promise.reject(new Error(`no catalog ${key}`)),
      key,
    );
  }
  return promise;
}

/**
 * Suspends the calling page until its lazily loaded namespaces are there in the current language. `use` is called
 * for every namespace on every render, loaded or not, so a replayed render makes the same calls.
 */
export function useNamespaces(namespaces: string[]): void {
  const locale = currentLocale();
  for (const namespace of namespaces) use(loadNamespace(namespace, locale));
}

export { isLocale };

export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/** Zod messages are keys `validation.<rule>` (with the bounds a rule's text names); anything else is shown as it is. */
export function translateValidation(message: string | undefined): string | undefined {
  if (!message) return undefined;
  if (message.startsWith('validation.')) {
    const name = message.slice('validation.'.length);
    return i18n.t(`validation:${name}`, ruleVariables(name as ValidationRule, currentLocale()));
  }
  return i18n.exists(message) ? i18n.t(message) : message;
}
