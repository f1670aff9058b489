import { UUID_PATTERN } from './uuid.ts';

/**
 * What never leaves the server in a log line or an error report, nor the browser in an error report (DESIGN "logs"):
 * tokens, codes, bank details, phone numbers and identity details. The server's log redacts these fields (pino's
 * paths, lib/log-safety.ts); reports to Sentry from either side go through `redactFields` and `redactText`.
 */
export const SECRET_FIELDS = [
  'password',
  'code',
  'refreshToken',
  'refresh_token',
  'jwt',
  'token',
  'authorization',
  'iban',
  'bic',
  'account_number',
  'sort_code',
  'holder_last_name',
  'holder_name',
  'phone',
  'username',
  'recipient',
  'email',
  'first_name',
  'last_name',
  'birthday',
  'personal_code',
  'address',
  'representative_name',
  'representative_birthday',
];

const SECRET_FIELD_SET = new Set(SECRET_FIELDS.map((field) => field.toLowerCase()));

/**
 * For data that leaves by another way than the log (error reports): every field named above is censored at any
 * depth, and free text loses what looks like an IBAN, a phone number or a code, since an error's message can quote a
 * value (a driver's "invalid input syntax for type integer: \"+37120000000\"").
 */
export function redactFields<T>(value: T, depth = 0): T {
  if (depth > 8 || value === null || typeof value !== 'object')
    return typeof value === 'string' ? (redactText(value) as T) : value;
  if (Array.isArray(value)) return value.map((item) => redactFields(item, depth + 1)) as T;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      SECRET_FIELD_SET.has(key.toLowerCase()) ? '[redacted]' : redactFields(item, depth + 1),
    ]),
  ) as T;
}

const UUIDS = new RegExp(`(${UUID_PATTERN})`, 'i');

/**
 * IBANs (two capitals, two digits, then groups of four, spaced or not), and any run of six or more digits (phones, codes, personal codes);
 * UUIDs (our ids, which name no one) are kept whole.
 */
export function redactText(text: string): string {
  return text
    .split(UUIDS)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part
            .replace(/\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g, '[redacted]')
            .replace(/\+?\d(?:[\s.-]?\d){5,}/g, '[redacted]'),
    )
    .join('');
}
