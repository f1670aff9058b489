import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  unique,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  phone: text('phone').notNull().unique(),
  referralCode: text('referral_code').notNull().unique(),
  referredByUserId: uuid('referred_by_user_id'),
  promoSource: text('promo_source'),
  createdAt: createdAt(),
});

export const clients = pgTable(
  'clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id),
    type: text('type', { enum: ['private'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('clients_user_type_key').on(t.userId, t.type)],
);

/** A sign-up waiting for its SMS code; the user exists only once the code is verified. */
export const registrations = pgTable('registrations', {
  id: uuid('id').primaryKey().defaultRandom(),
  phone: text('phone').notNull(),
  referralCode: text('referral_code'),
  promoSource: text('promo_source'),
  userId: uuid('user_id').references(() => users.id),
  createdAt: createdAt(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }),
});

export const otpCodes = pgTable(
  'otp_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    phone: text('phone').notNull(),
    purpose: text('purpose', { enum: ['login', 'register'] }).notNull(),
    registrationId: uuid('registration_id').references(() => registrations.id),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('otp_codes_phone_created_idx').on(t.phone, t.createdAt)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** Absolute end of the family: rotation never extends it. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId)],
);

export const files = pgTable('files', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerUserId: uuid('owner_user_id').notNull().references(() => users.id),
  mime: text('mime').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  content: bytea('content').notNull(),
  createdAt: createdAt(),
});

export const cards = pgTable(
  'cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id').notNull().references(() => clients.id),
    title: text('title').notNull(),
    publicName: text('public_name').notNull(),
    welcomePhrase: text('welcome_phrase'),
    publicText: text('public_text'),
    activityType: text('activity_type').notNull(),
    country: text('country').notNull(),
    instagram: text('instagram'),
    facebook: text('facebook'),
    tiktok: text('tiktok'),
    isPrivate: boolean('is_private').notNull(),
    photoFileId: uuid('photo_file_id').references(() => files.id),
    /** Running sum and count of guests' 1–5 star ratings; the card shows their average. */
    ratingSum: integer('rating_sum').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('cards_client_idx').on(t.clientId),
    uniqueIndex('cards_one_private_per_client_key').on(t.clientId).where(sql`${t.isPrivate}`),
  ],
);

/** Balances per owner and kind (DESIGN "Money and the ledger"); user accounts can never go below zero. */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    ownerUserId: uuid('owner_user_id').references(() => users.id),
    kind: text('kind').notNull(),
    balanceCents: bigint('balance_cents', { mode: 'number' }).notNull().default(0),
    currency: text('currency').notNull().default('EUR'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('ledger_accounts_owner_kind_key').on(t.ownerUserId, t.kind).nullsNotDistinct(),
    check('ledger_accounts_user_balance_non_negative', sql`${t.ownerUserId} IS NULL OR ${t.balanceCents} >= 0`),
  ],
);

/** One business event that moves money; `reference` makes every movement idempotent. Append-only. */
export const ledgerEntries = pgTable('ledger_entries', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  kind: text('kind').notNull(),
  reference: text('reference').notNull().unique(),
  createdAt: createdAt(),
});

/** The signed amounts of an entry; the postings of an entry sum to zero. Append-only. */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerEntries.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_postings_entry_idx').on(t.entryId),
    index('ledger_postings_account_idx').on(t.accountId),
    check('ledger_postings_amount_non_zero', sql`${t.amountCents} <> 0`),
  ],
);

/**
 * Money a person without an account pays through the provider, for one purpose (DESIGN "Payments for many purposes"):
 * from checkout to its final state. `subjectId` is what it pays for (the card of a tip, an order, an invoice, a plan);
 * the purpose's handler decides, on success, who receives what (`payment_allocations`).
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purpose: text('purpose', { enum: ['tip', 'card_order', 'invoice', 'donation'] }).notNull(),
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
    /** While pending: when the reconciliation job next asks the provider about it (null: no more asking). */
    reconcileDueAt: timestamp('reconcile_due_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_subject_idempotency_key').on(t.purpose, t.subjectId, t.idempotencyKey),
    uniqueIndex('payments_provider_ref_key').on(t.provider, t.providerRef),
    index('payments_reconcile_due_idx').on(t.reconcileDueAt).where(sql`${t.status} = 'pending'`),
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
    platformAccount: text('platform_account', { enum: ['psp_clearing', 'fees', 'payouts_in_flight', 'referral_expense', 'card_sales'] }),
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
    index('payment_allocations_release_due_idx').on(t.releaseDueAt).where(sql`${t.releasedAt} IS NULL`),
    index('payment_allocations_user_idx').on(t.userId),
    check('payment_allocations_recipient', sql`(${t.userId} IS NULL) <> (${t.platformAccount} IS NULL)`),
    check(
      'payment_allocations_amounts',
      sql`${t.netCents} >= 0 AND ${t.feeCents} >= 0 AND ${t.reversedNetCents} BETWEEN 0 AND ${t.netCents} AND ${t.reversedFeeCents} BETWEEN 0 AND ${t.feeCents}`,
    ),
  ],
);

/** A guest's tip to a card: what only a tip has (the tips module's table). */
export const tips = pgTable('tips', {
  paymentId: uuid('payment_id')
    .primaryKey()
    .references(() => payments.id),
  cardId: uuid('card_id')
    .notNull()
    .references(() => cards.id),
  message: text('message'),
  rating: integer('rating'),
}, (t) => [check('tips_rating', sql`${t.rating} IS NULL OR ${t.rating} BETWEEN 1 AND 5`)]);

/** Every provider event we have seen: the unique key makes webhook processing exactly-once in effect. */
export const providerEvents = pgTable(
  'provider_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    paymentId: uuid('payment_id'),
    outcome: text('outcome', { enum: ['applied', 'ignored', 'mismatch'] }).notNull(),
    receivedAt: createdAt(),
  },
  (t) => [uniqueIndex('provider_events_provider_event_key').on(t.provider, t.eventId)],
);

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
    description: text('description').notNull(),
    message: text('message'),
    rating: integer('rating'),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    index('transactions_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('transactions_payment_idx').on(t.paymentId),
  ],
);

/** The built-in sandbox provider's own record of what a guest did on its hosted page (its side, not ours). */
export const sandboxCharges = pgTable('sandbox_charges', {
  providerRef: text('provider_ref').primaryKey(),
  /** Our reference from the checkout's metadata, carried in every event. */
  paymentId: text('payment_id').notNull(),
  /** `pending`: the card network never answered. */
  status: text('status', { enum: ['pending', 'succeeded', 'failed', 'canceled', 'refunded'] }).notNull(),
  method: text('method').notNull(),
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  currency: text('currency').notNull().default('EUR'),
  /** When `status` last changed: the `created_at` of the event that tells of it. */
  statusAt: timestamp('status_at', { withTimezone: true }).notNull().defaultNow(),
  /** Refunded so far, all refunds together. */
  refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
  /** The refund keys already honoured, so a retried refund refunds once. */
  refundKeys: text('refund_keys').array().notNull().default(sql`'{}'::text[]`),
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
  (t) => [index('sandbox_events_due_idx').on(t.dueAt).where(sql`${t.dueAt} IS NOT NULL`), index('sandbox_events_provider_ref_idx').on(t.providerRef)],
);

/**
 * The transactional outbox (DESIGN "Jobs and messages"): every SMS and e-mail, written in the transaction of the
 * event that causes it and sent by the `messages.deliver` job. Outside production it is also the dev outbox.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    recipient: text('recipient').notNull(),
    /** E-mail only; an SMS is all body. */
    subject: text('subject'),
    replyTo: text('reply_to'),
    body: text('body').notNull(),
    /** sending: claimed by a worker until due_at (its lease); a worker that dies leaves it to be claimed again. */
    status: text('status', { enum: ['pending', 'sending', 'sent', 'dead'] }).notNull().default('pending'),
    /** Tries begun, counted when claimed, so a worker dying mid-send uses one up too. */
    attempts: integer('attempts').notNull().default(0),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the try that got through began. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The provider's answer to the last failed try, with the body and the recipient taken out. */
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('outbox_messages_created_idx').on(t.createdAt),
    index('outbox_messages_due_idx').on(t.dueAt).where(sql`${t.status} IN ('pending', 'sending')`),
  ],
);

/**
 * First-party analytics, recorded only for visitors who allowed it: a page view or a visit from an advert. No IP,
 * user agent, user or device id is kept (docs/decisions/0004-public-site.md).
 */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name', { enum: ['page_view', 'ad_visit'] }).notNull(),
    path: text('path').notNull(),
    locale: text('locale').notNull(),
    promoSource: text('promo_source'),
    createdAt: createdAt(),
  },
  (t) => [index('analytics_events_name_created_idx').on(t.name, t.createdAt)],
);

/**
 * Identity verification requests (spec 3 "Verification forms"): the latest row of a user is their status; a rejected
 * user submits a new row. Documents are rows of `files`; an operator reviews until the back office exists.
 */
export const verifications = pgTable(
  'verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['person', 'company'] }).notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] }).notNull(),
    /** The form's fields other than documents, as submitted (names, birthday, codes, address or bank details). */
    details: jsonb('details').$type<Record<string, string>>().notNull(),
    documentFrontFileId: uuid('document_front_file_id').references(() => files.id),
    documentBackFileId: uuid('document_back_file_id').references(() => files.id),
    registrationDocumentFileId: uuid('registration_document_file_id').references(() => files.id),
    rejectionReason: text('rejection_reason'),
    createdAt: createdAt(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [
    index('verifications_user_created_idx').on(t.userId, t.createdAt),
    // At most one pending or approved request per user: two submissions racing cannot both be stored.
    uniqueIndex('verifications_one_open_per_user_key').on(t.userId).where(sql`${t.status} IN ('pending', 'approved')`),
  ],
);

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
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('payout_methods_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('payout_methods_one_default_key').on(t.userId).where(sql`${t.isDefault} AND ${t.deletedAt} IS NULL`),
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
  status: text('status', { enum: ['created', 'sent'] }).notNull().default('created'),
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
    createdAt: createdAt(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payouts_user_idempotency_key').on(t.userId, t.idempotencyKey),
    index('payouts_user_created_idx').on(t.userId, t.createdAt),
    index('payouts_rail_due_idx').on(t.railDueAt).where(sql`${t.status} = 'in_flight'`),
    index('payouts_batch_idx').on(t.batchId),
    check('payouts_amounts', sql`${t.amountCents} > 0 AND ${t.feeCents} >= 0`),
  ],
);

/** The sandbox rail's own record of what it was asked to send (its side, not ours): one transfer per payout. */
export const sandboxPayoutTransfers = pgTable('sandbox_payout_transfers', {
  payoutId: uuid('payout_id').primaryKey(),
  account: text('account').notNull(),
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  /** How many times we asked; the transfer itself happens once. */
  requests: integer('requests').notNull().default(1),
  createdAt: createdAt(),
});
