import type { Catalog } from './translate.ts';

/**
 * The pseudo-locale: every English text accented, about 40 % longer and bracketed ("[Ŧĥîš ţĕxţ·····]"), so a page in
 * it shows at a glance a string that bypasses the catalogs (not bracketed), a text cut off (no closing bracket) and a
 * layout that cannot take a longer language. Generated at run time from the English catalogs, for development and
 * tests only: the API serves it only outside production (docs/decisions/0035-pseudo-locale-and-typography.md).
 */
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, index) => [
    letter,
    [...'áƀçđĕƒĝĥîĵķļɱñöƥʠŕšţûʋŵxýžÅƁÇĐĔƑĜĤÎĴĶĻṀÑÖƤǪŘŠŦÛṼŴẊÝŽ'][index]!,
  ]),
);

/** What a text keeps as it is: `{{placeholders}}`, `$t(nested keys)` and tags (`<0>`, `</0>`, `<br/>`, `<strong>`). */
const KEPT = /(\{\{[^}]*\}\}|\$t\([^)]*\)|<\/?[\w-]*\s*\/?>)/;

/**
 * The dots that make up 40 % of the text's visible length, in words of at most 10 (a long real word, such as
 * Latvian's "apstiprināšanas"): one unbreakable run of a paragraph's 200 dots would overflow any phone.
 */
const PADDING = '·';
const GROWTH = 0.4;
const PADDING_WORD = 10;

function padding(length: number): string {
  const words: string[] = [];
  for (let left = length; left > 0; left -= PADDING_WORD) words.push(PADDING.repeat(Math.min(left, PADDING_WORD)));
  return words.join(' ');
}

/** One English text in the pseudo-locale; placeholders, nested keys and tags are kept exactly. */
export function pseudoText(text: string): string {
  let visible = 0;
  const parts = text.split(KEPT).map((part, index) => {
    if (index % 2 === 1) return part;
    visible += part.length;
    return part.replace(/[A-Za-z]/g, (letter) => ACCENTED[letter]!);
  });
  return `[${parts.join('')}${padding(Math.ceil(visible * GROWTH))}]`;
}

/** A catalog (a namespace's nested texts) in the pseudo-locale: the same keys, plural suffixes included. */
export function pseudoCatalog(catalog: Catalog): Catalog {
  return Object.fromEntries(
    Object.entries(catalog).map(([key, value]) => [key, typeof value === 'string' ? pseudoText(value) : pseudoCatalog(value)]),
  );
}
