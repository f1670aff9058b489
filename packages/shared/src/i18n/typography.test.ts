import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatMoney } from '../money/format.ts';
import { NARROW_NBSP as NNBSP, NBSP, typeset } from './typography.ts';

/** A text with its no-break spaces made visible: `~` a no-break space, `^` a narrow one. */
const shown = (text: string) => text.replace(/\u00A0/g, '~').replace(/\u202F/g, '^');

describe('typography', () => {
  it('French: a narrow no-break space before ; ! ?, a no-break space before : and inside « »', () => {
    expect(shown(typeset('Prêt ? Oui ! Bien ; voici : « Tipcard »', 'fr'))).toBe('Prêt^? Oui^! Bien^; voici~: «~Tipcard~»');
    expect(shown(typeset('«Tipcard»', 'fr'))).toBe('«~Tipcard~»');
  });

  it('French: a no-break space already there before ? becomes the narrow one, and a second run changes nothing', () => {
    const once = typeset(`Sûr${NBSP}? Montant : 12,50 €`, 'fr');
    expect(shown(once)).toBe('Sûr^? Montant~: 12,50~€');
    expect(typeset(once, 'fr')).toBe(once);
  });

  it('leaves URLs, times and punctuation without a space before it alone', () => {
    const text = 'Voir https://tipcard.lv/fr/faq?x=1#a : à 10:15, ou 12:30! Fin?';
    expect(shown(typeset(text, 'fr'))).toBe('Voir https://tipcard.lv/fr/faq?x=1#a~: à 10:15, ou 12:30! Fin?');
  });

  it('leaves markup alone: tags, attributes and Trans placeholders', () => {
    const text = 'Lisez <a href="https://x.lv/?a=b c" title="Quoi ? Oui">les conditions</a> ! <0>Aide</0> ?';
    expect(shown(typeset(text, 'fr'))).toBe(
      'Lisez <a href="https://x.lv/?a=b c" title="Quoi ? Oui">les conditions</a>^! <0>Aide</0>^?',
    );
  });

  it('keeps an amount with its currency and its thousands in every language, as formatMoney writes it', () => {
    for (const locale of ['en', 'lv', 'fr', 'es'] as const) {
      const amount = formatMoney(123_450, locale);
      const typeset_ = typeset(`Total ${amount} today`, locale);
      expect(typeset_).toBe(`Total ${amount.replace(/ /g, NBSP)} today`);
      expect(typeset_).not.toMatch(/\d \d|\d €|€ \d/);
    }
    expect(shown(typeset('Limit 2 EUR, 1 000 EUR.', 'en'))).toBe('Limit 2~EUR, 1~000~EUR.');
  });

  it('keeps a number and its percent together, and leaves other numbers and spaces alone', () => {
    expect(shown(typeset('A 5 % fee on 3 500 tips in 2 days', 'es'))).toBe('A 5~% fee on 3 500 tips in 2 days');
    expect(typeset('Paid on 5 March 2026, 10:15.', 'en')).toBe('Paid on 5 March 2026, 10:15.');
  });

  it('Latvian, Spanish and English punctuation keep their spaces', () => {
    for (const language of ['en', 'lv', 'es', 'pseudo'])
      expect(typeset('Ready ? Yes : « a »', language)).toBe('Ready ? Yes : « a »');
  });

  it('never changes anything but spaces, and is stable on its own output', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'ab 1 2 €EUR%:;!?«»<>/="', NBSP, NNBSP) }),
        fc.constantFrom('en', 'lv', 'fr', 'es'),
        (text, language) => {
          const once = typeset(text, language);
          const spacesAsOne = (value: string) => value.replace(/[ \u00A0\u202F]/g, ' ');
          // « and » may gain the space typography asks for inside them; nothing else is added or taken away.
          expect(spacesAsOne(once).replace(/« | »/g, (mark) => mark.trim())).toBe(
            spacesAsOne(text).replace(/« | »/g, (mark) => mark.trim()),
          );
          expect(typeset(once, language)).toBe(once);
        },
      ),
    );
  });
});
