import { bigint, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TransactionDetail } from '@tipcard/shared/transactions/detail';
import { createdAt } from './columns.ts';
import { cards } from './cards.ts';
import { payments, paymentAllocations } from './payments.ts';
import { payouts } from './payouts.ts';
import { users } from './users.ts';

/** The staff member's history (spec 3 "Transaction"), linked to the ledger by its entries' references. */
export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    cardId: uuid('card_id').references(() => cards.id),
    paymentId: uuid('payment_id').references(() => payments.id),
    /** The share of a payment a PAYIN row shows: one row per recipient of the payment. */
    allocationId: uuid('allocation_id')
      .references(() => paymentAllocations.id)
      .unique(),
    /** The withdrawal a PAYOUT row shows (HOLD while in flight, PAID, or REFUNDED when returned). */
    payoutId: uuid('payout_id')
      .references(() => payouts.id)
      .unique(),
    type: text('type', { enum: ['PAYIN', 'PAYOUT', 'REFERRAL_PAYIN'] }).notNull(),
    status: text('status', { enum: ['HOLD', 'PAID', 'REFUNDED'] }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull().default(0),
    /** Of `amountCents`, what refunds and chargebacks have taken back so far (all of it: REFUNDED). */
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
    currency: text('currency').notNull().default('EUR'),
    /** The English line the back office reads; the only text of rows written before `detail`. */
    description: text('description').notNull(),
    /** What happened as facts (kind, names, masked account), rendered in each reader's language. */
    detail: jsonb('detail').$type<TransactionDetail>(),
    message: text('message'),
    rating: integer('rating'),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    index('transactions_user_created_idx').on(t.userId, t.createdAt, t.id),
    // The type filter's pages in keyset order: a rare type is read, not searched for among the other types' rows.
    index('transactions_user_type_created_idx').on(t.userId, t.type, t.createdAt, t.id),
    index('transactions_payment_idx').on(t.paymentId),
  ],
);

/**
 * Per user and Riga calendar day, what the overview and the verification limit add up: the PAYIN rows not REFUNDED,
 * their net amount less what was taken back, their count and ratings. Kept by a trigger on `transactions` (migration
 * `transaction_daily_totals_trigger`, decision 0019) in the writing statement's own transaction, so a day's row
 * always equals the sum of that day's history rows; a day whose rows all went (refunded, purged) has no row.
 */
export const transactionDailyTotals = pgTable(
  'transaction_daily_totals',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    day: date('day', { mode: 'string' }).notNull(),
    receivedCents: bigint('received_cents', { mode: 'number' }).notNull(),
    payinCount: integer('payin_count').notNull(),
    ratingSum: bigint('rating_sum', { mode: 'number' }).notNull(),
    ratingCount: integer('rating_count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
