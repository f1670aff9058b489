import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { cards } from './cards.ts';
import { createdAt } from './columns.ts';
import { payments } from './payments.ts';
import { clients, users } from './users.ts';

/**
 * A payment request a user sends by link (DESIGN "Invoices and donations"): paid once, canceled only while open.
 * `paidPaymentId` is the one payment kept; any other payment that succeeds for it is given back (`invoice_refunds`).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    /** The card whose public name and photo the payer sees: who asks. */
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    description: text('description').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    status: text('status', { enum: ['open', 'paid', 'canceled'] })
      .notNull()
      .default('open'),
    paidPaymentId: uuid('paid_payment_id').references(() => payments.id),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('invoices_client_created_idx').on(t.clientId, t.createdAt),
    check('invoices_amount', sql`${t.amountCents} > 0`),
    check('invoices_paid', sql`(${t.status} = 'paid') = (${t.paidPaymentId} IS NOT NULL)`),
  ],
);

/**
 * A payment that succeeded for an invoice that was no longer open (a second payer, or paid after a cancel): the
 * refund job gives it back through the provider. `dueAt` is the claim lease; null once refunded.
 */
export const invoiceRefunds = pgTable(
  'invoice_refunds',
  {
    paymentId: uuid('payment_id')
      .primaryKey()
      .references(() => payments.id),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    dueAt: timestamp('due_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('invoice_refunds_due_idx')
      .on(t.dueAt)
      .where(sql`${t.dueAt} IS NOT NULL`),
  ],
);
