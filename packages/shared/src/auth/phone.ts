import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';

/** The countries Tipcard serves: the EEA and the United Kingdom. */
export const SERVED_COUNTRIES: readonly CountryCode[] = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'IS',
  'LI',
  'NO',
  'GB',
];

/** The phone in E.164 when it is a valid number of a served country, otherwise null. */
export function normalizePhone(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), { extract: false });
  if (!parsed?.isValid() || !parsed.country || !SERVED_COUNTRIES.includes(parsed.country)) return null;
  return parsed.number;
}
