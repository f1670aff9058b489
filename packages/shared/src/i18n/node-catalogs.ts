import { readdirSync, readFileSync } from 'node:fs';
import { LOCALES } from '../constants.ts';
import type { Catalog, Catalogs } from './translate.ts';

export const LOCALES_DIR = new URL('./locales/', import.meta.url);

/** Reads every namespace file of every locale from disk (server and scripts; the web app bundles them). */
export function readCatalogs(): Catalogs {
  return Object.fromEntries(
    LOCALES.map((locale) => {
      const dir = new URL(`${locale}/`, LOCALES_DIR);
      const namespaces = readdirSync(dir)
        .filter((file) => file.endsWith('.json'))
        .map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Catalog]);
      return [locale, Object.fromEntries(namespaces)];
    }),
  ) as Catalogs;
}
