import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { PLATFORM_ACCOUNT_KINDS } from './ledger.ts';
import { users } from './users.ts';

/**
 * Money a person without an account pays through the provider, for one purpose (DESIGN "Payments for many purposes"):
 * from checkout to its final state. `subjectId` is what it pays for (the card of a tip, an order, an invoice, a plan);
 * the purpose's handler decides, on success, who receives what (`payment_allocations`).
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purpose: text('purpose', { enum: ['tip', 'team_tip', 'venue_tip', 'card_order', 'invoice', 'donation'] }).notNull(),
    subjectId: uuid('subject_id').notNull(),
    /** What was asked for, the fee on it, and what the payer is charged (amount, plus the fee when they cover it). */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    coverFee: boolean('cover_fee').notNull(),
    currency: text('currency').notNull().default('EUR'),
    status: text('status', { enum: ['pending', 'succeeded', 'failed', 'canceled', 'refunded'] })
      .notNull()
      .default('pending'),
    /** What the provider says has been refunded so far, and what an open dispute holds back. */
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
    disputedCents: bigint('disputed_cents', { mode: 'number' }).notNull().default(0),
    /** How many times the books of this payment were adjusted (refunds, disputes): names each adjusting entry. */
    adjustments: integer('adjustments').notNull().default(0),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    checkoutUrl: text('checkout_url'),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** How the recipients' history names it, fixed when the payer pays. */
    description: text('description').notNull(),
    /**
     * Who paid, as the provider names them on success (a keyed hash of the card, Stripe's card fingerprint), never card
     * data; null when the provider gives nothing stable. The referral programme counts different payers by it.
     */
    payerRef: text('payer_ref'),
    /**
     * A checkout that saved the payer's method for later charges (a monthly donation's first payment): the provider's
     * customer and payment method, as its success event named them; null otherwise.
     */
    customerRef: text('customer_ref'),
    methodRef: text('method_ref'),
    /**
     * The card the payer paid with, as the provider names it on success (brand such as `visa`, and the last 4
     * digits), for the payer's receipt; null when the provider gives none (a wallet's device card in the sandbox).
     */
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    /** While pending: when the reconciliation job next asks the provider about it (null: no more asking). */
    reconcileDueAt: timestamp('reconcile_due_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_subject_idempotency_key').on(t.purpose, t.subjectId, t.idempotencyKey),
    uniqueIndex('payments_provider_ref_key').on(t.provider, t.providerRef),
    index('payments_reconcile_due_idx')
      .on(t.reconcileDueAt)
      .where(sql`${t.status} = 'pending'`),
    check(
      'payments_amounts',
      sql`${t.feeCents} >= 0 AND ${t.totalCents} > 0 AND ${t.refundedCents} BETWEEN 0 AND ${t.totalCents} AND ${t.disputedCents} BETWEEN 0 AND ${t.totalCents}`,
    ),
  ],
);

/**
 * Who received what of a succeeded payment: a user (credited to hold until `releaseDueAt`) or a platform account.
 * `reversed*` is what refunds and disputes have taken back so far. The payment's allocations sum to its total.
 */
export const paymentAllocations = pgTable(
  'payment_allocations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    /** Order within the payment (the handler's order: e.g. longest-standing team member first). */
    position: integer('position').notNull(),
    userId: uuid('user_id').references(() => users.id),
    /** For money to the platform (a card order): the platform account credited. */
    platformAccount: text('platform_account', { enum: PLATFORM_ACCOUNT_KINDS }),
    netCents: bigint('net_cents', { mode: 'number' }).notNull(),
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull(),
    reversedNetCents: bigint('reversed_net_cents', { mode: 'number' }).notNull().default(0),
    reversedFeeCents: bigint('reversed_fee_cents', { mode: 'number' }).notNull().default(0),
    /** A user's share waits on hold until then; the release job moves it to main. */
    releaseDueAt: timestamp('release_due_at', { withTimezone: true }),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_allocations_payment_position_key').on(t.paymentId, t.position),
    index('payment_allocations_release_due_idx')
      .on(t.releaseDueAt)
      .where(sql`${t.releasedAt} IS NULL`),
    index('payment_allocations_user_idx').on(t.userId),
    check('payment_allocations_recipient', sql`(${t.userId} IS NULL) <> (${t.platformAccount} IS NULL)`),
    check(
      'payment_allocations_amounts',
      sql`${t.netCents} >= 0 AND ${t.feeCents} >= 0 AND ${t.reversedNetCents} BETWEEN 0 AND ${t.netCents} AND ${t.reversedFeeCents} BETWEEN 0 AND ${t.feeCents}`,
    ),
  ],
);

/** Every provider event we have seen: the unique key makes webhook processing exactly-once in effect. */
export const providerEvents = pgTable(
  'provider_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    paymentId: uuid('payment_id'),
    /** Null while a webhook's event is recorded and waits for the workers to apply it (decision 0060). */
    outcome: text('outcome', { enum: ['applied', 'ignored', 'mismatch'] }),
    /** The verified event as the provider sent it, kept until it is applied. */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    /** The order events are applied in, per payment: the order they were recorded in. */
    sequence: bigint('sequence', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    /** Failed applications of this event on its own; each puts the next one further off (`retryAt`). */
    attempts: integer('attempts').notNull().default(0),
    retryAt: timestamp('retry_at', { withTimezone: true }),
    receivedAt: createdAt(),
  },
  (t) => [
    uniqueIndex('provider_events_provider_event_key').on(t.provider, t.eventId),
    index('provider_events_recorded_idx')
      .on(t.sequence)
      .where(sql`${t.outcome} IS NULL`),
    index('provider_events_recorded_payment_idx')
      .on(t.paymentId, t.sequence)
      .where(sql`${t.outcome} IS NULL`),
    check('provider_events_payload_until_applied', sql`${t.outcome} IS NOT NULL OR ${t.payload} IS NOT NULL`),
  ],
);

/**
 * A succeeded payment that nobody may receive (its recipient deleted the account, or a team card's team has no member
 * left): it is credited to the platform's `returns_due`, never to a user, and the give-back job refunds it in full
 * through the provider. `dueAt` is the claim lease; null once given back.
 */
export const paymentReturns = pgTable(
  'payment_returns',
  {
    paymentId: uuid('payment_id')
      .primaryKey()
      .references(() => payments.id),
    dueAt: timestamp('due_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('payment_returns_due_idx')
      .on(t.dueAt)
      .where(sql`${t.dueAt} IS NOT NULL`),
  ],
);
