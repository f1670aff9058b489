import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { cards } from './cards.ts';
import { createdAt } from './columns.ts';
import { payments } from './payments.ts';
import { users } from './users.ts';

/**
 * A monthly donation (DESIGN "Invoices and donations"): charged on its start's day of the month (the month's last day
 * when it has fewer), through the payment method the first checkout saved. `period` is the month charged next (0: the
 * first checkout); `failures` the declined attempts of that month; `nextChargeAt` when the charge job next tries (a
 * running attempt's lease while it runs); `remindAt` when the e-mail before the next charge is due.
 */
export const donationPlans = pgTable(
  'donation_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    donorName: text('donor_name').notNull(),
    donorEmail: text('donor_email').notNull(),
    donorCode: text('donor_code').notNull(),
    /** The donor's language, for the plan's e-mails and links. */
    locale: text('locale').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    coverFee: boolean('cover_fee').notNull(),
    status: text('status', { enum: ['incomplete', 'active', 'paused', 'canceled', 'lapsed'] })
      .notNull()
      .default('incomplete'),
    /** The first payment's time: its UTC day of the month is the plan's charge day. */
    startedAt: timestamp('started_at', { withTimezone: true }),
    period: integer('period').notNull().default(0),
    failures: integer('failures').notNull().default(0),
    nextChargeAt: timestamp('next_charge_at', { withTimezone: true }),
    remindAt: timestamp('remind_at', { withTimezone: true }),
    /** When the e-mail with last year's statement is due (1 January after a year with a gift). */
    statementDueAt: timestamp('statement_due_at', { withTimezone: true }),
    provider: text('provider'),
    customerRef: text('customer_ref'),
    methodRef: text('method_ref'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('donation_plans_charge_due_idx')
      .on(t.nextChargeAt)
      .where(sql`${t.status} IN ('active', 'paused')`),
    index('donation_plans_remind_due_idx')
      .on(t.remindAt)
      .where(sql`${t.remindAt} IS NOT NULL`),
    index('donation_plans_statement_due_idx')
      .on(t.statementDueAt)
      .where(sql`${t.statementDueAt} IS NOT NULL`),
    index('donation_plans_user_idx').on(t.userId, t.status),
  ],
);

/**
 * A signed link in a plan's e-mail (`/actions/{actionId}`): one purpose, an expiry, used at most once (downloads may
 * be opened again until they expire). The link carries the row's id and an HMAC of it; the row says what it does.
 */
export const donationActions = pgTable(
  'donation_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => donationPlans.id),
    kind: text('kind', { enum: ['cancel', 'pause', 'change_amount', 'receipt', 'statement'] }).notNull(),
    /** A receipt's payment. */
    paymentId: uuid('payment_id'),
    /** A statement's year. */
    year: integer('year'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('donation_actions_plan_idx').on(t.planId)],
);

/**
 * A donor's gift to a DONATION card (DESIGN "Invoices and donations"): who gave (name or company, e-mail, personal
 * code or company number, which the recipient needs for tax receipts) and the state of its payment as the donations
 * module last heard from `payments` (its purpose handler).
 */
export const donations = pgTable(
  'donations',
  {
    paymentId: uuid('payment_id')
      .primaryKey()
      .references(() => payments.id),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    /** The card's owner when the donor gave: who the list belongs to. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['one_off', 'monthly'] }).notNull(),
    /** A monthly gift: its plan and which month of the plan it pays (0: the first, through the checkout). */
    planId: uuid('plan_id').references(() => donationPlans.id),
    period: integer('period'),
    donorName: text('donor_name').notNull(),
    donorEmail: text('donor_email').notNull(),
    donorCode: text('donor_code').notNull(),
    /** What the donor gave (before the fee; the fee is on top when they covered it). */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed', 'refunded'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
  },
  (t) => [
    index('donations_user_created_idx').on(t.userId, t.createdAt),
    index('donations_plan_idx').on(t.planId, t.period),
    index('donations_donor_idx').on(t.userId, t.donorCode, t.createdAt),
  ],
);
