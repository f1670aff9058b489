import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { smsBody } from './sms-encoding.ts';

describe('smsBody', () => {
  it('gives a French text whose only non-GSM characters are no-break spaces plain spaces', () => {
    expect(smsBody('Votre code\u202F: 123456. Valable 10\u00A0minutes\u202F!')).toBe('Votre code : 123456. Valable 10 minutes !');
    expect(smsBody('Retrait de 12,50\u00A0€ payé.')).toBe('Retrait de 12,50 € payé.');
  });

  it('keeps the no-break spaces of a text that needs UCS-2 for its letters anyway', () => {
    const latvian = 'Izmaksa 12,50\u00A0€ ir samaksāta.';
    expect(smsBody(latvian)).toBe(latvian);
    const french = 'Vous êtes inscrit\u202F!';
    expect(smsBody(french)).toBe(french);
  });

  it('leaves a GSM-7 text as it is, extension characters included', () => {
    expect(smsBody('Code [42] {ok} ~ €5 ^ | \\')).toBe('Code [42] {ok} ~ €5 ^ | \\');
  });

  it('only ever changes no-break spaces, and only into spaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'é', 'ā', ' ', '\u00A0', '\u202F', '€', '?', 'ê') }), (text) => {
        const sent = smsBody(text);
        expect([...sent]).toHaveLength([...text].length);
        [...text].forEach((char, index) => {
          const out = [...sent][index];
          expect(out === char || (/[\u00A0\u202F]/.test(char) && out === ' ')).toBe(true);
        });
      }),
    );
  });
});
