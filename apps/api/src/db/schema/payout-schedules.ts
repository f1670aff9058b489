import type { Locale } from '@tipcard/shared/constants';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { payoutMethods, payouts } from './payouts.ts';
import { users } from './users.ts';

/** What a schedule says: weekly on an ISO weekday (1 Monday … 7 Sunday), monthly on a day, or above an amount. */
const ruleColumns = () => ({
  kind: text('kind', { enum: ['weekly', 'monthly', 'threshold'] }).notNull(),
  weekday: integer('weekday'),
  monthDay: integer('month_day'),
  thresholdCents: bigint('threshold_cents', { mode: 'number' }),
  methodId: uuid('method_id')
    .notNull()
    .references(() => payoutMethods.id),
});

const ruleCheck = (t: { kind: unknown; weekday: unknown; monthDay: unknown; thresholdCents: unknown }) =>
  sql`(${t.kind} = 'weekly' AND ${t.weekday} BETWEEN 1 AND 7) OR (${t.kind} = 'monthly' AND ${t.monthDay} BETWEEN 1 AND 31) OR (${t.kind} = 'threshold' AND ${t.thresholdCents} > 0)`;

/**
 * A staff member's automatic payouts (issue 31, docs/decisions/0044): at most one per user, in force once its SMS
 * code was entered. `nextRunAt` is the due time the `payouts.run-schedules` job claims; `pausedFor` says why the
 * last run did not pay (verification, a block), and `pauseNotifiedAt` that the user was told so, once per pause.
 */
export const payoutSchedules = pgTable(
  'payout_schedules',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id),
    ...ruleColumns(),
    status: text('status', { enum: ['active', 'stopped'] })
      .notNull()
      .default('active'),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    pausedFor: text('paused_for', { enum: ['verification_required', 'blocked'] }),
    pauseNotifiedAt: timestamp('pause_notified_at', { withTimezone: true }),
    /** The language of the last change: the notices speak the user's language at the time they are sent. */
    locale: text('locale').$type<Locale>().notNull().default('en'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('payout_schedules_due_idx')
      .on(t.nextRunAt)
      .where(sql`${t.status} = 'active'`),
    check('payout_schedules_rule', ruleCheck(t)),
  ],
);

/** A schedule set or changed, waiting for its SMS code; the code's hash is bound to the rule and the method. */
export const payoutScheduleChanges = pgTable(
  'payout_schedule_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    ...ruleColumns(),
    codeHash: text('code_hash').notNull(),
    codeAttempts: integer('code_attempts').notNull().default(0),
    codeSentAt: timestamp('code_sent_at', { withTimezone: true }).notNull(),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    locale: text('locale').$type<Locale>().notNull().default('en'),
    createdAt: createdAt(),
  },
  (t) => [
    index('payout_schedule_changes_user_idx').on(t.userId, t.createdAt),
    check('payout_schedule_changes_rule', ruleCheck(t)),
  ],
);

/**
 * One row per user and period (the Riga day the run was due): the database key that makes a schedule pay at most
 * once per period, whatever the number of workers, retries and restarts. It also records what the run did.
 */
export const payoutScheduleRuns = pgTable(
  'payout_schedule_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    period: text('period').notNull(),
    outcome: text('outcome', { enum: ['paid', 'skipped', 'paused', 'stopped'] }).notNull(),
    reason: text('reason', { enum: ['below_minimum', 'debt', 'verification_required', 'blocked', 'method_removed'] }),
    payoutId: uuid('payout_id').references(() => payouts.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payout_schedule_runs_user_period_key').on(t.userId, t.period),
    index('payout_schedule_runs_user_idx').on(t.userId, t.createdAt),
  ],
);
