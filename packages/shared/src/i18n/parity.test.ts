import { describe, expect, it } from 'vitest';
import { findParityProblems } from './parity.ts';
import { readCatalogs } from './node-catalogs.ts';
import type { Catalogs } from './translate.ts';

const catalogsWith = (lv: Record<string, unknown>): Catalogs =>
  ({
    en: { common: { hello: 'Hello {{name}}', nested: { bye: 'Bye' } } },
    lv: { common: lv },
    fr: { common: { hello: 'Bonjour {{name}}', nested: { bye: 'Salut' } } },
    es: { common: { hello: 'Hola {{name}}', nested: { bye: 'Adiós' } } },
  }) as Catalogs;

describe('translation parity', () => {
  it('passes for the catalogs in the repository', () => {
    expect(findParityProblems(readCatalogs())).toEqual([]);
  });

  it('reports a missing key, a lost placeholder, an empty text and an extra key', () => {
    expect(findParityProblems(catalogsWith({ hello: 'Sveiki', extra: 'x' }))).toEqual([
      'lv/common.json "hello" has placeholders {}, en has {name}',
      'lv/common.json lacks "nested.bye"',
      'lv/common.json has "extra", which en does not',
    ]);
    expect(findParityProblems(catalogsWith({ hello: 'Sveiki {{name}}', nested: { bye: ' ' } }))).toEqual([
      'lv/common.json has an empty "nested.bye"',
    ]);
  });
});
