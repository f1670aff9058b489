import { describe, expect, it } from 'vitest';
import { bicProblem, compactIban, formatIbanTyping, formatSortCode, ibanState } from './iban.ts';

describe('formatIbanTyping', () => {
  it('groups by four in upper case as the user types', () => {
    expect(formatIbanTyping('lv80bank0000435195001', 21)).toEqual({ value: 'LV80 BANK 0000 4351 9500 1', caret: 26 });
    expect(formatIbanTyping('LV80', 4)).toEqual({ value: 'LV80', caret: 4 });
    expect(formatIbanTyping('LV80B', 5)).toEqual({ value: 'LV80 B', caret: 6 });
    expect(formatIbanTyping('', 0)).toEqual({ value: '', caret: 0 });
  });

  it('drops anything but letters and digits', () => {
    expect(formatIbanTyping('de89-3704.0044/0532 0130 00', 27).value).toBe('DE89 3704 0044 0532 0130 00');
  });

  it('keeps the caret after the same character when editing in the middle', () => {
    // "LV80 BANK" with an X typed after "LV8": caret was at 4 in "LV8X0 BANK".
    const result = formatIbanTyping('LV8X0 BANK', 4);
    expect(result.value).toBe('LV8X 0BAN K');
    expect(result.value.slice(0, result.caret)).toBe('LV8X ');
    const deleted = formatIbanTyping('LV80 BNK', 6); // "A" deleted after "LV80 B"
    expect(deleted.value).toBe('LV80 BNK');
    expect(deleted.value.slice(0, deleted.caret)).toBe('LV80 B');
  });
});

describe('ibanState', () => {
  it('is valid for correct SEPA IBANs, written any way', () => {
    expect(ibanState('LV80BANK0000435195001')).toEqual({ kind: 'valid', country: 'LV' });
    expect(ibanState('de89 3704 0044 0532 0130 00')).toEqual({ kind: 'valid', country: 'DE' });
    expect(ibanState('FR14 2004 1010 0505 0001 3M02 606')).toEqual({ kind: 'valid', country: 'FR' });
  });

  it('waits while the IBAN is shorter than its country needs, and says so when it is final', () => {
    expect(ibanState('LV80 BANK')).toEqual({ kind: 'typing', country: 'LV', length: 8, expected: 21 });
    expect(ibanState('LV80 BANK', true)).toEqual({ kind: 'invalid', reason: 'length' });
    expect(ibanState('L')).toMatchObject({ kind: 'typing', country: null });
    expect(ibanState('')).toEqual({ kind: 'empty' });
  });

  it('names the problem: checksum, country, non-SEPA country, length', () => {
    expect(ibanState('LV81BANK0000435195001')).toEqual({ kind: 'invalid', reason: 'checksum' });
    expect(ibanState('XX80BANK0000435195001')).toEqual({ kind: 'invalid', reason: 'country' });
    expect(ibanState('12')).toEqual({ kind: 'invalid', reason: 'country' });
    expect(ibanState('BR1800360305000010009795493C1')).toEqual({ kind: 'invalid', reason: 'not_sepa' });
    expect(ibanState('LV80BANK00004351950012')).toEqual({ kind: 'invalid', reason: 'length' });
  });

  it('compacts for the server', () => {
    expect(compactIban('lv80 bank 0000 4351 9500 1')).toBe('LV80BANK0000435195001');
  });
});

describe('bicProblem', () => {
  it('accepts 8 and 11 characters from the IBAN country', () => {
    expect(bicProblem('HABALV22', 'LV80BANK0000435195001')).toBeNull();
    expect(bicProblem('habalv22', '')).toBeNull();
    expect(bicProblem('DEUTDEFF500', 'DE89370400440532013000')).toBeNull();
  });

  it('refuses a malformed BIC or one from another country', () => {
    expect(bicProblem('HABA', 'LV80BANK0000435195001')).toBe('format');
    expect(bicProblem('DEUTDEFF', 'LV80BANK0000435195001')).toBe('country');
  });
});

describe('formatSortCode', () => {
  it('writes six digits in pairs', () => {
    expect(formatSortCode('200000')).toBe('20-00-00');
    expect(formatSortCode('20 00')).toBe('20-00');
    expect(formatSortCode('20-00-001')).toBe('20-00-00');
  });
});

describe('bicProblem exceptions', () => {
  it('accepts the BIC countries the server accepts for an IBAN country', () => {
    expect(bicProblem('AGRIMCM1', 'FR1420041010050500013M02606')).toBeNull();
    expect(bicProblem('AGRIFRPP', 'MC5811222000010123456789030')).toBeNull();
  });
});
