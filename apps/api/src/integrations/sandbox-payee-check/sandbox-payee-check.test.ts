import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PayeeCheckRefused } from '../../modules/payouts/payee-check.ts';
import { compareNames, createSandboxPayeeCheck, normalizeName, SANDBOX_PAYEE_ACCOUNTS } from './sandbox-payee-check.ts';

const check = createSandboxPayeeCheck();
const [dupont, garcia, unreachable] = SANDBOX_PAYEE_ACCOUNTS.sepa;
const [smith, ukUnreachable] = SANDBOX_PAYEE_ACCOUNTS.uk;

describe('sandbox Verification of Payee (SEPA)', () => {
  it('answers each of the four answers from its test accounts', async () => {
    expect(await check.checkIban({ iban: dupont.iban, name: 'Dupont' })).toEqual({ result: 'match', bankName: null });
    expect(await check.checkIban({ iban: dupont.iban, name: 'Dupond' })).toEqual({ result: 'close_match', bankName: 'Dupont' });
    expect(await check.checkIban({ iban: dupont.iban, name: 'Martin' })).toEqual({ result: 'no_match', bankName: null });
    expect(await check.checkIban({ iban: unreachable.iban, name: 'Dupont' })).toEqual({
      result: 'not_possible',
      bankName: null,
    });
  });

  it('ignores case, accents and punctuation, and calls words in another order a close match', async () => {
    expect(await check.checkIban({ iban: garcia.iban, name: 'garcia-lopez' })).toEqual({ result: 'match', bankName: null });
    expect(await check.checkIban({ iban: garcia.iban, name: 'López García' })).toEqual({
      result: 'close_match',
      bankName: 'García López',
    });
  });

  it('answers a match for any other well-formed account, so ordinary test data needs no confirmation', async () => {
    expect(await check.checkIban({ iban: 'DE89370400440532013000', name: 'Müller' })).toEqual({
      result: 'match',
      bankName: null,
    });
  });

  it('refuses what the scheme refuses: a malformed IBAN, a non-SEPA one, an empty or overlong name', async () => {
    await expect(check.checkIban({ iban: 'FR7630006000011234567890188', name: 'Dupont' })).rejects.toEqual(
      new PayeeCheckRefused('iban'),
    );
    await expect(check.checkIban({ iban: 'US64SVBKUS6S3300958879', name: 'Dupont' })).rejects.toBeInstanceOf(PayeeCheckRefused);
    await expect(check.checkIban({ iban: dupont.iban, name: '  ' })).rejects.toEqual(new PayeeCheckRefused('name'));
    await expect(check.checkIban({ iban: dupont.iban, name: '1234' })).rejects.toEqual(new PayeeCheckRefused('name'));
    await expect(check.checkIban({ iban: dupont.iban, name: 'a'.repeat(141) })).rejects.toEqual(new PayeeCheckRefused('name'));
  });
});

describe('sandbox Confirmation of Payee (UK)', () => {
  const account = { sortCode: smith.sortCode, accountNumber: smith.accountNumber };
  it('answers each of the four answers from its test accounts', async () => {
    expect(await check.checkUkAccount({ ...account, name: 'JANE SMITH' })).toEqual({ result: 'match', bankName: null });
    expect(await check.checkUkAccount({ ...account, name: 'Jane Smyth' })).toEqual({
      result: 'close_match',
      bankName: 'Jane Smith',
    });
    expect(await check.checkUkAccount({ ...account, name: 'John Brown' })).toEqual({ result: 'no_match', bankName: null });
    expect(
      await check.checkUkAccount({ sortCode: ukUnreachable.sortCode, accountNumber: ukUnreachable.accountNumber, name: 'X' }),
    ).toEqual({ result: 'not_possible', bankName: null });
  });

  it('refuses a malformed sort code or account number', async () => {
    await expect(check.checkUkAccount({ ...account, sortCode: '40478', name: 'Jane Smith' })).rejects.toEqual(
      new PayeeCheckRefused('sort_code'),
    );
    await expect(check.checkUkAccount({ ...account, accountNumber: '7087249a', name: 'Jane Smith' })).rejects.toEqual(
      new PayeeCheckRefused('account_number'),
    );
  });
});

describe('the name comparison', () => {
  const name = fc.stringMatching(/^[A-Za-zÀ-ÿ]{3,12}( [A-Za-zÀ-ÿ]{3,12})?$/);

  it('answers a match for the held name in another case, without its accents, with a hyphen or spaces around', () => {
    fc.assert(
      fc.property(name, fc.boolean(), fc.boolean(), (held, upper, plain) => {
        // ß upper-cases to SS, which is a spelling of its own.
        fc.pre(!held.includes('ß'));
        const cased = upper ? held.toUpperCase() : held.toLowerCase();
        const given = `  ${(plain ? cased.normalize('NFD').replace(/\p{M}/gu, '') : cased).replace(' ', '-')} `;
        expect(compareNames(given, held)).toEqual({ result: 'match', bankName: null });
      }),
    );
  });

  it('answers a close match with the held name for one letter changed, never a match or the given name', () => {
    fc.assert(
      fc.property(name, fc.nat(), fc.constantFrom('q', 'x', 'z'), (held, at, letter) => {
        const index = at % held.length;
        const given = held.slice(0, index) + letter + held.slice(index + 1);
        fc.pre(normalizeName(given) !== normalizeName(held));
        expect(compareNames(given, held)).toEqual({ result: 'close_match', bankName: held });
      }),
    );
  });

  it('never names the held account holder except in a close match', () => {
    fc.assert(
      fc.property(name, fc.option(name, { nil: null }), (given, held) => {
        const answer = compareNames(given, held);
        expect(answer.bankName === null).toBe(answer.result !== 'close_match');
      }),
    );
  });
});
