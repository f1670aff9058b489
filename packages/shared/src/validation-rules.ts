import type { Locale } from './constants.ts';
import { INVOICE_MAX_CENTS, INVOICE_MIN_CENTS } from './invoices/limits.ts';
import { formatMoney } from './money/format.ts';
import { TIP_MAX_CENTS, TIP_MIN_CENTS } from './payments/fees.ts';

/**
 * Kept free of zod so that light clients (the guest payment page) can read the rules and their bounds without it.
 *
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
  'preset_order',
  'invoice_amount_range',
  'wrong_amount',
  'min_age',
  'iban',
] as const;
export type ValidationRule = (typeof VALIDATION_RULES)[number];

export const rule = (name: ValidationRule) => `validation.${name}` as const;

/**
 * The wire's text for an empty required field: the spec's server message (spec 8 maps it to `not_blank`), kept for
 * the clients that read it. What a person reads is `validation.not_blank`, the spec's user wording, in their language.
 */
export const NOT_BLANK_SERVER_TEXT = 'This value should not be blank.';

/** The bounds, in cents, of the rules whose text names them: 'Enter an amount from {min} to {max}'. */
const RULE_BOUNDS: Partial<Record<ValidationRule, { min: number; max: number }>> = {
  amount_range: { min: TIP_MIN_CENTS, max: TIP_MAX_CENTS },
  invoice_amount_range: { min: INVOICE_MIN_CENTS, max: INVOICE_MAX_CENTS },
};

/** A rule's placeholder values: its bounds as money in the reader's language ("from €1.00 to €500.00", "de 1,00 € à 500,00 €"). */
export function ruleVariables(rule: ValidationRule, locale: Locale): Record<string, string> | undefined {
  const bounds = RULE_BOUNDS[rule];
  return bounds && { min: formatMoney(bounds.min, locale), max: formatMoney(bounds.max, locale) };
}
