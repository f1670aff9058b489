import { electronicFormatIBAN, isSEPACountry, validateBIC, validateIBAN } from 'ibantools';
import { rule } from '../validation-rules.ts';

/**
 * Bank-account checks for payout methods (DESIGN "Payouts"). Messages are `validation.{rule}` keys, like the zod
 * schemas, so the server and the web app show the same field-level errors.
 */

/**
 * IBAN countries whose banks legitimately carry a BIC of another country: Monaco banks use French BICs and the other
 * way round, Åland uses Finnish BICs, and the Crown Dependencies (Guernsey, Jersey, Isle of Man) use British BICs.
 * Everything else must match: a BIC of another country is almost always a typo that would send money elsewhere.
 */
export const BIC_COUNTRY_EXCEPTIONS: Readonly<Record<string, readonly string[]>> = {
  MC: ['FR'],
  FR: ['MC'],
  AX: ['FI'],
  GG: ['GB'],
  JE: ['GB'],
  IM: ['GB'],
};

/** An IBAN in electronic format, with a valid checksum, its country's length and BBAN format, in a SEPA country. */
export function isSepaIban(iban: string): boolean {
  return iban !== '' && validateIBAN(iban).valid && isSEPACountry(iban.slice(0, 2));
}

export type SepaAccountCheck =
  { ok: true; iban: string; bic: string; country: string } | { ok: false; errors: Partial<Record<'iban' | 'bic', string[]>> };

/**
 * An IBAN (checksum, the country's length and BBAN format, a SEPA country) and a BIC (format, same country as the
 * IBAN or an allowed exception). Spaces and lower case are accepted and normalised to the electronic format.
 */
export function checkSepaAccount(input: { iban: string; bic: string }): SepaAccountCheck {
  const errors: Partial<Record<'iban' | 'bic', string[]>> = {};
  const iban = electronicFormatIBAN(input.iban) ?? '';
  const country = iban.slice(0, 2);
  const ibanValid = isSepaIban(iban);
  if (!ibanValid) errors.iban = [rule('valid')];

  const bic = input.bic.replace(/\s+/g, '').toUpperCase();
  if (!validateBIC(bic).valid) {
    errors.bic = [rule('valid')];
  } else if (ibanValid) {
    const bicCountry = bic.slice(4, 6);
    if (bicCountry !== country && !BIC_COUNTRY_EXCEPTIONS[country]?.includes(bicCountry)) errors.bic = [rule('valid')];
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, iban, bic, country };
}

/** "LV•• •••• •••• •••• •••• 5001": the country and the last four characters, nothing that identifies the account. */
export function maskIban(iban: string): string {
  const groups = Math.max(0, Math.ceil((iban.length - 8) / 4));
  return `${iban.slice(0, 2)}•• ${'•••• '.repeat(groups)}${iban.slice(-4)}`;
}

/** "•••• 5678 (20-00-00)": the sort code names only the bank branch. */
export function maskUkAccount(accountNumber: string, sortCode: string): string {
  return `•••• ${accountNumber.slice(-4)} (${sortCode.slice(0, 2)}-${sortCode.slice(2, 4)}-${sortCode.slice(4, 6)})`;
}
