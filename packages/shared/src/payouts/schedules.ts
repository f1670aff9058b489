import { z } from 'zod';
import { requiredString, rule } from '../validation.ts';
import { PAYOUT_FEE_CENTS, PAYOUT_MIN_CENTS } from './schemas.ts';

/**
 * Automatic payouts (issue 31, docs/decisions/0044): weekly on an ISO weekday (1 Monday … 7 Sunday), monthly on a
 * day (29–31 fall on the month's last day in shorter months), or whenever the available balance reaches an amount.
 * A threshold below the minimum plus the fee could never pay, so it is refused.
 */
export const SCHEDULE_THRESHOLD_MIN_CENTS = PAYOUT_MIN_CENTS + PAYOUT_FEE_CENTS;
export const SCHEDULE_THRESHOLD_MAX_CENTS = 1_000_000;

const methodId = z.uuid({ error: rule('valid') });
export const payoutScheduleBody = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('weekly'),
    weekday: z
      .number({ error: rule('valid') })
      .int(rule('valid'))
      .min(1, rule('valid'))
      .max(7, rule('valid')),
    method_id: methodId,
  }),
  z.object({
    kind: z.literal('monthly'),
    month_day: z
      .number({ error: rule('valid') })
      .int(rule('valid'))
      .min(1, rule('valid'))
      .max(31, rule('valid')),
    method_id: methodId,
  }),
  z.object({
    kind: z.literal('threshold'),
    threshold_cents: z
      .number({ error: rule('wrong_amount') })
      .int(rule('wrong_amount'))
      .min(SCHEDULE_THRESHOLD_MIN_CENTS, rule('wrong_amount'))
      .max(SCHEDULE_THRESHOLD_MAX_CENTS, rule('wrong_amount')),
    method_id: methodId,
  }),
]);
export type PayoutScheduleBody = z.input<typeof payoutScheduleBody>;

export const confirmPayoutScheduleBody = z.object({ change_id: z.uuid({ error: rule('valid') }), code: requiredString(16) });
export type ConfirmPayoutScheduleBody = z.input<typeof confirmPayoutScheduleBody>;

const rule_ = {
  kind: z.enum(['weekly', 'monthly', 'threshold']),
  weekday: z.number().int().nullable(),
  month_day: z.number().int().nullable(),
  threshold_cents: z.number().int().nullable(),
  method: z.object({ id: z.uuid(), kind: z.enum(['sepa', 'uk']), masked_account: z.string(), holder: z.string() }),
};

export const SCHEDULE_RUN_REASONS = ['below_minimum', 'debt', 'verification_required', 'blocked', 'method_removed'] as const;
export type ScheduleRunReason = (typeof SCHEDULE_RUN_REASONS)[number];

/** GET/PUT/DELETE /api/clients/{clientId}/payout-schedule and its confirmation: the schedule in force, a change waiting for its code, the last run. */
export const payoutScheduleStateSchema = z.object({
  schedule: z
    .object({
      ...rule_,
      /** `stopped`: its payout account was removed; it no longer runs until set again. */
      status: z.enum(['active', 'stopped']),
      /** When it is next looked at (a threshold schedule: when the balance is next checked); null once stopped. */
      next_run_at: z.string().nullable(),
      /** Set while runs are paused: payouts wait for the identity check, or the account is blocked. */
      paused_for: z.enum(['verification_required', 'blocked']).nullable(),
    })
    .nullable(),
  pending_change: z.object({ id: z.uuid(), ...rule_, code_expires_at: z.string() }).nullable(),
  last_run: z
    .object({
      period: z.string(),
      outcome: z.enum(['paid', 'skipped', 'paused', 'stopped']),
      reason: z.enum(SCHEDULE_RUN_REASONS).nullable(),
      amount_cents: z.number().int(),
      payout_id: z.uuid().nullable(),
      ran_at: z.string(),
    })
    .nullable(),
});
export type PayoutScheduleState = z.infer<typeof payoutScheduleStateSchema>;
