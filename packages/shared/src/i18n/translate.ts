import { DEFAULT_LOCALE, type Locale } from '../constants.ts';

export type Catalog = { [key: string]: string | Catalog };
export type Catalogs = Record<Locale, Record<string, Catalog>>;

/**
 * Looks up `namespace:dotted.key` (or `namespace.dotted.key`) and fills `{{name}}` placeholders; falls back to en.
 * With a numeric `count`, the language's plural form is taken first (`key_one`, `key_other`…), as i18next does.
 */
export function translate(catalogs: Catalogs, locale: Locale, key: string, vars: Record<string, string | number> = {}) {
  const at = (language: Locale) => {
    const form =
      typeof vars.count === 'number'
        ? lookup(catalogs[language], `${key}_${new Intl.PluralRules(language).select(vars.count)}`)
        : undefined;
    return form ?? lookup(catalogs[language], key);
  };
  const template = at(locale) ?? at(DEFAULT_LOCALE) ?? key;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
}

function lookup(namespaces: Record<string, Catalog> | undefined, key: string): string | undefined {
  const [namespace = '', ...path] = key.replace(':', '.').split('.');
  let node: string | Catalog | undefined = namespaces?.[namespace];
  for (const part of path) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}
