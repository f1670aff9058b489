import { z } from 'zod';
import { requiredString, rule } from '../validation.ts';
import { returnReasonCodes } from './return-reasons.ts';

/** Payout rules (spec 5 and 9, DESIGN "Payouts"), in integer cents. */
export const PAYOUT_MIN_CENTS = 300;
export const PAYOUT_FEE_CENTS = 200;

/**
 * A closing payout (account deletion, docs/decisions/0025-closing-payout.md) takes the whole main balance: no minimum,
 * and the fee is only what lies above the minimum, at most the usual fee. So up to 3 EUR goes out whole, 3 to 5 EUR
 * leaves the user 3 EUR, and from 5 EUR on it is the ordinary "withdraw all".
 */
export function closingPayoutSplit(balanceCents: number): { amountCents: number; feeCents: number } {
  const feeCents = Math.min(PAYOUT_FEE_CENTS, Math.max(0, balanceCents - PAYOUT_MIN_CENTS));
  return { amountCents: balanceCents - feeCents, feeCents };
}

/**
 * A payout method: SEPA (IBAN + BIC) or UK (account number + sort code). The server checks IBANs and BICs with
 * ibantools (checksum, country length, BBAN format, SEPA country, BIC consistent with the IBAN's country); the
 * shapes here are what both sides validate before any request.
 */
/**
 * `confirm_mismatch`: the user saw a payee-name answer other than a match and saves knowingly (decision 0043);
 * without it such an account is refused with `payee_check_unconfirmed`. The check call ignores it.
 */
const confirmMismatch = z.boolean().optional();

export const payoutMethodBody = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('sepa'),
    iban: requiredString(42),
    bic: requiredString(11),
    holder_last_name: requiredString(70),
    address: requiredString(140),
    confirm_mismatch: confirmMismatch,
  }),
  z.object({
    kind: z.literal('uk'),
    account_number: requiredString(8).regex(/^\d{8}$/, rule('valid')),
    sort_code: requiredString(8)
      .transform((value) => value.replace(/[\s-]/g, ''))
      .pipe(z.string().regex(/^\d{6}$/, rule('valid'))),
    holder_name: requiredString(70),
    address: requiredString(140),
    confirm_mismatch: confirmMismatch,
  }),
]);
export type PayoutMethodBody = z.input<typeof payoutMethodBody>;

/**
 * The payee-name check's answers, as the EPC Verification of Payee scheme and UK Confirmation of Payee give them:
 * the name matches, nearly matches (the bank then gives the name it holds), does not match, or could not be checked.
 */
export const PAYEE_CHECK_RESULTS = ['match', 'close_match', 'no_match', 'not_possible'] as const;
export type PayeeCheckResult = (typeof PAYEE_CHECK_RESULTS)[number];

/** POST /api/clients/{clientId}/payout-methods/check, and the answer kept with a saved method. */
export const payeeCheckSchema = z.object({
  result: z.enum(PAYEE_CHECK_RESULTS),
  /** The name the account's bank holds: given only with a close match. */
  bank_name: z.string().nullable(),
  checked_at: z.string(),
});
export type PayeeCheck = z.infer<typeof payeeCheckSchema>;

/** A stored method as the owner sees it: the account masked to its last four characters. */
export const payoutMethodSchema = z.object({
  id: z.uuid(),
  kind: z.enum(['sepa', 'uk']),
  holder: z.string(),
  /** e.g. "LV•• •••• •••• •••• 1234" or "•••• 5678 (20-00-00)". */
  masked_account: z.string(),
  bic: z.string().nullable(),
  /** Its bank takes SEPA Instant: a withdrawal to it may be instant (docs/decisions/0044). */
  instant: z.boolean(),
  is_default: z.boolean(),
  created_at: z.string(),
  /** The payee-name check made when the method was added; null for methods added before checks existed. */
  payee_check: payeeCheckSchema.nullable(),
});
export type PayoutMethod = z.infer<typeof payoutMethodSchema>;

/** POST /api/clients/{clientId}/payouts with an Idempotency-Key: 'Wrong amount', 'Minimum withdrawal amount 3 EUR', 'Insufficient balance'. */
export const createPayoutBody = z.object({
  amount_cents: z
    .number({ error: rule('wrong_amount') })
    .int(rule('wrong_amount'))
    .positive(rule('wrong_amount')),
  method_id: z.uuid({ error: rule('valid') }),
  /** SEPA Instant, for an account whose bank takes it ('instant_unreachable' otherwise); the same fee. */
  instant: z.boolean({ error: rule('valid') }).default(false),
});
export type CreatePayoutBody = z.input<typeof createPayoutBody>;

export const confirmPayoutBody = z.object({ code: requiredString(16) });

/** POST /api/clients/{clientId}/closing-payouts with an Idempotency-Key: the whole balance, confirmed by the deletion statement. */
export const createClosingPayoutBody = z.object({ method_id: z.uuid({ error: rule('valid') }) });
export type CreateClosingPayoutBody = z.input<typeof createClosingPayoutBody>;

export const PAYOUT_STATUSES = ['awaiting_confirmation', 'in_flight', 'paid', 'returned', 'expired'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const payoutSchema = z.object({
  id: z.uuid(),
  status: z.enum(PAYOUT_STATUSES),
  amount_cents: z.number().int(),
  fee_cents: z.number().int(),
  currency: z.literal('EUR'),
  /** Sent by SEPA Instant: paid within seconds of the confirmation, or returned with the bank's reason. */
  instant: z.boolean(),
  method: payoutMethodSchema.pick({ kind: true, holder: true, masked_account: true }),
  /** The next business day (weekends and TARGET2 holidays skipped, 14:00 Europe/Riga cut-off), YYYY-MM-DD. */
  expected_arrival: z.string(),
  created_at: z.string(),
  confirmed_at: z.string().nullable(),
  paid_at: z.string().nullable(),
  /** A returned payout: the bank's ISO 20022 reason (`payouts:return_reasons.<code>`), null when it gave none we know. */
  return_reason: z.enum(returnReasonCodes).nullable(),
  /** While awaiting confirmation: when the SMS code dies, and when a new one may be requested. */
  code_expires_at: z.string().nullable(),
  resend_after_seconds: z.number().int().nullable(),
});
export type Payout = z.infer<typeof payoutSchema>;

/** GET /api/clients/{clientId}/payouts/terms: what the request form needs before the user confirms. */
export const payoutTermsSchema = z.object({
  min_amount_cents: z.number().int(),
  fee_cents: z.number().int(),
  main_balance_cents: z.number().int(),
  /** "Withdraw all": the largest amount the main balance covers with the fee (0 when below the minimum). */
  max_amount_cents: z.number().int(),
  /** When a payout confirmed now arrives, YYYY-MM-DD. */
  expected_arrival: z.string(),
  currency: z.literal('EUR'),
});
export type PayoutTerms = z.infer<typeof payoutTermsSchema>;
