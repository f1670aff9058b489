import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../constants.ts';
import { decimalAmount, formatAmount, formatMoney } from './format.ts';

describe('formatAmount', () => {
  it("shows cents as the spec's EUR amount with spaces between thousands", () => {
    expect(formatAmount(0)).toBe('0.00');
    expect(formatAmount(5)).toBe('0.05');
    expect(formatAmount(300)).toBe('3.00');
    expect(formatAmount(123456)).toBe('1 234.56');
    expect(formatAmount(100000000)).toBe('1 000 000.00');
    expect(formatAmount(-250)).toBe('-2.50');
  });

  it('loses no cent: removing the spaces gives back the exact amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        const shown = formatAmount(cents);
        expect(shown).toMatch(/^-?\d{1,3}( \d{3})*\.\d{2}$/);
        expect(BigInt(shown.replaceAll(' ', '').replace('.', ''))).toBe(BigInt(cents));
      }),
    );
  });

  it("writes the reader's decimal mark: a point in English, a comma in Latvian, French and Spanish", () => {
    expect(formatAmount(123456, 'en')).toBe('1 234.56');
    for (const locale of ['lv', 'fr', 'es'] as const) expect(formatAmount(123456, locale)).toBe('1 234,56');
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        expect(formatAmount(cents, 'fr')).toBe(formatAmount(cents).replace('.', ','));
      }),
    );
  });

  it('refuses anything that is not integer cents', () => {
    expect(() => formatAmount(1.5)).toThrow(RangeError);
    expect(() => formatAmount(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatMoney', () => {
  it("puts the reader's decimal mark and the € where their language does", () => {
    expect(formatMoney(123456, 'en')).toBe('€1 234.56');
    expect(formatMoney(123456, 'fr')).toBe('1 234,56 €');
    expect(formatMoney(2000, 'lv')).toBe('20,00 €');
    expect(formatMoney(-250, 'es')).toBe('-2,50 €');
  });

  it('loses no cent in any language', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom(...LOCALES),
        (cents, locale) => {
          const shown = formatMoney(cents, locale);
          expect(BigInt(shown.replace(/[€ .,]/g, ''))).toBe(BigInt(cents));
        },
      ),
    );
  });
});

describe('decimalAmount', () => {
  it('writes cents the way files and input fields read them back: a point, no thousands separator', () => {
    expect(decimalAmount(1034)).toBe('10.34');
    expect(decimalAmount(300)).toBe('3.00');
    expect(decimalAmount(5)).toBe('0.05');
    expect(decimalAmount(0)).toBe('0.00');
    expect(decimalAmount(123456)).toBe('1234.56');
    expect(decimalAmount(-250)).toBe('-2.50');
  });

  it('is the exact amount for every integer, where dividing by 100 in floats is not', () => {
    // (cents / 100).toFixed(2), the payouts CLI's old total, writes 71062682485571.52 here.
    expect(decimalAmount(7_106_268_248_557_151)).toBe('71062682485571.51');
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        const written = decimalAmount(cents);
        expect(written).toMatch(/^-?\d+\.\d{2}$/);
        expect(BigInt(written.replace('.', ''))).toBe(BigInt(cents));
        expect(written).toBe(formatAmount(cents).replaceAll(' ', ''));
      }),
    );
  });

  it('refuses anything that is not integer cents', () => {
    expect(() => decimalAmount(10.5)).toThrow(RangeError);
    expect(() => decimalAmount(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
