import { z } from 'zod';
import { isoDate as calendarDay, queryInteger, requiredString, rule } from '../validation.ts';
import { transactionDetailSchema } from './detail.ts';

export const TRANSACTION_TYPES = ['PAYIN', 'PAYOUT', 'REFERRAL_PAYIN'] as const;
export const TRANSACTION_STATUSES = ['HOLD', 'PAID', 'REFUNDED'] as const;

/**
 * One line of the staff member's history (spec 3 "Transaction"). For a PAYIN, `amount_cents` is what the staff
 * member receives and `fee_cents` the service fee (paid by the guest when they covered it).
 */
export const transactionSchema = z.object({
  id: z.uuid(),
  type: z.enum(TRANSACTION_TYPES),
  status: z.enum(TRANSACTION_STATUSES),
  amount_cents: z.number().int(),
  fee_cents: z.number().int(),
  currency: z.literal('EUR'),
  created_at: z.string(),
  settled_at: z.string().nullable(),
  /** The row's line in the language of the request (Accept-Language); older rows: as stored, in English. */
  description: z.string(),
  /** What happened, for rendering in the reader's language; absent on rows older than details. */
  detail: transactionDetailSchema.optional(),
  message: z.string().nullable(),
  rating: z.number().int().nullable(),
});
export type Transaction = z.infer<typeof transactionSchema>;

const isoDate = calendarDay();

/** Filters of the history and its CSV export; dates are inclusive calendar days in Europe/Riga. */
export const transactionsFilter = z.object({
  type: z.enum(TRANSACTION_TYPES, { error: rule('choice') }).optional(),
  status: z.enum(TRANSACTION_STATUSES, { error: rule('choice') }).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});

/** GET /api/clients/{id}/transactions: the filters plus a keyset cursor. */
export const transactionsQuery = transactionsFilter.extend({
  /** Opaque cursor from the previous page's `next_cursor`. */
  cursor: z.string().max(200).optional(),
  limit: queryInteger(1, 100).default(20),
});
export type TransactionsQuery = z.input<typeof transactionsQuery>;

export const transactionsPageSchema = z.object({
  items: z.array(transactionSchema),
  next_cursor: z.string().nullable(),
});
export type TransactionsPage = z.infer<typeof transactionsPageSchema>;

/** GET /api/clients/{id}/overview: the figures of the overview page. */
export const overviewSchema = z.object({
  received_today_cents: z.number().int(),
  received_week_cents: z.number().int(),
  received_month_cents: z.number().int(),
  tip_count: z.number().int(),
  average_rating: z.number().nullable(),
  latest: z.array(transactionSchema),
  /** Active monthly donation plans to the owner's cards, and what they give each month (before fees). */
  monthly_donations: z.object({ donors: z.number().int(), total_cents: z.number().int() }),
  currency: z.literal('EUR'),
});
export type Overview = z.infer<typeof overviewSchema>;

/** A recipient's answer to a guest's message is a short note (decision 0047). */
export const TIP_ANSWER_MAX_LENGTH = 500;

/** POST /api/clients/{id}/transactions/{transactionId}/answer: the recipient's one answer to the guest's message. */
export const tipAnswerBody = z.object({ text: requiredString(TIP_ANSWER_MAX_LENGTH) });
export type TipAnswerBody = z.input<typeof tipAnswerBody>;

/**
 * Whether a received tip's message can be answered, and the answer once given. `can_answer` is false without a
 * message, without the guest's e-mail (never shown to the recipient), or once answered.
 */
export const tipAnswerStateSchema = z.object({
  can_answer: z.boolean(),
  answer: z.object({ text: z.string(), created_at: z.string() }).nullable(),
});
export type TipAnswerState = z.infer<typeof tipAnswerStateSchema>;
