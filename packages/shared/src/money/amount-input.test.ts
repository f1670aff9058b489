import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../constants.ts';
import { parseAmountInput } from './amount-input.ts';
import { decimalAmount, formatAmount, formatMoney } from './format.ts';

/** Every amount a person can type: 0 to 9 999 999.99 EUR. */
const typable = fc.integer({ min: 0, max: 999_999_999 });

describe('parseAmountInput', () => {
  it('reads whole euros, one or two decimals, a point or a comma, thousands spaces and a € sign', () => {
    expect(parseAmountInput('10')).toBe(1000);
    expect(parseAmountInput('10.5')).toBe(1050);
    expect(parseAmountInput('10,05')).toBe(1005);
    expect(parseAmountInput('0.29')).toBe(29);
    expect(parseAmountInput('1 234.56')).toBe(123456);
    expect(parseAmountInput('1\u00a0234,56')).toBe(123456);
    expect(parseAmountInput(' 7. ')).toBe(700);
    expect(parseAmountInput('€ 7')).toBe(700);
    expect(parseAmountInput('7 €')).toBe(700);
  });

  it('refuses what is not a number or has more than two decimals', () => {
    for (const text of ['', 'abc', '10.123', '1.005', '1e3', '-5', '10..5', '12,3,4', '.5', '0x10', '12345678', 'Infinity']) {
      expect(parseAmountInput(text), text).toBeNull();
    }
  });

  it('refuses a € sign where the field asks for a number alone', () => {
    expect(parseAmountInput('10', { euroSign: false })).toBe(1000);
    expect(parseAmountInput('1 234.56', { euroSign: false })).toBe(123456);
    for (const text of ['€10', '10 €', 'abc', '10.123', '-5'])
      expect(parseAmountInput(text, { euroSign: false }), text).toBeNull();
  });

  it('reads back every amount it is shown, in every language, to the cent', () => {
    fc.assert(
      fc.property(typable, fc.constantFrom(...LOCALES), (cents, locale) => {
        expect(parseAmountInput(decimalAmount(cents), { euroSign: false })).toBe(cents);
        expect(parseAmountInput(formatAmount(cents, locale), { euroSign: false })).toBe(cents);
        expect(parseAmountInput(formatMoney(cents, locale))).toBe(cents);
      }),
      { numRuns: 2_000 },
    );
  });

  it('is exact where euros times 100 in floats is not: three decimals are refused, never rounded', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999 }), fc.integer({ min: 0, max: 999 }), (euros, thousandths) => {
        const text = `${euros}.${String(thousandths).padStart(3, '0')}`;
        expect(parseAmountInput(text)).toBeNull();
        expect(parseAmountInput(text.slice(0, -1))).toBe(euros * 100 + Math.floor(thousandths / 10));
      }),
    );
  });
});
