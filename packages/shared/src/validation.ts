import { z } from 'zod';
import { DATE_MAX, DATE_MIN, isAcceptableText } from './text-rules.ts';
import { rule } from './validation-rules.ts';

export { NOT_BLANK_SERVER_TEXT, VALIDATION_RULES, rule, ruleVariables, type ValidationRule } from './validation-rules.ts';

/** Any text field: the text rule (no control characters, well-formed Unicode), then NFC and trimmed. */
function text(error: Parameters<typeof z.string>[0]) {
  return z.string(error).refine(isAcceptableText, rule('valid')).normalize('NFC').trim();
}

/** A required trimmed string: missing or blank answers 'This value should not be blank.' */
export function requiredString(maxLength: number) {
  return text({ error: (issue) => (issue.input == null ? rule('not_blank') : rule('valid')) })
    .min(1, rule('not_blank'))
    .max(maxLength, rule('max_length'));
}

/** An optional trimmed string where an empty value means "not set" (stored as null). */
export function optionalString(maxLength: number) {
  return text({ error: rule('valid') })
    .max(maxLength, rule('max_length'))
    .nullish()
    .transform((value) => (value ? value : null));
}

/** A calendar day YYYY-MM-DD between DATE_MIN and DATE_MAX (year 0 or 275760 are valid ISO but not for a database). */
export function isoDate() {
  return z.iso.date({ error: rule('valid') }).refine((value) => value >= DATE_MIN && value <= DATE_MAX, rule('valid'));
}

/**
 * An instant with its offset (ISO 8601, e.g. 2026-11-20T10:00:00Z) between the start of DATE_MIN and the end of
 * DATE_MAX in UTC: the bounds of `isoDate()`, for query filters that take a moment rather than a day.
 */
export function isoDateTime() {
  return z.iso.datetime({ offset: true, error: rule('valid') }).refine((value) => {
    const instant = Date.parse(value);
    return instant >= Date.parse(`${DATE_MIN}T00:00:00Z`) && instant <= Date.parse(`${DATE_MAX}T23:59:59.999Z`);
  }, rule('valid'));
}

/**
 * A whole number in a query string, where every value is text: decimal digits only (no sign, space, exponent, hex or
 * empty value, all of which `Number()` would take), between `min` and `max`.
 */
export function queryInteger(min: number, max: number) {
  return z
    .string({ error: rule('number') })
    .regex(/^[0-9]{1,15}$/, rule('number'))
    .transform(Number)
    .pipe(z.number().int().min(min, rule('number')).max(max, rule('number')));
}
