import { LOCALES } from '../constants.ts';
import type { GlossaryTerm } from './glossary.ts';
import { flatten } from './parity.ts';
import type { Catalogs } from './translate.ts';

/**
 * A whole word or phrase in any case: not inside a longer word (letters and digits of any script count as word
 * characters, so "kartīte" is not found in "kartītes"), with any run of spaces between the words of a phrase.
 */
function wholeWords(phrase: string): RegExp {
  const escaped = phrase
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu');
}

/** Each catalog text that uses a word the glossary bans in its language, with the word and the term to use instead. */
export function findBannedWords(catalogs: Catalogs, glossary: readonly GlossaryTerm[]): string[] {
  const problems: string[] = [];
  for (const locale of LOCALES) {
    const banned = glossary.flatMap((entry) =>
      (entry.avoid[locale] ?? []).map((word) => ({ word, pattern: wholeWords(word), entry })),
    );
    if (banned.length === 0) continue;
    for (const [namespace, catalog] of Object.entries(catalogs[locale])) {
      for (const [key, text] of flatten(catalog)) {
        for (const { word, pattern, entry } of banned) {
          if (pattern.test(text)) {
            problems.push(
              `${locale}/${namespace}.json "${key}" uses "${word}": the glossary's ${entry.concept} is "${entry.term[locale]}"`,
            );
          }
        }
      }
    }
  }
  return problems;
}
