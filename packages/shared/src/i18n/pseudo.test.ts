import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readCatalogs } from './node-catalogs.ts';
import { pseudoCatalog, pseudoText } from './pseudo.ts';

const KEPT = /\{\{[^}]*\}\}|\$t\([^)]*\)|<\/?[\w-]*\s*\/?>/g;
const placeholdersOf = (text: string) => text.match(KEPT) ?? [];
const withoutPlaceholders = (text: string) => text.replace(KEPT, '');

describe('the pseudo-locale', () => {
  it('accents, brackets and lengthens a text by about 40 %', () => {
    expect(pseudoText('This with text')).toBe('[Ŧĥîš ŵîţĥ ţĕxţ······]');
  });

  it('keeps placeholders, nested keys and tags as they are, and counts only the text around them', () => {
    expect(pseudoText('Hi {{name}}, see <0>the terms</0>$t(common:dot)<br/>')).toBe(
      '[Ĥî {{name}}, šĕĕ <0>ţĥĕ ţĕŕɱš</0>$t(common:dot)<br/>········]',
    );
  });

  it('pads a long text with words of dots a line can break between', () => {
    const long = pseudoText('word '.repeat(10).trim());
    expect(long.slice(-22, -1)).toBe('·········· ··········');
    expect(long).not.toMatch(/·{11}/);
  });

  it('leaves digits, punctuation and letters outside English as they are', () => {
    expect(pseudoText('10:15 — 5 % · ā')).toBe('[10:15 — 5 % · ā······]');
  });

  it('keeps the keys of a catalog, plural forms included, and every placeholder of every English text', () => {
    const english = readCatalogs().en;
    for (const [namespace, catalog] of Object.entries(english)) {
      const pseudo = pseudoCatalog(catalog);
      const walk = (source: typeof catalog, generated: typeof catalog) => {
        expect(Object.keys(generated)).toEqual(Object.keys(source));
        for (const [key, value] of Object.entries(source)) {
          const text = generated[key]!;
          if (typeof value === 'string') {
            expect(typeof text, `${namespace}:${key}`).toBe('string');
            expect(placeholdersOf(text as string), `${namespace}:${key}`).toEqual(placeholdersOf(value));
            expect(text).toMatch(/^\[.*\]$/s);
          } else walk(value, text as typeof catalog);
        }
      };
      walk(catalog, pseudo);
    }
  });

  it('is bracketed and at least 40 % longer than any text (placeholders aside), with no English letter left outside placeholders', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abz XYZ.,!?{}<>/$()0123456789') }), (text) => {
        const pseudo = pseudoText(text);
        expect(pseudo.startsWith('[') && pseudo.endsWith(']')).toBe(true);
        const visible = withoutPlaceholders(pseudo);
        expect(visible.length - 2).toBeGreaterThanOrEqual(withoutPlaceholders(text).length * 1.4);
        expect(visible).not.toMatch(/[a-wyzA-WYZ]/);
      }),
    );
  });
});
