import { describe, expect, it } from 'vitest';
import { readCatalogs } from './node-catalogs.ts';
import { findSentenceEnDashes } from './punctuation-check.ts';
import type { Catalogs } from './translate.ts';

const latvian = (texts: Record<string, string>): Catalogs => ({ en: {}, lv: { teams: texts }, fr: {}, es: {} }) as Catalogs;

describe('sentence dashes', () => {
  it('passes for the catalogs in the repository', () => {
    expect(findSentenceEnDashes(readCatalogs())).toEqual([]);
  });

  it('names a spaced en dash between words, also after or before a placeholder', () => {
    expect(
      findSentenceEnDashes(latvian({ a: 'bet jūs – par dalībnieku', b: '{{name}} – dalībnieks', c: 'Komanda – {{name}}' })),
    ).toEqual([
      'lv/teams.json "a" uses " – " as a sentence dash: write " — " (en dashes are for ranges)',
      'lv/teams.json "b" uses " – " as a sentence dash: write " — " (en dashes are for ranges)',
      'lv/teams.json "c" uses " – " as a sentence dash: write " — " (en dashes are for ranges)',
    ]);
  });

  it('leaves ranges alone: unspaced, or spaced between two placeholders, and the em dash', () => {
    expect(findSentenceEnDashes(latvian({ a: 'piegāde 3–4 dienās', b: '{{from}} – {{to}}', c: 'segt — tādā gadījumā' }))).toEqual(
      [],
    );
  });
});
