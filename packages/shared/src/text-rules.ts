/**
 * The one rule every text the API accepts must pass (DESIGN "never a 500 on input"): no control characters (line
 * breaks and tabs aside, which messages may carry) and well-formed Unicode. PostgreSQL refuses NUL bytes and lone
 * surrogates with an error, so they must be stopped before they reach a query. Kept free of zod so the server's
 * input hook and the schemas share it.
 */
// C0 controls except tab, line feed and carriage return; DEL; C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// A high surrogate not followed by a low one, or a low one not preceded by a high one (String#isWellFormed is ES2024).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isAcceptableText(value: string): boolean {
  return !CONTROL_CHARACTERS.test(value) && !LONE_SURROGATE.test(value);
}

/** Accepted text is stored in NFC, so that the same name typed on two keyboards compares equal. */
export const normalizeText = (value: string): string => value.normalize('NFC');

/** Calendar dates the API accepts anywhere a day is asked for (filters, ranges): PostgreSQL and JS both hold these. */
export const DATE_MIN = '2000-01-01';
export const DATE_MAX = '2100-12-31';
