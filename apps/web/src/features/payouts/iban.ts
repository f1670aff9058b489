import { BIC_COUNTRY_EXCEPTIONS } from '@tipcard/shared/payouts/bank-details';
import {
  electronicFormatIBAN,
  getCountrySpecifications,
  isSEPACountry,
  isValidBIC,
  validateIBAN,
  ValidationErrorsIBAN,
} from 'ibantools';

/** Letters and digits only, upper case: what the bank and the server read. */
export function compactIban(value: string): string {
  return electronicFormatIBAN(value) ?? '';
}

/**
 * Friendly formatting as the user types: groups of four, upper case, anything else dropped. The caret stays after
 * the same letter or digit it was after, so editing in the middle of the number does not jump to the end.
 */
export function formatIbanTyping(value: string, caret: number): { value: string; caret: number } {
  const before = value.slice(0, caret).replace(/[^0-9a-z]/gi, '').length;
  const compact = value
    .replace(/[^0-9a-z]/gi, '')
    .toUpperCase()
    .slice(0, 34);
  const formatted = compact.replace(/(.{4})(?=.)/g, '$1 ');
  const kept = Math.min(before, compact.length);
  // After the n-th character: n characters plus one space per full group before it (no space after the last one).
  const position = kept + Math.floor(Math.max(0, kept - 1) / 4);
  return { value: formatted, caret: kept === 0 ? 0 : position + (kept % 4 === 0 && kept < compact.length ? 1 : 0) };
}

export type IbanState =
  | { kind: 'empty' }
  /** Still typing: the country is known (or not yet) and the length is not reached. */
  | { kind: 'typing'; country: string | null; length: number; expected: number | null }
  | { kind: 'valid'; country: string }
  | { kind: 'invalid'; reason: IbanProblem };

export type IbanProblem = 'country' | 'not_sepa' | 'length' | 'format' | 'checksum';

/** The expected length of an IBAN from a country, or null when the country has none. */
function ibanLength(country: string): number | null {
  return getCountrySpecifications()[country]?.chars ?? null;
}

/**
 * What the field says about the IBAN right now, for instant feedback: while it is shorter than its country's length
 * it is "typing"; at full length it is valid or says what is wrong. `final` (on blur or submit) turns "typing" into
 * a problem.
 */
export function ibanState(value: string, final = false): IbanState {
  const iban = compactIban(value);
  if (!iban) return { kind: 'empty' };
  const country = /^[A-Z]{2}/.test(iban) ? iban.slice(0, 2) : null;
  const expected = country ? ibanLength(country) : null;
  if (iban.length >= 2 && (!country || expected === null)) return { kind: 'invalid', reason: 'country' };
  if (country && !isSEPACountry(country)) return { kind: 'invalid', reason: 'not_sepa' };
  if (expected !== null && iban.length < expected) {
    return final ? { kind: 'invalid', reason: 'length' } : { kind: 'typing', country, length: iban.length, expected };
  }
  if (expected !== null && iban.length > expected) return { kind: 'invalid', reason: 'length' };
  if (!country)
    return final
      ? { kind: 'invalid', reason: 'country' }
      : { kind: 'typing', country: null, length: iban.length, expected: null };
  const result = validateIBAN(iban);
  if (result.valid) return { kind: 'valid', country };
  if (result.errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return { kind: 'invalid', reason: 'length' };
  if (result.errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat)) return { kind: 'invalid', reason: 'format' };
  return { kind: 'invalid', reason: 'checksum' };
}

export type BicProblem = 'format' | 'country';

/** A BIC (8 or 11 characters) that matches the IBAN's country (or one of the server's exceptions), when the IBAN is known. */
export function bicProblem(bic: string, iban: string): BicProblem | null {
  const compact = bic.replace(/\s/g, '').toUpperCase();
  if (!isValidBIC(compact)) return 'format';
  const ibanCountry = compactIban(iban).slice(0, 2);
  const bicCountry = compact.slice(4, 6);
  if (
    /^[A-Z]{2}$/.test(ibanCountry) &&
    ibanCountry !== bicCountry &&
    !BIC_COUNTRY_EXCEPTIONS[ibanCountry]?.includes(bicCountry)
  ) {
    return 'country';
  }
  return null;
}

/** A UK sort code as the user types it: "20-00-00". */
export function formatSortCode(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 6);
  return digits.replace(/(\d{2})(?=\d)/g, '$1-');
}
