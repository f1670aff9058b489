import { describe, expect, it } from 'vitest';
import { normalizePhone } from './phone.ts';

describe('normalizePhone', () => {
  it('answers E.164 for mobile numbers of served countries, whatever the spacing', () => {
    expect(normalizePhone('+371 2000 0000')).toBe('+37120000000');
    expect(normalizePhone(' +33 6 12 34 56 78 ')).toBe('+33612345678');
    expect(normalizePhone('+44 7400 123456')).toBe('+447400123456');
    expect(normalizePhone('+34 612 34 56 78')).toBe('+34612345678');
  });

  it('refuses numbers outside the EEA and the UK, and things that are not numbers', () => {
    expect(normalizePhone('+1 202 555 0123')).toBeNull();
    expect(normalizePhone('+7 912 345 67 89')).toBeNull();
    expect(normalizePhone('20000000')).toBeNull();
    expect(normalizePhone('call me')).toBeNull();
    expect(normalizePhone('')).toBeNull();
  });
});
