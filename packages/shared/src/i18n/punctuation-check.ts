import { LOCALES } from '../constants.ts';
import { flatten } from './parity.ts';
import type { Catalogs } from './translate.ts';

/**
 * The dash between parts of a sentence is a spaced em dash (" — ") in every language, so a language does not mix two
 * dashes (the translators' review found Latvian with both). An en dash stays for ranges: unspaced ("3–4"), or spaced
 * between two placeholders ("{{from}} – {{to}}"), whose values may hold spaces themselves.
 */
const SENTENCE_EN_DASH = /(?<!\}\}) – |(?<=\}\}) – (?!\{\{)/u;

/** Each catalog text that uses a spaced en dash as a sentence dash, with its key. */
export function findSentenceEnDashes(catalogs: Catalogs): string[] {
  const problems: string[] = [];
  for (const locale of LOCALES) {
    for (const [namespace, catalog] of Object.entries(catalogs[locale])) {
      for (const [key, text] of flatten(catalog)) {
        if (SENTENCE_EN_DASH.test(text)) {
          problems.push(
            `${locale}/${namespace}.json "${key}" uses " – " as a sentence dash: write " — " (en dashes are for ranges)`,
          );
        }
      }
    }
  }
  return problems;
}
