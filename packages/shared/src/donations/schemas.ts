import { z } from 'zod';
import { LOCALES } from '../constants.ts';
import { TIP_MAX_CENTS, TIP_MIN_CENTS } from '../payments/fees.ts';
import { requiredString, rule } from '../validation.ts';

export const DONOR_NAME_MAX_LENGTH = 120;
export const DONOR_CODE_MAX_LENGTH = 32;

/**
 * POST /api/public/cards/{cardId}/donations, with an Idempotency-Key header: the donor form of spec 3 (name or
 * company, e-mail, personal code or company number, amount, optional cost cover, terms). Amounts follow the tip's
 * bounds. `monthly` starts a plan charged each month through the card this checkout saves; `locale` is the
 * language of the plan's e-mails.
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
  monthly: z.boolean().default(false),
  locale: z.enum(LOCALES).default('en'),
  terms_accepted: z.literal(true, { error: rule('terms_accepted') }),
});
export type CreateDonationBody = z.input<typeof createDonationBody>;

export const DONATION_STATUSES = ['pending', 'succeeded', 'failed', 'refunded'] as const;

/** A donation as its recipient sees it (GET /api/clients/{id}/donations): paid ones, and what was taken back. */
export const donationSchema = z.object({
  id: z.uuid(),
  kind: z.enum(['one_off', 'monthly']),
  donor_name: z.string(),
  donor_email: z.string(),
  donor_code: z.string(),
  amount_cents: z.number().int(),
  currency: z.literal('EUR'),
  status: z.enum(DONATION_STATUSES),
  /** A monthly gift's plan as it stands now: still running, paused, or ended (canceled or lapsed); null for one-off. */
  plan: z.enum(['active', 'paused', 'ended']).nullable(),
  created_at: z.string(),
});
export type Donation = z.infer<typeof donationSchema>;

export const DONATION_ACTION_KINDS = ['cancel', 'pause', 'change_amount', 'receipt', 'statement'] as const;
export const PAUSE_MONTHS_MAX = 3;

/**
 * GET /api/public/actions/{actionId}: what a signed link in a monthly donor's e-mail will do, and whether it still
 * can (`ready`), or was used or has expired. Forged links answer 404.
 */
export const publicActionSchema = z.object({
  kind: z.enum(DONATION_ACTION_KINDS),
  state: z.enum(['ready', 'used', 'expired']),
  expires_at: z.string(),
  plan: z.object({
    recipient_name: z.string(),
    donor_name: z.string(),
    amount_cents: z.number().int(),
    cover_fee: z.boolean(),
    status: z.enum(['incomplete', 'active', 'paused', 'canceled', 'lapsed']),
    next_charge_at: z.string().nullable(),
  }),
  /** A statement's year. */
  year: z.number().int().nullable(),
  /** The donor's language when they gave: the page opens in it. */
  locale: z.enum(LOCALES),
});
export type PublicAction = z.infer<typeof publicActionSchema>;

/** POST /api/public/actions/{actionId}: the confirmation; a pause names its months, a change its new amount. */
export const actionBody = z.object({
  months: z
    .number({ error: rule('number') })
    .int(rule('number'))
    .min(1, rule('valid'))
    .max(PAUSE_MONTHS_MAX, rule('valid'))
    .optional(),
  amount_cents: z
    .number({ error: rule('number') })
    .int(rule('number'))
    .min(TIP_MIN_CENTS, rule('amount_range'))
    .max(TIP_MAX_CENTS, rule('amount_range'))
    .optional(),
});
export type ActionBody = z.input<typeof actionBody>;
