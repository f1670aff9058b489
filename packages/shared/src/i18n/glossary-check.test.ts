import { describe, expect, it } from 'vitest';
import { GLOSSARY, type GlossaryTerm } from './glossary.ts';
import { findBannedWords } from './glossary-check.ts';
import { readCatalogs } from './node-catalogs.ts';
import type { Catalog, Catalogs } from './translate.ts';

const referral: GlossaryTerm = {
  concept: 'referral',
  meaning: 'Inviting a friend.',
  term: { en: 'referral', lv: 'draugu uzaicināšana', fr: 'parrainage', es: 'invitación' },
  avoid: { lv: ['ieteikumi', 'partneru programma'], es: ['programa de afiliados'] },
};

const catalogsWith = (lv: Catalog, es: Catalog = {}): Catalogs =>
  ({ en: { referrals: { nav: 'Referrals' } }, lv: { referrals: lv }, fr: {}, es: { referrals: es } }) as Catalogs;

describe('glossary check', () => {
  it('passes for the catalogs in the repository', () => {
    expect(findBannedWords(readCatalogs(), GLOSSARY)).toEqual([]);
  });

  it('names the key and the banned word of a catalog that uses one, in any case and nested', () => {
    expect(findBannedWords(catalogsWith({ nav: 'Ieteikumi', list: { back: 'Atpakaļ uz IETEIKUMI' } }), [referral])).toEqual([
      'lv/referrals.json "nav" uses "ieteikumi": the glossary\'s referral is "draugu uzaicināšana"',
      'lv/referrals.json "list.back" uses "ieteikumi": the glossary\'s referral is "draugu uzaicināšana"',
    ]);
  });

  it('finds a banned phrase across any spaces, only in its own language', () => {
    expect(
      findBannedWords(catalogsWith({ title: 'Partneru\u00a0programma' }, { title: 'Programa  de afiliados' }), [referral]),
    ).toEqual([
      'lv/referrals.json "title" uses "partneru programma": the glossary\'s referral is "draugu uzaicināšana"',
      'es/referrals.json "title" uses "programa de afiliados": the glossary\'s referral is "invitación"',
    ]);
    // Latvian's banned word is no Spanish word to look for.
    expect(findBannedWords(catalogsWith({}, { nav: 'Ieteikumi' }), [referral])).toEqual([]);
  });

  it('matches whole words only, with letters of any script as word characters', () => {
    const card: GlossaryTerm = {
      concept: 'card',
      meaning: 'A QR card.',
      term: { en: 'card', lv: 'karte', fr: 'carte', es: 'tarjeta' },
      avoid: { lv: ['kartīte'], es: ['EUR'] },
    };
    expect(
      findBannedWords(catalogsWith({ a: 'kartītes', b: 'mazkartīte', c: 'ieteiktās summas' }, { a: 'EURO', b: '2 €' }), [
        card,
        referral,
      ]),
    ).toEqual([]);
    expect(findBannedWords(catalogsWith({ a: '„Kartīte“' }, { a: '2 EUR.' }), [card])).toEqual([
      'lv/referrals.json "a" uses "kartīte": the glossary\'s card is "karte"',
      'es/referrals.json "a" uses "EUR": the glossary\'s card is "tarjeta"',
    ]);
  });
});
