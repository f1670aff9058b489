import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { cards } from './cards.ts';
import { createdAt } from './columns.ts';
import { payments } from './payments.ts';
import { clients, users } from './users.ts';

/**
 * Printed QR cards and stickers a user orders (DESIGN "Card shop"). The first order is free; later ones are paid
 * through `payments` (purpose `card_order`, the order is the payment's subject).
 */
export const cardOrders = pgTable(
  'card_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    /** The card printed: the user's own or a team card they run (decision 0048). */
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    product: text('product', { enum: ['card', 'sticker'] }).notNull(),
    quantity: integer('quantity').notNull(),
    free: boolean('free').notNull(),
    unitPriceCents: bigint('unit_price_cents', { mode: 'number' }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    status: text('status', {
      enum: ['awaiting_payment', 'placed', 'in_production', 'shipped', 'delivered', 'canceled'],
    }).notNull(),
    country: text('country').notNull(),
    city: text('city').notNull(),
    address: text('address').notNull(),
    apartment: text('apartment'),
    zip: text('zip').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    additionalInfo: text('additional_info'),
    trackingReference: text('tracking_reference'),
    /** The payment of a paid order, and where its payer pays while it is awaiting payment. */
    paymentId: uuid('payment_id').references(() => payments.id),
    checkoutUrl: text('checkout_url'),
    /** The client's Idempotency-Key, when it sent one, and a hash of its request: a retry answers the same order. */
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    placedAt: timestamp('placed_at', { withTimezone: true }),
    inProductionAt: timestamp('in_production_at', { withTimezone: true }),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    /** Canceled by the back office: a payment of it that still succeeds is given back, never places it again. */
    canceledByOperator: boolean('canceled_by_operator').notNull().default(false),
    /** A payment of the canceled order to give back in full, due from then (the refund job's lease moves it on). */
    refundDueAt: timestamp('refund_due_at', { withTimezone: true }),
    refundAttempts: integer('refund_attempts').notNull().default(0),
  },
  (t) => [
    index('card_orders_user_created_idx').on(t.userId, t.createdAt),
    // The last word on "first order free": two concurrent first orders cannot both be free.
    uniqueIndex('card_orders_one_free_per_user')
      .on(t.userId)
      .where(sql`${t.free} AND ${t.status} <> 'canceled'`),
    uniqueIndex('card_orders_user_idempotency_key').on(t.userId, t.idempotencyKey),
    index('card_orders_refund_due_idx')
      .on(t.refundDueAt)
      .where(sql`${t.refundDueAt} IS NOT NULL`),
    check('card_orders_quantity', sql`${t.quantity} BETWEEN 1 AND 3`),
    check(
      'card_orders_total',
      sql`${t.totalCents} = ${t.unitPriceCents} * ${t.quantity} AND (${t.free} = (${t.totalCents} = 0))`,
    ),
  ],
);
