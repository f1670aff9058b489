import type { Locale } from '@tipcard/shared/constants';
import { PAYEE_CHECK_RESULTS } from '@tipcard/shared/payouts/schemas';
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './users.ts';

/**
 * Where a staff member's payouts go (spec 3 "Payout method"). The full details are kept, since the bank files need
 * them, but the API only ever answers them masked. Deleting is soft: past payouts keep pointing at their method.
 */
export const payoutMethods = pgTable(
  'payout_methods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['sepa', 'uk'] }).notNull(),
    holder: text('holder').notNull(),
    address: text('address').notNull(),
    /** SEPA: electronic format IBAN and BIC. */
    iban: text('iban'),
    bic: text('bic'),
    /** UK: 8-digit account number and 6-digit sort code. */
    accountNumber: text('account_number'),
    sortCode: text('sort_code'),
    isDefault: boolean('is_default').notNull().default(false),
    /** The payee-name check when the method was added (decision 0043); null for methods from before it. */
    payeeCheckResult: text('payee_check_result', { enum: PAYEE_CHECK_RESULTS }),
    /** The name the bank holds, which a close match gives. */
    payeeCheckName: text('payee_check_name'),
    payeeCheckedAt: timestamp('payee_checked_at', { withTimezone: true }),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('payout_methods_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('payout_methods_one_default_key')
      .on(t.userId)
      .where(sql`${t.isDefault} AND ${t.deletedAt} IS NULL`),
    check(
      'payout_methods_details',
      sql`(${t.kind} = 'sepa' AND ${t.iban} IS NOT NULL AND ${t.bic} IS NOT NULL) OR (${t.kind} = 'uk' AND ${t.accountNumber} IS NOT NULL AND ${t.sortCode} IS NOT NULL)`,
    ),
  ],
);

/** Changes to payout methods made after the user was verified: a trail for support and fraud review. */
export const payoutMethodEvents = pgTable(
  'payout_method_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    methodId: uuid('method_id')
      .notNull()
      .references(() => payoutMethods.id),
    action: text('action', { enum: ['added', 'deleted', 'made_default'] }).notNull(),
    maskedAccount: text('masked_account').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('payout_method_events_user_idx').on(t.userId, t.createdAt)],
);

/** A bank file of payouts (SEPA pain.001 or UK CSV), kept so it can be written out again (docs/decisions/0007). */
export const payoutBatches = pgTable('payout_batches', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind', { enum: ['sepa', 'uk'] }).notNull(),
  /** The message id inside the file; a bank refuses a second file with the same one. */
  messageId: text('message_id').notNull().unique(),
  fileName: text('file_name').notNull(),
  content: text('content').notNull(),
  payoutCount: integer('payout_count').notNull(),
  totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
  status: text('status', { enum: ['created', 'sent'] })
    .notNull()
    .default('created'),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

/**
 * A withdrawal, from the SMS code to the bank's answer. `status` is what the user sees; `railState` is the worker's
 * progress while in flight (pending → submitting → submitted). The destination is copied at creation, so the code,
 * the file and the history all name the account the user confirmed, whatever happens to the method later.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    methodId: uuid('method_id')
      .notNull()
      .references(() => payoutMethods.id),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('EUR'),
    status: text('status', { enum: ['awaiting_confirmation', 'in_flight', 'paid', 'returned', 'expired'] }).notNull(),
    destKind: text('dest_kind', { enum: ['sepa', 'uk'] }).notNull(),
    destHolder: text('dest_holder').notNull(),
    destAddress: text('dest_address').notNull(),
    destIban: text('dest_iban'),
    destBic: text('dest_bic'),
    destAccountNumber: text('dest_account_number'),
    destSortCode: text('dest_sort_code'),
    /** The SMS code: HMAC over the payout id, amount, destination and code; never the code itself. */
    codeHash: text('code_hash').notNull(),
    codeAttempts: integer('code_attempts').notNull().default(0),
    codeSends: integer('code_sends').notNull().default(1),
    codeSentAt: timestamp('code_sent_at', { withTimezone: true }).notNull(),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }).notNull(),
    /** YYYY-MM-DD: from the request time until confirmed, from the confirmation time after. */
    expectedArrival: text('expected_arrival').notNull(),
    /** Which rail took it at confirmation: the sandbox, or a SEPA/UK bank file. */
    rail: text('rail', { enum: ['sandbox', 'sepa_file', 'uk_file'] }),
    railState: text('rail_state', { enum: ['pending', 'submitting', 'submitted'] }),
    /** When the worker may next look at it (a claim's lease, or the sandbox's settlement time). */
    railDueAt: timestamp('rail_due_at', { withTimezone: true }),
    batchId: uuid('batch_id').references(() => payoutBatches.id),
    returnReason: text('return_reason'),
    /**
     * A closing payout: the whole balance with the minimum waived and the fee capped (docs/decisions/0025), confirmed
     * only by the account's deletion statement, in the deletion's own transaction.
     */
    closing: boolean('closing').notNull().default(false),
    /** SEPA Instant (SCT Inst, docs/decisions/0044): asked by the user where the bank is reachable; same fee. */
    instant: boolean('instant').notNull().default(false),
    /** The language the withdrawal was asked in: the paid or returned SMS speaks it. */
    locale: text('locale').$type<Locale>().notNull().default('en'),
    createdAt: createdAt(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payouts_user_idempotency_key').on(t.userId, t.idempotencyKey),
    index('payouts_user_created_idx').on(t.userId, t.createdAt),
    index('payouts_rail_due_idx')
      .on(t.railDueAt)
      .where(sql`${t.status} = 'in_flight'`),
    index('payouts_batch_idx').on(t.batchId),
    check('payouts_amounts', sql`${t.amountCents} > 0 AND ${t.feeCents} >= 0`),
  ],
);

/** The sandbox rail's own record of what it was asked to send (its side, not ours): one transfer per payout. */
export const sandboxPayoutTransfers = pgTable('sandbox_payout_transfers', {
  payoutId: uuid('payout_id').primaryKey(),
  account: text('account').notNull(),
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  /** Sent as SEPA Instant: the sandbox answers at once instead of after SANDBOX_PAYOUT_DELAY_MS. */
  instant: boolean('instant').notNull().default(false),
  /** How many times we asked; the transfer itself happens once. */
  requests: integer('requests').notNull().default(1),
  createdAt: createdAt(),
});
