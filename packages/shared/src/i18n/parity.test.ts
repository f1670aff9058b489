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

  it('asks each language for its own plural forms, and refuses a missing or an extra one', () => {
    const plural = (en: object, lv: object, fr: object, es: object): Catalogs =>
      ({ en: { common: en }, lv: { common: lv }, fr: { common: fr }, es: { common: es } }) as Catalogs;
    const en = { left_one: '{{count}} second', left_other: '{{count}} seconds' };
    const fr = { left_one: '{{count}} seconde', left_many: '{{count}} de secondes', left_other: '{{count}} secondes' };
    const es = { left_one: '{{count}} segundo', left_many: '{{count}} de segundos', left_other: '{{count}} segundos' };
    const lv = { left_zero: '{{count}} sekunžu', left_one: '{{count}} sekunde', left_other: '{{count}} sekundes' };
    expect(findParityProblems(plural(en, lv, fr, es))).toEqual([]);
    expect(
      findParityProblems(
        plural(en, { left_one: '{{count}} sekunde', left_other: '{{count}} sekundes', left_many: 'x {{count}}' }, fr, es),
      ),
    ).toEqual(['lv/common.json lacks "left_zero"', 'lv/common.json has "left_many", which en does not']);
    expect(findParityProblems(plural({ left_other: '{{count}} seconds' }, lv, fr, es))).toEqual([
      'en/common.json lacks the plural form "left_one"',
    ]);
  });
});
