import { z } from 'zod';
import { ACTIVITY_TYPES } from '../constants.ts';
import { publicTeamSchema } from '../teams/schemas.ts';
import { rule } from '../validation.ts';
import { MESSAGE_MAX_LENGTH, TIP_MAX_CENTS, TIP_MIN_CENTS } from './fees.ts';

/** What a guest sees of a card (GET /api/public/cards/{id}, and inlined into /payment/{id}). */
export const publicCardSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  public_name: z.string(),
  welcome_phrase: z.string().nullable(),
  public_text: z.string().nullable(),
  image_url: z.string().nullable(),
  activity_type: z.enum(ACTIVITY_TYPES),
  rating: z.number().nullable(),
  rating_count: z.number().int(),
  /** The fee in percent, so the page can show the breakdown before paying. */
  fee_percent: z.number(),
  min_amount_cents: z.number().int(),
  max_amount_cents: z.number().int(),
  preset_amounts_cents: z.array(z.number().int()),
  currency: z.literal('EUR'),
  /** A team card's team: its tips are split among these members. */
  team: publicTeamSchema.optional(),
  /**
   * A venue card's venue (decision 0058), in the team's shape: its name and every member of its teams; the tip is
   * divided between the teams by their percentages.
   */
  venue: publicTeamSchema.optional(),
});
export type PublicCard = z.infer<typeof publicCardSchema>;

/** POST /api/public/cards/{cardId}/payments, with an Idempotency-Key header. */
export const createPaymentBody = z.object({
  amount_cents: z
    .number({ error: rule('number') })
    .int(rule('number'))
    .min(TIP_MIN_CENTS, rule('amount_range'))
    .max(TIP_MAX_CENTS, rule('amount_range')),
  cover_fee: z.boolean().default(false),
  rating: z.number().int().min(1, rule('valid')).max(5, rule('valid')).nullish(),
  message: z.string().trim().max(MESSAGE_MAX_LENGTH, rule('max_length')).nullish(),
  terms_accepted: z.literal(true, { error: rule('terms_accepted') }),
});
export type CreatePaymentBody = z.input<typeof createPaymentBody>;

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'canceled', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A guest's payment as the guest pages see it (no personal data of anyone). */
export const publicPaymentSchema = z.object({
  id: z.uuid(),
  card_id: z.uuid(),
  status: z.enum(PAYMENT_STATUSES),
  amount_cents: z.number().int(),
  fee_cents: z.number().int(),
  total_cents: z.number().int(),
  cover_fee: z.boolean(),
  currency: z.literal('EUR'),
  /** Where to send the guest to pay (the provider's hosted checkout). */
  checkout_url: z.string(),
  created_at: z.string(),
  /** The payer's receipt (docs/decisions/0042) once the books hold the payment; null before, or for a card order. */
  receipt_url: z.string().nullable(),
});
export type PublicPayment = z.infer<typeof publicPaymentSchema>;
