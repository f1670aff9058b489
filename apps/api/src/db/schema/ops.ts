import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt } from './columns.ts';

/**
 * The back office's own people (DESIGN "Back office"). An operator is created with a one-time enrolment link; the
 * password and the TOTP secret exist only once they have enrolled. The TOTP secret is stored encrypted.
 */
export const operators = pgTable('operators', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  role: text('role', { enum: ['support', 'compliance', 'finance', 'admin'] }).notNull(),
  passwordHash: text('password_hash'),
  totpSecretSealed: text('totp_secret_sealed').notNull(),
  /** The last TOTP time step accepted: a code of that step or an earlier one is a replay. */
  totpLastStep: integer('totp_last_step'),
  enrolmentTokenHash: text('enrolment_token_hash').unique(),
  enrolmentExpiresAt: timestamp('enrolment_expires_at', { withTimezone: true }),
  enrolledAt: timestamp('enrolled_at', { withTimezone: true }),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** A signed-in operator; the token names it. It dies after 30 idle minutes, at its absolute end, or on sign-out. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('operator_sessions_operator_idx').on(t.operatorId)],
);

/**
 * Every operator action, append-only (a trigger refuses UPDATE and DELETE). `operator_id` is null for the command-line
 * tools, whose `actor` is `cli`.
 */
export const opsAudit = pgTable(
  'ops_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id').references(() => operators.id),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('ops_audit_created_idx').on(t.createdAt),
    index('ops_audit_subject_idx').on(t.subjectType, t.subjectId),
    index('ops_audit_operator_idx').on(t.operatorId),
  ],
);

/**
 * Every refund asked for in the back office (decision 0022). Within REFUND_APPROVAL_CENTS of what was refunded of the
 * payment without approval it is made at once (`decided_by` stays null); above, it waits `pending` for a second
 * finance operator. `refunding` is decided and under way through the provider under the key `ops-request:{id}`; while
 * `lease_until` is in the past nobody is driving it and a retry or the `ops.refunds` job drives it again, so a crash
 * between the provider and our commit refunds once. `approved` is only on rows written before decision 0022.
 */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull(),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => operators.id),
    status: text('status', { enum: ['pending', 'refunding', 'refunded', 'failed', 'rejected', 'approved'] }).notNull(),
    /** The requester's Idempotency-Key: the same key on the same payment answers this request again. */
    idempotencyKey: text('idempotency_key'),
    decidedBy: uuid('decided_by').references(() => operators.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Why a finance operator declined it (`rejected`), as they wrote it. */
    declineReason: text('decline_reason'),
    /** Why the provider refused a decided refund: the error code its requester or approver was answered. */
    failure: text('failure'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refund_requests_payment_key_idx').on(t.paymentId, t.idempotencyKey),
    index('refund_requests_refunding_idx')
      .on(t.leaseUntil)
      .where(sql`${t.status} = 'refunding'`),
  ],
);

/**
 * Ledger health once an hour (the `ops.health-snapshot` job), so the back office shows counts over time: the hour it
 * was taken, how many invariant problems, payments pending past reconciliation and dead messages there were.
 */
export const opsHealthSnapshots = pgTable('ops_health_snapshots', {
  hour: timestamp('hour', { withTimezone: true }).primaryKey(),
  invariantProblems: integer('invariant_problems').notNull(),
  pendingPayments: integer('pending_payments').notNull(),
  deadMessages: integer('dead_messages').notNull(),
  createdAt: createdAt(),
});

/**
 * An operator's passkey (WebAuthn, decision 0050): the credential's id and COSE public key as the authenticator gave
 * them at registration, its signature counter (a counter that goes backwards is refused), and the operator's name for it.
 */
export const operatorPasskeys = pgTable(
  'operator_passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id),
    /** base64url, as the browser names the credential. */
    credentialId: text('credential_id').notNull().unique(),
    publicKey: bytea('public_key').notNull(),
    /** An unsigned 32-bit counter: more than an `integer` holds. */
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: jsonb('transports').$type<string[]>().notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('operator_passkeys_operator_idx').on(t.operatorId)],
);

/**
 * A WebAuthn challenge handed out and not yet answered: stored by its hash (the challenge itself is never kept), used
 * once, for five minutes. A registration's is bound to the operator's session; a sign-in's to nobody yet.
 */
export const operatorPasskeyChallenges = pgTable('operator_passkey_challenges', {
  challengeHash: text('challenge_hash').primaryKey(),
  purpose: text('purpose', { enum: ['register', 'sign_in'] }).notNull(),
  sessionId: uuid('session_id').references(() => operatorSessions.id),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
