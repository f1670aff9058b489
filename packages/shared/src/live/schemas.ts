import { z } from 'zod';
import { noticeBodySchema } from '../notices/schemas.ts';

/**
 * What a credit came from, as the notice names it: the history row's kind. The label is the payer side's public name
 * (the card's or team's title, the donor's given name, the invoice's description), never a phone or an e-mail.
 */
export const liveCreditKinds = [
  'tip',
  'team_tip',
  'venue_tip',
  'invoice',
  'donation',
  'monthly_donation',
  'referral',
  'closing_gift',
  'team_adjustment',
] as const;

export const livePayoutStatuses = ['requested', 'in_flight', 'paid', 'returned'] as const;

/** One live event as it is stored and sent (decision 0041); the app renders its text in the reader's language. */
export const liveEventBodySchema = z.discriminatedUnion('type', [
  /** A payment credited to the user: to hold (tips, team shares, donations, invoices) or to main (referral rewards, gifts). */
  z.object({
    type: z.literal('credit'),
    kind: z.enum(liveCreditKinds),
    amount_cents: z.number().int(),
    currency: z.literal('EUR'),
    label: z.string().nullable(),
    payment_id: z.uuid().nullable(),
  }),
  /** A share released from hold to main: the balances change, the history row becomes PAID. */
  z.object({
    type: z.literal('released'),
    amount_cents: z.number().int(),
    currency: z.literal('EUR'),
    payment_id: z.uuid(),
  }),
  /** A withdrawal's new state. */
  z.object({
    type: z.literal('payout'),
    status: z.enum(livePayoutStatuses),
    amount_cents: z.number().int(),
    currency: z.literal('EUR'),
    payout_id: z.uuid(),
  }),
  /** A notice stored for the user (issue 29), shown at once and kept in the app until read. */
  z.object({
    type: z.literal('notice'),
    notice_id: z.uuid(),
    notice: noticeBodySchema,
  }),
]);
export type LiveEventBody = z.infer<typeof liveEventBodySchema>;

/** A live event on the stream: its body with its number, the stream's `id:` (resume with `Last-Event-ID`). */
export const liveEventSchema = z.intersection(z.object({ seq: z.number().int(), created_at: z.string() }), liveEventBodySchema);
export type LiveEvent = z.infer<typeof liveEventSchema>;

/** The SSE event name of every live event (`event: live`); comments (`: ping`) are heartbeats. */
export const LIVE_EVENT_NAME = 'live';
