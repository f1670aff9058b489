import { bigint, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { cards } from './cards.ts';
import { createdAt } from './columns.ts';
import { payments } from './payments.ts';
import { users } from './users.ts';

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
    kind: text('kind', { enum: ['one_off'] }).notNull(),
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
  (t) => [index('donations_user_created_idx').on(t.userId, t.createdAt)],
);
