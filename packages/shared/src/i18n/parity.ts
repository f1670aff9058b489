import { DEFAULT_LOCALE, LOCALES } from '../constants.ts';
import type { Catalog, Catalogs } from './translate.ts';

function flatten(catalog: Catalog, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [nested, text] of flatten(value, path)) entries.set(nested, text);
  }
  return entries;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort().join(',');

/** Every key and placeholder of en must exist, non-empty, in every other locale, and no locale may add keys. */
export function findParityProblems(catalogs: Catalogs): string[] {
  const problems: string[] = [];
  const reference = catalogs[DEFAULT_LOCALE];
  for (const locale of LOCALES.filter((l) => l !== DEFAULT_LOCALE)) {
    const namespaces = new Set([...Object.keys(reference), ...Object.keys(catalogs[locale])]);
    for (const namespace of namespaces) {
      const expected = flatten(reference[namespace] ?? {});
      const actual = flatten(catalogs[locale][namespace] ?? {});
      for (const [key, text] of expected) {
        const translated = actual.get(key);
        if (translated === undefined) problems.push(`${locale}/${namespace}.json lacks "${key}"`);
        else if (translated.trim() === '') problems.push(`${locale}/${namespace}.json has an empty "${key}"`);
        else if (placeholders(translated) !== placeholders(text)) {
          problems.push(`${locale}/${namespace}.json "${key}" has placeholders {${placeholders(translated)}}, en has {${placeholders(text)}}`);
        }
      }
      for (const key of actual.keys()) {
        if (!expected.has(key)) problems.push(`${locale}/${namespace}.json has "${key}", which en does not`);
      }
    }
  }
  return problems;
}
