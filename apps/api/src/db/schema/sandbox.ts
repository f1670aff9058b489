import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/** The built-in sandbox provider's own record of what a guest did on its hosted page (its side, not ours). */
export const sandboxCharges = pgTable('sandbox_charges', {
  providerRef: text('provider_ref').primaryKey(),
  /** Our reference from the checkout's metadata, carried in every event. */
  paymentId: text('payment_id').notNull(),
  /** `pending`: the card network never answered. */
  status: text('status', { enum: ['pending', 'succeeded', 'failed', 'canceled', 'refunded'] }).notNull(),
  method: text('method').notNull(),
  /** The payer reference its success event carries: a keyed hash of the card number, null for wallets. */
  payerRef: text('payer_ref'),
  /** The card's brand and last 4 digits its success event names, as a provider's charge does; null for wallets. */
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  currency: text('currency').notNull().default('EUR'),
  /** When `status` last changed: the `created_at` of the event that tells of it. */
  statusAt: timestamp('status_at', { withTimezone: true }).notNull().defaultNow(),
  /** Refunded so far, all refunds together. */
  refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
  /** The refund keys already honoured, so a retried refund refunds once. */
  refundKeys: text('refund_keys')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  /** A checkout that saved the card, or an off-session charge of a saved card: the customer and method it names. */
  customerRef: text('customer_ref'),
  methodRef: text('method_ref'),
  /**
   * An off-session charge's idempotency key and a hash of its parameters: the same key answers the first charge again,
   * with other parameters it is refused, as Stripe does.
   */
  idempotencyKey: text('idempotency_key').unique(),
  requestHash: text('request_hash'),
  createdAt: createdAt(),
});

/**
 * The sandbox's saved cards (its side): a customer and a method saved by a checkout, with the test card's behaviour
 * for later off-session charges (README "Sandbox payments") and how many of those were attempted.
 */
export const sandboxPaymentMethods = pgTable('sandbox_payment_methods', {
  methodRef: text('method_ref').primaryKey(),
  customerRef: text('customer_ref').notNull().unique(),
  email: text('email').notNull(),
  behaviour: text('behaviour', { enum: ['succeeds', 'fails_after_two', 'fails_once'] }).notNull(),
  payerRef: text('payer_ref'),
  /** The saved card's brand and last 4 digits, named by each later charge's success event. */
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  offSessionAttempts: integer('off_session_attempts').notNull().default(0),
  createdAt: createdAt(),
});

/**
 * The sandbox's webhook deliveries (its side, not ours), durable so that an event outlives a restart of the process
 * that would have sent it. `due_at` is the next attempt (or a running attempt's lease); null once delivered or given up.
 */
export const sandboxEvents = pgTable(
  'sandbox_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerRef: text('provider_ref').notNull(),
    /** The event's JSON exactly as signed and sent. */
    body: text('body').notNull(),
    attempts: integer('attempts').notNull().default(0),
    dueAt: timestamp('due_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** The last attempt's HTTP status; null when it got no answer. */
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('sandbox_events_due_idx')
      .on(t.dueAt)
      .where(sql`${t.dueAt} IS NOT NULL`),
    index('sandbox_events_provider_ref_idx').on(t.providerRef),
  ],
);
