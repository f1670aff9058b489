import { z } from 'zod';
import { TIP_MAX_CENTS, TIP_MIN_CENTS } from './payments/fees.ts';

/**
 * Validation messages are translation keys `validation.{rule}` (spec 5). The server turns them into the English
 * text for `validation_errors`; the web app translates them in the user's language.
 */
export const VALIDATION_RULES = [
  'not_blank',
  'required',
  'phone',
  'number',
  'valid',
  'email',
  'max_length',
  'age_confirmed',
  'terms_accepted',
  'url',
  'color',
  'country',
  'choice',
  'amount_range',
] as const;
export type ValidationRule = (typeof VALIDATION_RULES)[number];

export const rule = (name: ValidationRule) => `validation.${name}` as const;

/** Placeholder values of rules whose text names fixed bounds, e.g. 'Enter an amount from 1 to 500'. */
export const RULE_VARIABLES: Partial<Record<ValidationRule, Record<string, string>>> = {
  amount_range: { min: String(TIP_MIN_CENTS / 100), max: String(TIP_MAX_CENTS / 100) },
};

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
