import { z } from 'zod';
import { TIP_MAX_CENTS, TIP_MIN_CENTS } from '../payments/fees.ts';
import { requiredString, rule } from '../validation.ts';

export const DONOR_NAME_MAX_LENGTH = 120;
export const DONOR_CODE_MAX_LENGTH = 32;

/**
 * POST /api/public/cards/{cardId}/donations, with an Idempotency-Key header: the donor form of spec 3 (name or
 * company, e-mail, personal code or company number, amount, optional cost cover, terms). Amounts follow the tip's
 * bounds. Only one-off donations are taken so far.
 */
export const createDonationBody = z.object({
  donor_name: requiredString(DONOR_NAME_MAX_LENGTH),
  email: requiredString(254).pipe(z.email({ error: rule('email') })),
  donor_code: requiredString(DONOR_CODE_MAX_LENGTH).pipe(z.string().regex(/^[\p{L}\p{N}][\p{L}\p{N} ./-]*$/u, rule('valid'))),
  amount_cents: z
    .number({ error: rule('number') })
    .int(rule('number'))
    .min(TIP_MIN_CENTS, rule('amount_range'))
    .max(TIP_MAX_CENTS, rule('amount_range')),
  cover_fee: z.boolean().default(false),
  terms_accepted: z.literal(true, { error: rule('terms_accepted') }),
});
export type CreateDonationBody = z.input<typeof createDonationBody>;

export const DONATION_STATUSES = ['pending', 'succeeded', 'failed', 'refunded'] as const;

/** A donation as its recipient sees it (GET /api/clients/{id}/donations): paid ones, and what was taken back. */
export const donationSchema = z.object({
  id: z.uuid(),
  kind: z.enum(['one_off']),
  donor_name: z.string(),
  donor_email: z.string(),
  donor_code: z.string(),
  amount_cents: z.number().int(),
  currency: z.literal('EUR'),
  status: z.enum(DONATION_STATUSES),
  created_at: z.string(),
});
export type Donation = z.infer<typeof donationSchema>;
