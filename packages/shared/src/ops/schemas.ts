import { z } from 'zod';
import { CARD_ORDER_STATUSES, cardOrderSchema } from '../card-orders/schemas.ts';
import { donationSchema } from '../donations/schemas.ts';
import { invoiceSchema } from '../invoices/schemas.ts';
import { RETURN_REASONS, returnReasonCodes, type ReturnReasonCode } from '../payouts/return-reasons.ts';
import {
  operatorTicketSummarySchema,
  TICKET_STATUSES,
  ticketSchema,
  ticketSenderSchema,
  ticketSummarySchema,
} from '../support/schemas.ts';
import { splitRuleSchema } from '../teams/schemas.ts';
import { isoDateTime, NOT_BLANK_SERVER_TEXT } from '../validation.ts';

/** The back office's contracts (issue 15): `/api/ops/…`, shared by the API and the ops app. English only. */

export const operatorRoles = ['support', 'compliance', 'finance', 'admin'] as const;
export type OperatorRole = (typeof operatorRoles)[number];

const required = (max: number) => z.string().trim().min(1, NOT_BLANK_SERVER_TEXT).max(max);
const money = z.number().int();
const timestamp = z.string();

export const operatorSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(operatorRoles),
  enrolled: z.boolean(),
  disabled: z.boolean(),
  locked_until: timestamp.nullable(),
  created_at: timestamp,
});
export type OperatorView = z.infer<typeof operatorSchema>;

export const signInBody = z.object({
  email: required(254),
  password: required(200),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6 digits of the authenticator app'),
});
export const signInAnswer = z.object({ token: z.string(), operator: operatorSchema, idle_timeout_seconds: z.number() });

/** Passkeys (WebAuthn, decision 0050): an operator's own, listed on their account screen. */
export const PASSKEY_NAME_MAX = 60;
export const passkeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
});
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[\w-]*$/, 'Not base64url');
/** The options `navigator.credentials.create()` / `.get()` take, as JSON (@simplewebauthn's `optionsJSON`). */
export const passkeyOptions = z.looseObject({ challenge: z.string() });
/** What the browser answers `navigator.credentials.create()` with, as JSON (@simplewebauthn/browser's `startRegistration`). */
export const passkeyRegistration = z.looseObject({
  id: base64url(1024),
  rawId: base64url(1024),
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(32_768),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  clientExtensionResults: z.looseObject({}),
});
export const addPasskeyBody = z.object({ name: required(PASSKEY_NAME_MAX), response: passkeyRegistration });
/** What the browser answers `navigator.credentials.get()` with, as JSON (`startAuthentication`). */
export const passkeyAssertion = z.looseObject({
  id: base64url(1024),
  rawId: base64url(1024),
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(4096),
    signature: base64url(1024),
    userHandle: base64url(256).optional(),
  }),
  clientExtensionResults: z.looseObject({}),
});
export const passkeySignInBody = z.object({ response: passkeyAssertion });

export const enrolmentInfo = z.object({ email: z.string(), secret: z.string(), otpauth_url: z.string(), qr_svg: z.string() });
export const enrolBody = z.object({
  password: required(200),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6 digits of the authenticator app'),
});

export const createOperatorBody = z.object({ email: z.email().max(254), role: z.enum(operatorRoles) });
export const createdOperator = z.object({ operator: operatorSchema, enrolment_url: z.string() });
export const updateOperatorBody = z
  .object({ role: z.enum(operatorRoles).optional(), disabled: z.boolean().optional() })
  .refine((body) => body.role !== undefined || body.disabled !== undefined, 'Give a role, or disabled true or false');
/** The first admin, by the set-up link the server prints while no operator exists. */
export const setUpBody = z.object({ email: z.email().max(254) });

export const auditRecordSchema = z.object({
  id: z.uuid(),
  operator_id: z.uuid().nullable(),
  actor: z.string(),
  action: z.string(),
  subject_type: z.string(),
  subject_id: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
  created_at: timestamp,
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;
/**
 * The audit log's filters: `actor` finds an operator by part of their e-mail (or `cli`, `setup link`), `action` is an
 * action or its family (`refund` finds `refund.request`, `refund.approve`…), `subject_id` the start of an id, in any
 * case (a payment's short reference finds it).
 */
export const auditQuery = z.object({
  operator_id: z.uuid().optional(),
  actor: z.string().trim().max(254).optional(),
  action: z.string().trim().max(100).optional(),
  subject_type: z.string().max(50).optional(),
  subject_id: z.string().trim().max(100).optional(),
  from: isoDateTime().optional(),
  to: isoDateTime().optional(),
});

export const opsUserSchema = z.object({
  id: z.uuid(),
  phone: z.string(),
  created_at: timestamp,
  blocked: z.boolean(),
  blocked_reason: z.string().nullable(),
});
export type OpsUser = z.infer<typeof opsUserSchema>;

export const opsPayoutSchema = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  amount_cents: money,
  fee_cents: money,
  status: z.enum(['awaiting_confirmation', 'in_flight', 'paid', 'returned', 'expired']),
  rail: z.enum(['sandbox', 'sepa_file', 'uk_file']).nullable(),
  batch_id: z.uuid().nullable(),
  destination: z.string(),
  holder: z.string(),
  return_reason: z.string().nullable(),
  created_at: timestamp,
  confirmed_at: timestamp.nullable(),
  paid_at: timestamp.nullable(),
  returned_at: timestamp.nullable(),
});
export type OpsPayout = z.infer<typeof opsPayoutSchema>;

export const opsUserDetail = z.object({
  user: opsUserSchema,
  cards: z.array(
    z.object({ id: z.uuid(), title: z.string(), public_name: z.string(), activity_type: z.string(), is_private: z.boolean() }),
  ),
  balances: z.object({ main_cents: money, hold_cents: money, debt_cents: money }),
  history: z.array(
    z.object({
      id: z.uuid(),
      type: z.string(),
      status: z.string(),
      amount_cents: money,
      fee_cents: money,
      payment_id: z.uuid().nullable(),
      created_at: timestamp,
    }),
  ),
  payouts: z.array(opsPayoutSchema),
  verification: z.object({ id: z.uuid(), status: z.string(), kind: z.string(), created_at: timestamp }).nullable(),
  team: z
    .object({
      id: z.uuid(),
      title: z.string(),
      workplace: z.string(),
      /** Its venue's page (issue 29). */
      workplace_id: z.uuid(),
      card_id: z.uuid(),
      admin: z.boolean(),
      members: z.number().int(),
      joined_at: timestamp,
    })
    .nullable(),
  invoices: z.array(invoiceSchema),
  donations: z.array(donationSchema),
  tickets: z.array(ticketSummarySchema),
});
export type OpsUserDetail = z.infer<typeof opsUserDetail>;

export const reasonBody = z.object({ reason: required(500) });

export const verificationQueueItem = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  phone: z.string(),
  kind: z.enum(['person', 'company']),
  created_at: timestamp,
});
export const documentFields = ['document_front', 'document_back', 'registration_document'] as const;
export const opsVerificationDetail = z.object({
  id: z.uuid(),
  user: opsUserSchema,
  kind: z.enum(['person', 'company']),
  status: z.enum(['pending', 'approved', 'rejected']),
  details: z.record(z.string(), z.string()),
  documents: z.array(z.enum(documentFields)),
  rejection_reason: z.string().nullable(),
  created_at: timestamp,
  reviewed_at: timestamp.nullable(),
});
export type OpsVerificationDetail = z.infer<typeof opsVerificationDetail>;
export const verificationDecisionBody = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('approve') }),
  z.object({ decision: z.literal('reject'), reason: required(500) }),
]);

export const opsBatchSchema = z.object({
  id: z.uuid(),
  kind: z.enum(['sepa', 'uk']),
  message_id: z.string(),
  file_name: z.string(),
  payout_count: z.number().int(),
  total_cents: money,
  status: z.enum(['created', 'sent']),
  created_at: timestamp,
  sent_at: timestamp.nullable(),
});
export type OpsBatch = z.infer<typeof opsBatchSchema>;
export const createBatchBody = z.object({ kind: z.enum(['sepa', 'uk']) });
export const createBatchAnswer = z.object({ invariant_problems: z.array(z.string()), batch: opsBatchSchema.nullable() });
export { RETURN_REASONS, returnReasonCodes, type ReturnReasonCode };
export const payoutOutcomeBody = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('paid') }),
  z.object({ outcome: z.literal('returned'), reason_code: z.enum(returnReasonCodes) }),
]);

/** One refund request of a payment as its page shows it: who asked, who decided, and how it ended. */
export const opsPaymentRefundSchema = z.object({
  id: z.uuid(),
  status: z.enum(['pending', 'refunding', 'refunded', 'failed', 'rejected', 'approved']),
  amount_cents: money,
  reason: z.string(),
  requested_by: z.string(),
  decided_by: z.string().nullable(),
  decided_at: timestamp.nullable(),
  decline_reason: z.string().nullable(),
  failure: z.string().nullable(),
  created_at: timestamp,
});

/**
 * A payment and its whole story (issue 27): what was paid and for what, who received what, its refunds (asked for and
 * made), disputes, what the provider told us, the messages sent about it and the back office's records of it.
 */
export const opsPaymentSchema = z.object({
  id: z.uuid(),
  /** The short reference guests are shown ("A42C5FAB"). */
  reference: z.string(),
  purpose: z.string(),
  status: z.string(),
  description: z.string(),
  amount_cents: money,
  total_cents: money,
  fee_cents: money,
  cover_fee: z.boolean(),
  refunded_cents: money,
  disputed_cents: money,
  /** What a refund can still give back: the total less what refunds and disputes took. */
  refundable_cents: money,
  provider: z.string(),
  provider_ref: z.string().nullable(),
  created_at: timestamp,
  /** What it paid for: the purpose's subject (a card, an order, an invoice, a plan) and, for a tip, the card. */
  subject_id: z.uuid(),
  card: z.object({ id: z.uuid(), user_id: z.uuid(), public_name: z.string() }).nullable(),
  shares: z.array(
    z.object({
      user_id: z.uuid().nullable(),
      platform_account: z.string().nullable(),
      net_cents: money,
      fee_cents: money,
      reversed_net_cents: money,
      reversed_fee_cents: money,
      released_at: timestamp.nullable(),
    }),
  ),
  refunds: z.array(opsPaymentRefundSchema),
  events: z.array(z.object({ event_id: z.string(), type: z.string(), outcome: z.string(), received_at: timestamp })),
  messages: z.array(
    z.object({
      id: z.uuid(),
      channel: z.enum(['sms', 'email', 'push']),
      recipient: z.string(),
      subject: z.string().nullable(),
      status: z.string(),
      created_at: timestamp,
    }),
  ),
  audit: z.array(auditRecordSchema),
});
export type OpsPayment = z.infer<typeof opsPaymentSchema>;
/** The most a refund's amount can name: what the database's int4 holds (no payment comes near it). */
export const REFUND_MAX_CENTS = 2_147_483_647;
export const refundBody = z.object({ amount_cents: z.number().int().min(1).max(REFUND_MAX_CENTS), reason: required(500) });
/**
 * A refund as it stands: made, waiting for a second finance operator, under way through the provider (a retry or the
 * `ops.refunds` job finishes it), or declined. `request_id` is null for a refund made without approval.
 */
export const refundAnswer = z.object({
  status: z.enum(['refunded', 'awaiting_approval', 'refunding', 'rejected']),
  payment_status: z.string(),
  request_id: z.uuid().nullable(),
});
export const refundRequestSchema = z.object({
  id: z.uuid(),
  /** pending: waits for a second finance operator; refunding: approved, the refund under way. */
  status: z.enum(['pending', 'refunding']),
  payment_id: z.uuid(),
  /** The payment's short reference, as its guest quotes it. */
  payment_reference: z.string(),
  amount_cents: money,
  reason: z.string(),
  requested_by: z.uuid(),
  /** Who asked, by e-mail. */
  requested_by_email: z.string(),
  created_at: timestamp,
});
/** A declined refund request keeps why, in the audit log and on the payment's page. */
export const declineBody = reasonBody;

/** What one search box finds (issue 27), grouped by kind on screen; each hit names the user and payment it leads to. */
export const opsSearchKinds = ['payment', 'user', 'card', 'venue', 'donation', 'invoice', 'card_order', 'payout_method'] as const;
export type OpsSearchKind = (typeof opsSearchKinds)[number];
export const opsSearchHit = z.object({
  kind: z.enum(opsSearchKinds),
  id: z.uuid(),
  title: z.string(),
  detail: z.string(),
  amount_cents: money.nullable(),
  created_at: timestamp.nullable(),
  user_id: z.uuid().nullable(),
  payment_id: z.uuid().nullable(),
});
export type OpsSearchHit = z.infer<typeof opsSearchHit>;
export const opsSearchQuery = z.object({ q: z.string().max(100) });

/**
 * The work waiting, for the menu's badges: a count for each queue the operator's role may see, null for the others.
 */
export const opsQueueCounts = z.object({
  tickets_waiting: z.number().int().nullable(),
  verifications_to_review: z.number().int().nullable(),
  refunds_to_approve: z.number().int().nullable(),
  batches_to_close: z.number().int().nullable(),
  dead_messages: z.number().int().nullable(),
});
export type OpsQueueCounts = z.infer<typeof opsQueueCounts>;

export const ledgerHealthSchema = z.object({
  checked_at: timestamp,
  invariant_problems: z.array(z.string()),
  platform_balances: z.record(z.string(), money),
  pending_payments: z.array(z.object({ id: z.uuid(), purpose: z.string(), total_cents: money, created_at: timestamp })),
  messages: z.object({ pending: z.number().int(), sending: z.number().int(), sent: z.number().int(), dead: z.number().int() }),
  /** Per UTC day, oldest first, the worst of the day's hourly snapshots; null where no snapshot was taken. */
  history: z.array(
    z.object({
      day: z.string(),
      snapshots: z.number().int(),
      invariant_problems: z.number().int().nullable(),
      pending_payments: z.number().int().nullable(),
      dead_messages: z.number().int().nullable(),
    }),
  ),
});
export type LedgerHealth = z.infer<typeof ledgerHealthSchema>;

// ---- Support inbox ----

export const opsTicketQuery = z.object({ status: z.enum(TICKET_STATUSES).optional() });
/** An inbox row; a contact-form ticket has no user, so no phone. */
export const opsTicketRow = operatorTicketSummarySchema.extend({ phone: z.string().nullable() });
export type OpsTicketRow = z.infer<typeof opsTicketRow>;
/** A ticket with its user, or the contact-form visitor it came from (`contact`). */
export const opsTicketDetail = ticketSchema.extend({ user: opsUserSchema.nullable(), contact: ticketSenderSchema.shape.contact });
export type OpsTicketDetail = z.infer<typeof opsTicketDetail>;
/** At most this many files with one reply. */
export const OPS_REPLY_MAX_ATTACHMENTS = 3;
export const opsTicketReplyBody = z.object({
  message: required(5000),
  attachments: z
    .array(z.object({ name: required(200), content: z.string().min(1).max(20_000_000) }))
    .max(OPS_REPLY_MAX_ATTACHMENTS)
    .default([]),
});

// ---- Card orders ----

export const opsCardOrderQuery = z.object({ status: z.enum(CARD_ORDER_STATUSES).optional() });
export const opsCardOrderRow = cardOrderSchema.extend({ user_id: z.uuid(), phone: z.string() });
export type OpsCardOrderRow = z.infer<typeof opsCardOrderRow>;
export const opsCardOrderMoveBody = z.discriminatedUnion('status', [
  z.object({ status: z.literal('in_production') }),
  z.object({ status: z.literal('shipped'), tracking_reference: required(100) }),
  z.object({ status: z.literal('delivered') }),
]);

/** The largest bank report the back office reads (docs/decisions/0049): its text, sent as JSON. */
export const BANK_REPORT_MAX_CHARS = 2 * 1024 * 1024;
/**
 * The bank's pain.002 or camt.054 answer to a sent batch, as the file's text: the preview and the import read the same
 * body. Its size is checked by the server (413 past BANK_REPORT_MAX_CHARS bytes), not here.
 */
export const bankReportBody = z.object({ file: z.string().min(1) });

/** What the report says of one payout of the batch, and what importing it does (or did). */
export const bankReportLineSchema = z.object({
  payout_id: z.uuid(),
  user_id: z.uuid(),
  holder: z.string(),
  amount_cents: money,
  /** The payout's status before this import. */
  status: opsPayoutSchema.shape.status,
  /** What the bank says: settled, rejected or returned, still in flight, or nothing about this payout. */
  reported: z.enum(['paid', 'returned', 'pending', 'not_reported']),
  reason_code: z.string().nullable(),
  /** The change the import makes: null when the payout stays as it is (already settled, still in flight, not named). */
  change: z.enum(['paid', 'returned']).nullable(),
});
export type BankReportLine = z.infer<typeof bankReportLineSchema>;

export const bankReportAnswer = z.object({
  format: z.enum(['pain.002.001.10', 'pain.002.001.03', 'camt.054.001.08', 'camt.054.001.02']),
  message_id: z.string(),
  lines: z.array(bankReportLineSchema),
  /** Preview: what confirming would change; import: what this call changed (a second import of one file changes nothing). */
  paid: z.number().int(),
  returned: z.number().int(),
  unchanged: z.number().int(),
});
export type BankReportAnswer = z.infer<typeof bankReportAnswer>;

/** A user a venue's page names (a member, an admin, who closed or locked a period), linking to their page. */
export const opsVenuePerson = z.object({ user_id: z.uuid(), public_name: z.string().nullable(), phone: z.string() });
export type OpsVenuePerson = z.infer<typeof opsVenuePerson>;

/** One team's percentage of the venue card's tips, in basis points (10000 = 100 %). */
const opsVenueTeamShare = z.object({ team_id: z.uuid(), title: z.string(), basis_points: z.number().int() });

/**
 * GET /api/ops/venues/{id} (issue 29): a venue (workplace) with its admins (decision 0057), its venue card and the
 * percentages between its teams (decision 0058), its tipping policy versions and its teams, each with its admin,
 * current members, split rule versions (newest first; none: the default even rule) and its closed periods.
 */
export const opsVenueDetail = z.object({
  id: z.uuid(),
  name: z.string(),
  country: z.string(),
  created_at: timestamp,
  created_by: opsVenuePerson,
  /** The venue's admins, the earliest first: since when, and who added them. */
  admins: z.array(opsVenuePerson.extend({ since: timestamp, added_by: opsVenuePerson })),
  /** The venue card once an admin has made it, else null. */
  venue_card: z.object({ card_id: z.uuid(), payment_url: z.string(), created_at: timestamp }).nullable(),
  percentages: z.object({
    /**
     * Every team's percentage in force: the version's (0 for a team made after it), or the default, even between the
     * teams, while `id` is null.
     */
    in_force: z.object({ id: z.uuid().nullable(), teams: z.array(opsVenueTeamShare) }),
    /** Every version set, newest first, with the shares as set. */
    versions: z.array(
      z.object({ id: z.uuid(), created_at: timestamp, created_by: opsVenuePerson, shares: z.array(opsVenueTeamShare) }),
    ),
  }),
  policies: z.array(
    z.object({ version: z.number().int(), text: z.string(), published_at: timestamp, published_by: opsVenuePerson }),
  ),
  teams: z.array(
    z.object({
      id: z.uuid(),
      title: z.string(),
      card_id: z.uuid(),
      created_at: timestamp,
      admin: opsVenuePerson,
      members: z.array(opsVenuePerson.extend({ joined_at: timestamp, role: z.string().nullable() })),
      rules: z.array(
        z.object({
          id: z.uuid(),
          kind: splitRuleSchema.shape.kind,
          points: z.record(z.string(), z.number().int()),
          created_at: timestamp,
          created_by: opsVenuePerson,
        }),
      ),
      periods: z.array(
        z.object({
          month: z.string(),
          state: z.enum(['closed', 'locked']),
          closed_at: timestamp,
          closed_by: opsVenuePerson,
          objections_until: timestamp,
          locked_at: timestamp.nullable(),
          locked_by: opsVenuePerson.nullable(),
          objections: z.number().int(),
          open_objections: z.number().int(),
        }),
      ),
    }),
  ),
});
export type OpsVenueDetail = z.infer<typeof opsVenueDetail>;
