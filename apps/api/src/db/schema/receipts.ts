import { bigint, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { LOCALES } from '@tipcard/shared/constants';
import { createdAt } from './columns.ts';
import { payments } from './payments.ts';

/**
 * Where a payer asked their receipts to go (docs/decisions/0042): the e-mail a guest gave on the success page, or a
 * donor's, and the language they read. The refund receipts of the payment go there too; one address per payment,
 * the latest given.
 */
export const receiptContacts = pgTable('receipt_contacts', {
  paymentId: uuid('payment_id')
    .primaryKey()
    .references(() => payments.id),
  email: text('email').notNull(),
  locale: text('locale', { enum: LOCALES }).notNull(),
  createdAt: createdAt(),
});

/**
 * One row per refund told of: the payment's refunded total it announced. Written in the transaction that takes the
 * refund from the books, its key makes the payer's refund receipt and the recipients' texts go once per refund, however
 * often the provider's event is delivered or asked for.
 */
export const refundNotices = pgTable(
  'refund_notices',
  {
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.paymentId, t.refundedCents] })],
);
