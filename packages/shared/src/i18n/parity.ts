import { DEFAULT_LOCALE, LOCALES, type Locale } from '../constants.ts';
import type { Catalog, Catalogs } from './translate.ts';

/** Every text of a catalog by its dotted key. */
export function flatten(catalog: Catalog, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [nested, text] of flatten(value, path)) entries.set(nested, text);
  }
  return entries;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',');

const PLURAL = /^(.+)_(zero|one|two|few|many|other)$/;

/** The plural forms a language has, as i18next picks them (Intl.PluralRules, cardinal): en one/other, lv zero/one/other, fr and es one/many/other. */
const pluralCategories = (locale: Locale): string[] => new Intl.PluralRules(locale).resolvedOptions().pluralCategories;

/**
 * The keys a locale must have for en's keys: a plural text of en (`key_one`, `key_other`) stands for the locale's own
 * forms (`key_zero`, `key_one`, `key_other` in Latvian), each compared with en's `_other`.
 */
function expectedKeys(reference: Map<string, string>, locale: Locale): Map<string, string> {
  const expected = new Map<string, string>();
  for (const [key, text] of reference) {
    const plural = PLURAL.exec(key);
    // A plural text is one with an `_other` form; `point_one` beside `point_two` is just a name.
    if (!plural || !reference.has(`${plural[1]}_other`)) expected.set(key, text);
    else if (plural[2] === 'other') for (const form of pluralCategories(locale)) expected.set(`${plural[1]}_${form}`, text);
  }
  return expected;
}

/**
 * Every key and placeholder of en must exist, non-empty, in every other locale, and no locale may add keys; plural
 * texts must have exactly the locale's own plural forms. en itself must give each plural text all of its forms.
 */
export function findParityProblems(catalogs: Catalogs): string[] {
  const problems: string[] = [];
  const reference = catalogs[DEFAULT_LOCALE];
  for (const namespace of Object.keys(reference)) {
    const own = flatten(reference[namespace] ?? {});
    for (const key of expectedKeys(own, DEFAULT_LOCALE).keys()) {
      if (!own.has(key)) problems.push(`${DEFAULT_LOCALE}/${namespace}.json lacks the plural form "${key}"`);
    }
  }
  for (const locale of LOCALES.filter((l) => l !== DEFAULT_LOCALE)) {
    const namespaces = new Set([...Object.keys(reference), ...Object.keys(catalogs[locale])]);
    for (const namespace of namespaces) {
      const expected = expectedKeys(flatten(reference[namespace] ?? {}), locale);
      const actual = flatten(catalogs[locale][namespace] ?? {});
      for (const [key, text] of expected) {
        const translated = actual.get(key);
        if (translated === undefined) problems.push(`${locale}/${namespace}.json lacks "${key}"`);
        else if (translated.trim() === '') problems.push(`${locale}/${namespace}.json has an empty "${key}"`);
        else if (placeholders(translated) !== placeholders(text)) {
          problems.push(
            `${locale}/${namespace}.json "${key}" has placeholders {${placeholders(translated)}}, en has {${placeholders(text)}}`,
          );
        }
      }
      for (const key of actual.keys()) {
        if (!expected.has(key)) problems.push(`${locale}/${namespace}.json has "${key}", which en does not`);
      }
    }
  }
  return problems;
}
