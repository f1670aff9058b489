import { z } from 'zod';
import { rule } from './validation-rules.ts';

export { RULE_VARIABLES, VALIDATION_RULES, rule, type ValidationRule } from './validation-rules.ts';

/** A required trimmed string: missing or blank answers 'This value should not be blank.' */
export function requiredString(maxLength: number) {
  return z
    .string({ error: (issue) => (issue.input == null ? rule('not_blank') : rule('valid')) })
    .trim()
    .min(1, rule('not_blank'))
    .max(maxLength, rule('max_length'));
}

/** An optional trimmed string where an empty value means "not set" (stored as null). */
export function optionalString(maxLength: number) {
  return z
    .string({ error: rule('valid') })
    .trim()
    .max(maxLength, rule('max_length'))
    .nullish()
    .transform((value) => (value ? value : null));
}
