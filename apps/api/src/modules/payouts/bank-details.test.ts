import { describe, expect, it } from 'vitest';
import { checkSepaAccount, maskIban, maskUkAccount } from '@tipcard/shared/payouts/bank-details';

/** Published example IBANs (valid checksums) with a real BIC of the same country. */
const VALID: [string, string][] = [
  ['LV80BANK0000435195001', 'HABALV22'],
  ['LT12 1000 0111 0100 1000', 'CBVILT2X'],
  ['EE38 2200 2210 2014 5685', 'HABAEE2X'],
  ['DE89 3704 0044 0532 0130 00', 'COBADEFFXXX'],
  ['FR14 2004 1010 0505 0001 3M02 606', 'PSSTFRPPXXX'],
  ['ES91 2100 0418 4502 0005 1332', 'CAIXESBBXXX'],
  ['IE29 AIBK 9311 5212 3456 78', 'AIBKIE2D'],
  ['lv80bank0000435195001', 'habalv22'],
];

describe('SEPA account checks', () => {
  it.each(VALID)('accepts %s with %s, normalised', (iban, bic) => {
    const checked = checkSepaAccount({ iban, bic });
    expect(checked).toMatchObject({ ok: true, iban: iban.replace(/\s/g, '').toUpperCase(), bic: bic.toUpperCase() });
  });

  it.each([
    ['LV80BANK0000435195002', 'checksum'],
    ['LT121000011101001001', 'checksum'],
    ['EE38220022102014568', 'length'],
    ['DE89370400440532013001', 'checksum'],
    ['FR1420041010050500013M0260', 'length'],
    ['ES9121000418450200051333', 'checksum'],
    ['IE29AIBK9311521234567X', 'BBAN format'],
    ['TR330006100519786457841326', 'not SEPA'],
    ['BR1800360305000010009795493C1', 'not SEPA'],
    ['', 'empty'],
    ['hello', 'garbage'],
  ])('refuses the IBAN %s (%s) on the iban field', (iban) => {
    const checked = checkSepaAccount({ iban, bic: 'HABALV22' });
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.errors.iban).toEqual(['validation.valid']);
  });

  it.each([
    ['LV80BANK0000435195001', 'HABALV2', 'too short'],
    ['LV80BANK0000435195001', 'HABA LV22 XX', 'wrong length'],
    ['LV80BANK0000435195001', '1ABALV22', 'digit in bank code'],
    ['LV80BANK0000435195001', 'COBADEFF', 'German BIC for a Latvian IBAN'],
    ['DE89370400440532013000', 'HABALV22', 'Latvian BIC for a German IBAN'],
    ['IE29AIBK93115212345678', 'AIBKGB2L', 'British BIC for an Irish IBAN'],
    ['TR330006100519786457841326', 'TGBATRIS', 'non-SEPA country'],
  ])('refuses %s with BIC %s (%s)', (iban, bic) => {
    const checked = checkSepaAccount({ iban, bic });
    expect(checked.ok).toBe(false);
  });

  it('allows the documented cross-country BICs (a Monaco IBAN with a French BIC)', () => {
    expect(checkSepaAccount({ iban: 'MC5811222000010123456789030', bic: 'BNPAFRPP' }).ok).toBe(true);
  });

  it('masks to the country and the last four', () => {
    expect(maskIban('LV80BANK0000435195001')).toBe('LV•• •••• •••• •••• •••• 5001');
    expect(maskUkAccount('31926819', '601613')).toBe('•••• 6819 (60-16-13)');
  });
});
