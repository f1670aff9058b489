import { NOT_BLANK_SERVER_TEXT } from '@tipcard/shared/validation-rules';
import type { FastifyBaseLogger } from 'fastify';
import { normalizePhone } from '@tipcard/shared/auth/phone';
import type { CardOrderStatus } from '@tipcard/shared/card-orders/schemas';
import {
  RETURN_REASONS,
  type BankReportAnswer,
  type BankReportLine,
  type OperatorRole,
  type OpsQueueCounts,
  type OpsSearchHit,
  type ReturnReasonCode,
} from '@tipcard/shared/ops/schemas';
import { paymentReference } from '@tipcard/shared/payments/guest-form';
import { maskIban, maskUkAccount } from '@tipcard/shared/payouts/bank-details';
import type { TicketStatus } from '@tipcard/shared/support/schemas';
import type { ErrorCode } from '@tipcard/shared/errors/error-codes';
import type { PublicPayment } from '@tipcard/shared/payments/schemas';
import { isUuid, uuidPrefixRange } from '@tipcard/shared/uuid';
import type { Database, Executor } from '../../db/client.ts';
import type { ReadRouter } from '../../db/read-replica.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { csvOf } from '../../lib/csv.ts';
import { findCardOrdersInIdRange, type CardOrdersService, type OnOrderChange } from '../card-orders/card-orders.service.ts';
import { findCardRecipient, listCardsOfUser, searchCardOwnersByName } from '../cards/cards.service.ts';
import { findDonationsByDonorEmail, listDonationsOfUser } from '../donations/donations.service.ts';
import { findInvoicesInIdRange, listInvoicesOfUser } from '../invoices/invoices.service.ts';
import { readFile } from '../files/files.service.ts';
import { platformBalances, userBalances } from '../ledger/ledger.service.ts';
import {
  countDeadMessages,
  countMessagesByStatus,
  listMessagesMentioning,
  type MessagingService,
} from '../messaging/messaging.service.ts';
import {
  canBeRefunded,
  countPaymentsPendingSince,
  findPaymentsInIdRange,
  findPaymentWithShares,
  listEventsOfPayment,
  listPaymentsPendingSince,
  lockPayment,
  refundableCents,
  type PaymentsService,
} from '../payments/payments.service.ts';
import {
  applyPayoutOutcome,
  countBatchesToClose,
  createBatch,
  findPayoutMethodsByAccountEnd,
  findBatch,
  listBatches,
  listBatchPayouts,
  listPayoutsByStatus,
  listPayoutsOfUser,
  markBatchSent,
  pain001Blocks,
  parseBankReport,
  type BankReport,
  type PayoutRow,
  type SepaDebtor,
} from '../payouts/payouts.service.ts';
import type { OnTicketChange, OperatorAttachment, SupportService } from '../support/support.service.ts';
import { currentTeamOfUser, describeVenueForOps, searchVenues } from '../teams/teams.service.ts';
import { checkLedgerInvariants, recentTransactionsOfUser } from '../transactions/transactions.service.ts';
import { describeVenueCardForOps } from '../venue-tips/venue-tips.service.ts';
import { findUserById, findUserByPhone, lockUser, searchUsersByPhone, setUserBlock, type User } from '../users/users.service.ts';
import {
  countPendingVerifications,
  findLatestVerification,
  findVerification,
  listPendingVerifications,
  reviewVerification,
  ReviewError,
} from '../verification/verification.service.ts';
import { listAudit, recordAudit, type AuditContext } from './ops-audit.ts';
import * as repo from './ops.repository.ts';

export { CLI_ACTOR, recordAudit, type AuditEvent } from './ops-audit.ts';

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

const userSummary = (user: User) => ({
  id: user.id,
  phone: user.phone,
  created_at: user.createdAt.toISOString(),
  blocked: user.blockedAt !== null,
  blocked_reason: user.blockedReason,
});

const payoutView = (row: PayoutRow) => ({
  id: row.id,
  user_id: row.userId,
  amount_cents: row.amountCents,
  fee_cents: row.feeCents,
  status: row.status,
  rail: row.rail,
  batch_id: row.batchId,
  destination:
    row.destKind === 'sepa'
      ? `${row.destIban ?? ''} (${row.destBic ?? ''})`
      : `${row.destSortCode ?? ''} ${row.destAccountNumber ?? ''}`,
  holder: row.destHolder,
  return_reason: row.returnReason,
  created_at: row.createdAt.toISOString(),
  confirmed_at: iso(row.confirmedAt),
  paid_at: iso(row.paidAt),
  returned_at: iso(row.returnedAt),
});

const batchView = (row: NonNullable<Awaited<ReturnType<typeof findBatch>>>) => ({
  id: row.id,
  kind: row.kind,
  message_id: row.messageId,
  file_name: row.fileName,
  payout_count: row.payoutCount,
  total_cents: row.totalCents,
  status: row.status,
  created_at: row.createdAt.toISOString(),
  sent_at: iso(row.sentAt),
});

const DOCUMENT_FIELDS = {
  document_front: 'documentFrontFileId',
  document_back: 'documentBackFileId',
  registration_document: 'registrationDocumentFileId',
} as const;
export type DocumentField = keyof typeof DOCUMENT_FIELDS;

export interface OpsDeps {
  db: Database;
  /** The searches read from the replica when it is fresh enough (decision 0038). */
  reads: ReadRouter;
  clock: Clock;
  log: FastifyBaseLogger;
  messages: MessagingService;
  payments: PaymentsService;
  debtor: SepaDebtor | undefined;
  support: SupportService;
  cardOrders: CardOrdersService;
  publicUrl: string;
  refundApprovalCents: number;
  reconcileAfterMinutes: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/**
 * How long the caller that decided a refund is left to make it before a retry or the `ops.refunds` job makes it
 * instead: well beyond what refundPayment's few provider calls take with their retries (Stripe: 3 attempts of 15 s each).
 */
const REFUND_LEASE_MS = 5 * 60_000;
/** The provider's refusals of a refund: asking again under the same key is refused again. */
const REFUSALS: ReadonlySet<ErrorCode> = new Set(['refund_too_large', 'payment_not_refundable']);
/** How many hits of each kind one search answers. */
const SEARCH_LIMIT = 20;
/** The fewest hex digits searched as an id's start: a reference or an order number has 8; fewer would match too much. */
const MIN_ID_PREFIX = 6;
/** How many of a payment's provider events and messages its page lists. */
const STORY_LIMIT = 100;
/** How far back the ledger screen's counts over time go. */
const HEALTH_HISTORY_DAYS = 14;
/** The most records one audit export holds (a narrower filter gets the rest). */
const AUDIT_EXPORT_LIMIT = 10_000;
/** The back office's moves of a card order, named by the status they lead to. */
export type CardOrderMove = 'in_production' | 'shipped' | 'delivered';

export type OpsService = ReturnType<typeof createOpsService>;

/**
 * The back office's screens over the other modules' services. Every change writes one audit record, in the change's
 * own transaction where the change is ours to open.
 */
export function createOpsService(deps: OpsDeps) {
  const { db, clock } = deps;

  async function requireUser(userId: string) {
    const user = await findUserById(db, userId);
    if (!user) throw new AppError('not_found');
    return user;
  }

  /** A ticket with its conversation, and whose it is. */
  async function ticketDetail(id: string) {
    const { user_id: userId, ...ticket } = await deps.support.getForOperator(id);
    return { ...ticket, user: userId === null ? null : userSummary(await requireUser(userId)) };
  }

  /** Users' phones for list rows, looked up once per user. */
  async function phonesOf(userIds: string[]) {
    const unique = [...new Set(userIds)];
    const users = await Promise.all(unique.map((id) => findUserById(db, id)));
    return new Map(unique.map((id, index) => [id, users[index]?.phone ?? '']));
  }

  /** The audit record of an operator's change of a ticket, written in the change's transaction. */
  const ticketAudit =
    (context: AuditContext, action: string, extra: Record<string, unknown> = {}): OnTicketChange =>
    (tx, change) =>
      recordAudit(tx, context, {
        action,
        subjectType: 'ticket',
        subjectId: change.ticket.id,
        before: { status: change.ticket.status },
        after: { status: change.status, ...extra, ...(change.attachments.length > 0 ? { attachments: change.attachments } : {}) },
      });

  /** The audit record of an operator's move of a card order, written in the move's transaction. */
  const orderAudit =
    (context: AuditContext, action: string): OnOrderChange =>
    (tx, { before, after }) =>
      recordAudit(tx, context, {
        action,
        subjectType: 'card_order',
        subjectId: after.id,
        before: { status: before.status },
        after: {
          status: after.status,
          ...(after.tracking_reference && after.tracking_reference !== before.trackingReference
            ? { tracking_reference: after.tracking_reference }
            : {}),
          ...(action === 'card_order.cancel' && before.paymentId && before.status !== 'awaiting_payment'
            ? { refunded_cents: before.totalCents }
            : {}),
        },
      });

  /** One payout's outcome and its audit record in one transaction; false when the payout was not in flight. */
  async function markOutcome(
    context: AuditContext,
    payoutId: string,
    outcome: { state: 'paid' } | { state: 'returned'; reason: string },
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      if (!(await applyPayoutOutcome(tx, payoutId, outcome, clock.now()))) return false;
      await recordAudit(tx, context, {
        action: `payout.${outcome.state}`,
        subjectType: 'payout',
        subjectId: payoutId,
        before: { status: 'in_flight' },
        after: { status: outcome.state, ...(outcome.state === 'returned' ? { reason: outcome.reason } : {}) },
      });
      return true;
    });
  }

  /** The stored return reason: the ISO code and, when we know it, its English meaning (as an operator's marking). */
  const storedReason = (code: string | null) =>
    code === null
      ? 'Returned by the bank'
      : `${code} ${code in RETURN_REASONS ? RETURN_REASONS[code as ReturnReasonCode] : 'Returned by the bank'}`;

  /**
   * A bank report read against a sent SEPA batch (docs/decisions/0049): the preview and the import both start here,
   * from the same file. A report that names another message id, a payment block or an end-to-end id this batch does
   * not have is refused as a whole. Each payout's line says what the bank reported and what would change: only a
   * payout still in flight moves, to paid or returned.
   */
  async function readBankReport(batchId: string, xml: string) {
    const batch = await findBatch(db, batchId);
    if (!batch) throw new AppError('not_found');
    if (batch.status !== 'sent') throw new AppError('batch_not_sent');
    const report = await parseBankReport(xml);
    if (batch.kind !== 'sepa') throw new AppError('bank_report_foreign');
    const payouts = await listBatchPayouts(db, batch.id);
    const byEndToEndId = new Map(payouts.map((payout) => [payout.id.replaceAll('-', ''), payout]));
    const blocks = pain001Blocks(batch.content);
    const foreign =
      report.lines.length + report.blocks.length + (report.group ? 1 : 0) === 0 ||
      report.originalMessageIds.some((id) => id !== batch.messageId) ||
      report.lines.some((line) => !byEndToEndId.has(line.endToEndId)) ||
      report.blocks.some((block) => !blocks.has(block.id));
    if (foreign) throw new AppError('bank_report_foreign');

    // What the report says of each payout: its own line first, else its payment block's status, else the file's.
    const rank = { returned: 3, paid: 2, pending: 1 } as const;
    const said = new Map<string, { outcome: BankReport['lines'][number]['outcome']; reasonCode: string | null }>();
    const say = (endToEndId: string, outcome: BankReport['lines'][number]['outcome'], reasonCode: string | null) => {
      const before = said.get(endToEndId);
      // A transfer booked and then returned in one notification ends returned.
      if (!before || rank[outcome] > rank[before.outcome]) said.set(endToEndId, { outcome, reasonCode });
    };
    for (const line of report.lines) say(line.endToEndId, line.outcome, line.reasonCode);
    for (const block of report.blocks) {
      if (block.outcome === null) continue;
      for (const endToEndId of blocks.get(block.id) ?? []) {
        if (!said.has(endToEndId)) say(endToEndId, block.outcome, block.outcome === 'returned' ? block.reasonCode : null);
      }
    }
    if (report.group) {
      for (const endToEndId of byEndToEndId.keys()) {
        if (!said.has(endToEndId))
          say(endToEndId, report.group.outcome, report.group.outcome === 'returned' ? report.group.reasonCode : null);
      }
    }
    const lines: BankReportLine[] = payouts.map((payout) => {
      const reported = said.get(payout.id.replaceAll('-', ''));
      const settles = reported && reported.outcome !== 'pending' ? reported.outcome : null;
      return {
        payout_id: payout.id,
        user_id: payout.userId,
        holder: payout.destHolder,
        amount_cents: payout.amountCents,
        status: payout.status,
        reported: reported?.outcome ?? 'not_reported',
        reason_code: reported?.reasonCode ?? null,
        change: payout.status === 'in_flight' ? settles : null,
      };
    });
    return { batch, report, lines };
  }

  const bankReportAnswerOf = (report: BankReport, lines: BankReportLine[]): BankReportAnswer => ({
    format: report.format,
    message_id: report.messageId,
    lines,
    paid: lines.filter((line) => line.change === 'paid').length,
    returned: lines.filter((line) => line.change === 'returned').length,
    unchanged: lines.filter((line) => line.change === null).length,
  });

  async function changeBlock(context: AuditContext, userId: string, block: boolean, reason: string) {
    const now = clock.now();
    return db.transaction(async (tx) => {
      const before = await lockUser(tx, userId);
      if (!before) throw new AppError('not_found');
      if ((before.blockedAt !== null) === block) throw new AppError('ops_conflict');
      const after = (await setUserBlock(
        tx,
        userId,
        block ? { blockedAt: now, blockedReason: reason } : { blockedAt: null, blockedReason: null },
      ))!;
      await recordAudit(tx, context, {
        action: block ? 'user.block' : 'user.unblock',
        subjectType: 'user',
        subjectId: userId,
        before: { blocked: before.blockedAt !== null, blocked_reason: before.blockedReason },
        after: { blocked: block, blocked_reason: after.blockedReason, reason },
      });
      return userSummary(after);
    });
  }

  const leaseEnd = (now: Date) => new Date(now.getTime() + REFUND_LEASE_MS);
  /** A refund made without a second operator is no approval request of its own: its answer names none. */
  const requestIdOf = (row: repo.RefundRequestRow) => (row.decidedBy === null && row.status !== 'pending' ? null : row.id);

  /** How a refund request stands, as its requester or approver is answered; a refused refund answers its refusal again. */
  function answerOf(row: repo.RefundRequestRow, paymentStatus: string) {
    const answer = (status: 'refunded' | 'awaiting_approval' | 'refunding' | 'rejected') => ({
      status,
      payment_status: paymentStatus,
      request_id: requestIdOf(row),
    });
    switch (row.status) {
      case 'pending':
        return answer('awaiting_approval');
      case 'refunding':
        return answer('refunding');
      case 'rejected':
        return answer('rejected');
      case 'failed':
        throw new AppError(row.failure as ErrorCode);
      case 'refunded':
      case 'approved':
        return answer('refunded');
    }
  }

  /**
   * Makes a decided refund (`refunding`, its lease held by this caller) through the provider under the request's own
   * key, then ends it: refunded, or failed when the provider refuses (the error is thrown on, and answered to any retry).
   * A crash or a provider that cannot be reached leaves it `refunding`: once the lease runs out, a retry or the
   * `ops.refunds` job drives it again under the same key, which refunds once.
   */
  async function drive(context: AuditContext, row: repo.RefundRequestRow, before: { status: string; refunded_cents: number }) {
    let after: PublicPayment;
    try {
      after = await deps.payments.refundPayment(row.paymentId, row.amountCents, `ops-request:${row.id}`);
    } catch (error) {
      if (error instanceof AppError && REFUSALS.has(error.code)) {
        await db.transaction(async (tx) => {
          if (!(await repo.endRefunding(tx, row.id, { status: 'failed', failure: error.code }))) return;
          await recordAudit(tx, context, {
            action: 'refund.fail',
            subjectType: 'payment',
            subjectId: row.paymentId,
            before: { request_status: 'refunding' },
            after: { request_status: 'failed', request_id: row.id, failure: error.code },
          });
        });
      }
      throw error;
    }
    const ended = await db.transaction(async (tx) => {
      const done = await repo.endRefunding(tx, row.id, { status: 'refunded' });
      if (!done) return (await repo.findRefundRequest(tx, row.id))!;
      await recordAudit(tx, context, {
        action: 'payment.refund',
        subjectType: 'payment',
        subjectId: row.paymentId,
        before,
        after: { status: after.status, amount_cents: row.amountCents, reason: row.reason, request_id: requestIdOf(row) },
      });
      return done;
    });
    return answerOf(ended, after.status);
  }

  /**
   * The users a text names: by user, card or payment id, by phone in any format (+371 2…, 00371…, spaces, dashes) or
   * some of its digits, or by a card's public name or title.
   */
  async function userIdsMatching(db: Executor, text: string): Promise<Set<string>> {
    const ids = new Set<string>();
    if (isUuid(text)) {
      const id = text.toLowerCase();
      if (await findUserById(db, id)) ids.add(id);
      const card = await findCardRecipient(db, id);
      if (card) ids.add(card.userId);
      const payment = await findPaymentWithShares(db, id);
      for (const share of payment?.shares ?? []) if (share.userId) ids.add(share.userId);
      return ids;
    }
    const dialled = text.replace(/[\s().-]/g, '').replace(/^00/, '+');
    const phone = normalizePhone(dialled);
    const exact = phone ? await findUserByPhone(db, phone) : undefined;
    if (exact) ids.add(exact.id);
    const digits = dialled.replace(/^\+/, '');
    if (/^\d{3,}$/.test(digits)) for (const user of await searchUsersByPhone(db, digits, SEARCH_LIMIT)) ids.add(user.id);
    for (const owner of await searchCardOwnersByName(db, text, SEARCH_LIMIT)) ids.add(owner.userId);
    return ids;
  }

  /** The audit context of a refund driven by the job: the operator whose decision it was, from no address. */
  async function deciderOf(row: repo.RefundRequestRow): Promise<AuditContext> {
    const operator = (await repo.findOperatorById(db, row.decidedBy ?? row.requestedBy))!;
    return { actor: { operatorId: operator.id, label: operator.email }, ip: null };
  }

  return {
    /** By phone (in any format, or digits of it), user, card or payment id, or a card's public name or title. */
    async searchUsers(query: string, operatorId: string) {
      const text = query.trim();
      if (text.length < 2) return [];
      const db = await deps.reads.reader('opsSearch', `operator:${operatorId}`);
      const users = await Promise.all([...(await userIdsMatching(db, text))].slice(0, 50).map((id) => findUserById(db, id)));
      return users.filter((user): user is User => user !== undefined).map(userSummary);
    },

    /**
     * The one search box (issue 27): whatever a guest or a user quotes, grouped by kind on screen. A payment's short
     * reference ("a42c5fab", any case), an invoice or order number or any id's first digits, a phone in any format,
     * a donor's e-mail, the last digits of a payout account, a card's or a venue's name; each kind at most SEARCH_LIMIT
     * hits.
     */
    async search(query: string, operatorId: string): Promise<OpsSearchHit[]> {
      const text = query.trim();
      if (text.length < 2) return [];
      const db = await deps.reads.reader('opsSearch', `operator:${operatorId}`);
      const hits: OpsSearchHit[] = [];
      const compact = text.replace(/[\s#]/g, '');
      const range = compact.replace(/-/g, '').length >= MIN_ID_PREFIX ? uuidPrefixRange(compact) : null;
      const account = text.replace(/\s/g, '').toUpperCase();
      const byAccount = /^\d{4,}$/.test(account) || /^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/.test(account);
      const email = text.includes('@') ? text.toLowerCase() : null;
      const [userIds, paymentRows, invoiceRows, orderRows, card, donationRows, methodRows, venues] = await Promise.all([
        userIdsMatching(db, text),
        range ? findPaymentsInIdRange(db, range, SEARCH_LIMIT) : [],
        range ? findInvoicesInIdRange(db, range, SEARCH_LIMIT) : [],
        range ? findCardOrdersInIdRange(db, range, SEARCH_LIMIT) : [],
        isUuid(text) ? findCardRecipient(db, text.toLowerCase()) : null,
        email ? findDonationsByDonorEmail(db, email, SEARCH_LIMIT) : [],
        byAccount ? findPayoutMethodsByAccountEnd(db, account, SEARCH_LIMIT) : [],
        searchVenues(db, text, range, SEARCH_LIMIT),
      ]);
      for (const payment of paymentRows) {
        hits.push({
          kind: 'payment',
          id: payment.id,
          title: paymentReference(payment.id),
          detail: `${payment.purpose} · ${payment.status} · ${payment.description}`,
          amount_cents: payment.totalCents,
          created_at: payment.createdAt.toISOString(),
          user_id: null,
          payment_id: payment.id,
        });
      }
      const users = await Promise.all([...userIds].slice(0, SEARCH_LIMIT).map((id) => findUserById(db, id)));
      for (const user of users) {
        if (!user) continue;
        hits.push({
          kind: 'user',
          id: user.id,
          title: user.phone,
          detail: user.blockedAt ? `blocked: ${user.blockedReason ?? ''}` : 'active',
          amount_cents: null,
          created_at: user.createdAt.toISOString(),
          user_id: user.id,
          payment_id: null,
        });
      }
      if (card) {
        hits.push({
          kind: 'card',
          id: card.cardId,
          title: card.publicName,
          detail: card.title,
          amount_cents: null,
          created_at: null,
          user_id: card.userId,
          payment_id: null,
        });
      }
      for (const venue of venues) {
        hits.push({
          kind: 'venue',
          id: venue.id,
          title: venue.name,
          detail: `venue · ${venue.country}`,
          amount_cents: null,
          created_at: venue.createdAt.toISOString(),
          user_id: null,
          payment_id: null,
        });
      }
      for (const donation of donationRows) {
        hits.push({
          kind: 'donation',
          id: donation.paymentId,
          title: donation.donorEmail,
          detail: `${donation.donorName} · ${donation.status}`,
          amount_cents: donation.amountCents,
          created_at: donation.createdAt.toISOString(),
          user_id: donation.userId,
          payment_id: donation.paymentId,
        });
      }
      for (const invoice of invoiceRows) {
        hits.push({
          kind: 'invoice',
          id: invoice.id,
          title: invoice.id.slice(0, 8),
          detail: `${invoice.description} · ${invoice.status}`,
          amount_cents: invoice.amountCents,
          created_at: invoice.createdAt.toISOString(),
          user_id: invoice.userId,
          payment_id: invoice.paidPaymentId,
        });
      }
      for (const order of orderRows) {
        hits.push({
          kind: 'card_order',
          id: order.id,
          title: order.id.slice(0, 8),
          detail: `${order.quantity} × ${order.product} · ${order.status}`,
          amount_cents: order.totalCents,
          created_at: order.createdAt.toISOString(),
          user_id: order.userId,
          payment_id: order.paymentId,
        });
      }
      for (const method of methodRows) {
        hits.push({
          kind: 'payout_method',
          id: method.id,
          title: method.kind === 'sepa' ? maskIban(method.iban!) : maskUkAccount(method.accountNumber!, method.sortCode!),
          detail: method.holder,
          amount_cents: null,
          created_at: method.createdAt.toISOString(),
          user_id: method.userId,
          payment_id: null,
        });
      }
      return hits;
    },

    /** Everything support needs about one user. */
    async userDetail(userId: string) {
      const user = await requireUser(userId);
      const [cards, balances, history, payouts, verification, team, invoices, donations, tickets] = await Promise.all([
        listCardsOfUser(db, userId),
        userBalances(db, userId),
        recentTransactionsOfUser(db, userId, 50),
        listPayoutsOfUser(db, userId, 50),
        findLatestVerification(db, userId),
        currentTeamOfUser(db, userId),
        listInvoicesOfUser(db, userId, deps.publicUrl),
        listDonationsOfUser(db, userId),
        deps.support.listOfUser(userId),
      ]);
      return {
        user: userSummary(user),
        cards: cards.map((card) => ({
          id: card.id,
          title: card.title,
          public_name: card.publicName,
          activity_type: card.activityType,
          is_private: card.isPrivate,
        })),
        balances: { main_cents: balances.main, hold_cents: balances.hold, debt_cents: balances.debt },
        history: history.map((row) => ({
          id: row.id,
          type: row.type,
          status: row.status,
          amount_cents: row.amountCents,
          fee_cents: row.feeCents,
          payment_id: row.paymentId ?? null,
          created_at: row.createdAt.toISOString(),
        })),
        payouts: payouts.map(payoutView),
        verification: verification
          ? {
              id: verification.id,
              status: verification.status,
              kind: verification.kind,
              created_at: verification.createdAt.toISOString(),
            }
          : null,
        team,
        invoices,
        donations,
        tickets,
      };
    },

    /**
     * A venue, its admins, venue card and percentages, teams, rules and periods (issue 29): read-only, from the
     * replica when it is fresh enough.
     */
    async venueDetail(workplaceId: string, operatorId: string) {
      const db = await deps.reads.reader('opsSearch', `operator:${operatorId}`);
      const venue = await describeVenueForOps(db, workplaceId, (person) =>
        describeVenueCardForOps(db, workplaceId, { publicUrl: deps.publicUrl, now: deps.clock.now(), person }),
      );
      if (!venue) throw new AppError('not_found');
      return venue;
    },

    blockUser: (context: AuditContext, userId: string, reason: string) => changeBlock(context, userId, true, reason),
    unblockUser: (context: AuditContext, userId: string, reason: string) => changeBlock(context, userId, false, reason),

    async listPendingVerifications() {
      const rows = await listPendingVerifications(db, 200);
      const users = await Promise.all(rows.map((row) => findUserById(db, row.userId)));
      return rows.map((row, index) => ({
        id: row.id,
        user_id: row.userId,
        phone: users[index]?.phone ?? '',
        kind: row.kind,
        created_at: row.createdAt.toISOString(),
      }));
    },

    async verificationDetail(id: string) {
      const row = await findVerification(db, id);
      if (!row) throw new AppError('not_found');
      const user = await requireUser(row.userId);
      const documents = (Object.keys(DOCUMENT_FIELDS) as DocumentField[]).filter((field) => row[DOCUMENT_FIELDS[field]] !== null);
      return {
        id: row.id,
        user: userSummary(user),
        kind: row.kind,
        status: row.status,
        details: row.details,
        documents,
        rejection_reason: row.rejectionReason,
        created_at: row.createdAt.toISOString(),
        reviewed_at: iso(row.reviewedAt),
      };
    },

    async verificationDocument(id: string, field: DocumentField) {
      const row = await findVerification(db, id);
      const fileId = row?.[DOCUMENT_FIELDS[field]];
      const file = fileId ? await readFile(db, fileId) : undefined;
      if (!file) throw new AppError('not_found');
      return file;
    },

    /** Approve, or reject with a reason the user sees: the verification module's own decision, audited in its transaction. */
    async decideVerification(context: AuditContext, id: string, decision: 'approve' | 'reject', reason: string | null) {
      const row = await findVerification(db, id);
      if (!row) throw new AppError('not_found');
      const user = await requireUser(row.userId);
      if (row.status !== 'pending') throw new AppError('ops_conflict');
      try {
        return await reviewVerification(
          db,
          deps.messages,
          { user, decision, reason, now: clock.now() },
          async (tx, before, after) => {
            if (before.id !== id) throw new AppError('ops_conflict');
            await recordAudit(tx, context, {
              action: `verification.${decision}`,
              subjectType: 'verification',
              subjectId: id,
              before: { status: before.status },
              after: { status: after.status, rejection_reason: after.rejectionReason },
            });
          },
        );
      } catch (error) {
        if (error instanceof ReviewError) {
          throw decision === 'reject' && !reason?.trim()
            ? AppError.field('validation_failed', 'reason', NOT_BLANK_SERVER_TEXT)
            : new AppError('ops_conflict');
        }
        throw error;
      }
    },

    async listPayouts(status: PayoutRow['status'] | undefined) {
      return (await listPayoutsByStatus(db, status, 500)).map(payoutView);
    },

    async listBatches() {
      return (await listBatches(db)).map(batchView);
    },

    async batchDetail(id: string) {
      const batch = await findBatch(db, id);
      if (!batch) throw new AppError('not_found');
      return { ...batchView(batch), payouts: (await listBatchPayouts(db, batch.id)).map(payoutView) };
    },

    async batchFile(id: string) {
      const batch = await findBatch(db, id);
      if (!batch) throw new AppError('not_found');
      return { fileName: batch.fileName, content: batch.content, kind: batch.kind };
    },

    /**
     * A SEPA or UK file of every confirmed payout up to now. The ledger invariants are checked first and shown; a
     * failing check refuses the batch (createBatch checks again itself, with the payouts locked).
     */
    async createBatch(context: AuditContext, kind: 'sepa' | 'uk') {
      const problems = await checkLedgerInvariants(db);
      if (problems.length > 0) return { invariant_problems: problems, batch: null };
      const now = clock.now();
      const batch = await createBatch({ db, log: deps.log, debtor: deps.debtor }, kind, now, now);
      if (batch) {
        await db.transaction((tx) =>
          recordAudit(tx, context, {
            action: 'payout_batch.create',
            subjectType: 'payout_batch',
            subjectId: batch.id,
            before: null,
            after: { kind, payout_count: batch.payoutCount, total_cents: batch.totalCents },
          }),
        );
      }
      return { invariant_problems: [], batch: batch ? batchView(batch) : null };
    },

    async markBatchSent(context: AuditContext, id: string) {
      const batch = await findBatch(db, id);
      if (!batch) throw new AppError('not_found');
      const now = clock.now();
      return db.transaction(async (tx) => {
        if (!(await markBatchSent(tx, id, now))) throw new AppError('ops_conflict');
        await recordAudit(tx, context, {
          action: 'payout_batch.sent',
          subjectType: 'payout_batch',
          subjectId: id,
          before: { status: batch.status },
          after: { status: 'sent' },
        });
        return { ...batchView(batch), status: 'sent' as const, sent_at: now.toISOString() };
      });
    },

    /** The bank's answer for one payout: paid, or returned with an ISO reason (amount and fee back on main). */
    async markPayout(context: AuditContext, id: string, outcome: 'paid' | 'returned', reasonCode?: ReturnReasonCode) {
      const reason = reasonCode ? `${reasonCode} ${RETURN_REASONS[reasonCode]}` : 'Returned by the bank';
      if (!(await markOutcome(context, id, outcome === 'paid' ? { state: 'paid' } : { state: 'returned', reason })))
        throw new AppError('ops_conflict');
      return { id, status: outcome };
    },

    /**
     * The bank paid a sent file: every payout of it still in flight is marked paid, each in its own transaction with
     * its audit record, so a payout marked returned meanwhile (or by a second operator at once) is left as it is and
     * none is marked twice. Answers how many this call marked.
     */
    async markBatchPaid(context: AuditContext, id: string) {
      const batch = await findBatch(db, id);
      if (!batch) throw new AppError('not_found');
      if (batch.status !== 'sent') throw new AppError('ops_conflict');
      let marked = 0;
      for (const payout of await listBatchPayouts(db, id)) {
        if (payout.status === 'in_flight' && (await markOutcome(context, payout.id, { state: 'paid' }))) marked += 1;
      }
      return { marked };
    },

    /** What importing the bank's report would do to each payout of the batch; nothing changes. */
    async previewBankReport(batchId: string, xml: string): Promise<BankReportAnswer> {
      const { report, lines } = await readBankReport(batchId, xml);
      return bankReportAnswerOf(report, lines);
    },

    /**
     * Imports the bank's report: each payout it settles moves through the operator's own path (its outcome, ledger
     * entry and audit record in one transaction), then one audit record of the import. Idempotent by the payouts'
     * state: a payout already settled (by an earlier import, a second operator at once, or by hand) stays as it is
     * and counts as unchanged, so the same file twice changes nothing the second time.
     */
    async importBankReport(context: AuditContext, batchId: string, xml: string): Promise<BankReportAnswer> {
      const { batch, report, lines } = await readBankReport(batchId, xml);
      const done: BankReportLine[] = [];
      for (const line of lines) {
        const outcome =
          line.change === 'paid'
            ? ({ state: 'paid' } as const)
            : line.change === 'returned'
              ? ({ state: 'returned', reason: storedReason(line.reason_code) } as const)
              : null;
        const changed = outcome !== null && (await markOutcome(context, line.payout_id, outcome));
        done.push({ ...line, change: changed ? line.change : null });
      }
      const answer = bankReportAnswerOf(report, done);
      await db.transaction((tx) =>
        recordAudit(tx, context, {
          action: 'payout_batch.bank_report',
          subjectType: 'payout_batch',
          subjectId: batch.id,
          before: null,
          after: {
            format: answer.format,
            report_message_id: answer.message_id,
            paid: answer.paid,
            returned: answer.returned,
            unchanged: answer.unchanged,
          },
        }),
      );
      return answer;
    },

    /**
     * A payment's whole story: what was paid for what, who received what, its refund requests and how each ended,
     * disputes (its held amount and the provider's dispute events), what the provider told us, the messages that name
     * its reference, and the back office's records of it.
     */
    async paymentDetail(paymentId: string) {
      const found = await findPaymentWithShares(db, paymentId);
      if (!found) throw new AppError('not_found');
      const { payment, shares } = found;
      const reference = paymentReference(payment.id);
      const [card, refunds, events, messages, audit] = await Promise.all([
        payment.purpose === 'tip' || payment.purpose === 'team_tip' || payment.purpose === 'venue_tip'
          ? findCardRecipient(db, payment.subjectId)
          : null,
        repo.listRefundRequestsOfPayment(db, payment.id),
        listEventsOfPayment(db, payment.id, STORY_LIMIT),
        listMessagesMentioning(db, reference, payment.createdAt, STORY_LIMIT),
        listAudit(db, { subjectType: 'payment', subjectId: payment.id }),
      ]);
      return {
        id: payment.id,
        reference,
        purpose: payment.purpose,
        status: payment.status,
        description: payment.description,
        amount_cents: payment.amountCents,
        total_cents: payment.totalCents,
        fee_cents: payment.feeCents,
        cover_fee: payment.coverFee,
        refunded_cents: payment.refundedCents,
        disputed_cents: payment.disputedCents,
        refundable_cents: canBeRefunded(payment) ? refundableCents(payment) : 0,
        provider: payment.provider,
        provider_ref: payment.providerRef,
        created_at: payment.createdAt.toISOString(),
        subject_id: payment.subjectId,
        card: card ? { id: card.cardId, user_id: card.userId, public_name: card.publicName } : null,
        shares: shares.map((share) => ({
          user_id: share.userId,
          platform_account: share.platformAccount,
          net_cents: share.netCents,
          fee_cents: share.feeCents,
          reversed_net_cents: share.reversedNetCents,
          reversed_fee_cents: share.reversedFeeCents,
          released_at: iso(share.releasedAt),
        })),
        refunds: refunds.map(({ request, requestedByEmail, decidedByEmail }) => ({
          id: request.id,
          status: request.status,
          amount_cents: request.amountCents,
          reason: request.reason,
          requested_by: requestedByEmail,
          decided_by: decidedByEmail,
          decided_at: iso(request.decidedAt),
          decline_reason: request.declineReason,
          failure: request.failure,
          created_at: request.createdAt.toISOString(),
        })),
        events: events.map((event) => ({
          event_id: event.eventId,
          type: event.type,
          // Not applied yet: recorded, waiting for the workers (decision 0060).
          outcome: event.outcome ?? 'recorded',
          received_at: event.receivedAt.toISOString(),
        })),
        messages: messages.map((message) => ({
          id: message.id,
          channel: message.channel,
          recipient: message.recipient,
          subject: message.subject,
          status: message.status,
          created_at: message.createdAt.toISOString(),
        })),
        audit,
      };
    },

    /**
     * A refund through the provider (decision 0022). It is made at once while everything refunded of the payment
     * without approval stays within REFUND_APPROVAL_CENTS; above, it waits for a second finance operator. It is
     * refused unless the payment can give that much back, counting what other requests hold. The Idempotency-Key names
     * the request on its payment: the same key answers it again, whatever the timing (the payment's lock queues twins).
     */
    async requestRefund(
      context: AuditContext,
      input: { paymentId: string; amountCents: number; reason: string; idempotencyKey: string },
    ) {
      const now = clock.now();
      const decided = await db.transaction(async (tx) => {
        const payment = await lockPayment(tx, input.paymentId);
        if (!payment) throw new AppError('not_found');
        const before = { status: payment.status, refunded_cents: payment.refundedCents };
        const twin = await repo.findRefundRequestByKey(tx, payment.id, input.idempotencyKey);
        if (twin) {
          if (
            twin.amountCents !== input.amountCents ||
            twin.reason !== input.reason ||
            twin.requestedBy !== context.actor.operatorId
          ) {
            throw new AppError('idempotency_key_reused');
          }
          // A twin of a refund nobody drives any more (its first call died) drives it again.
          const idle = twin.status === 'refunding' && twin.leaseUntil !== null && twin.leaseUntil <= now;
          const row = idle ? await repo.updateRefundRequest(tx, twin.id, { leaseUntil: leaseEnd(now) }) : twin;
          return { row, before, drive: idle, paymentStatus: payment.status };
        }
        if (!canBeRefunded(payment)) throw new AppError('payment_not_refundable');
        const totals = await repo.refundTotalsOfPayment(tx, payment.id);
        if (input.amountCents > refundableCents(payment) - totals.heldCents) throw new AppError('refund_too_large');
        const atOnce = totals.withoutApprovalCents + input.amountCents <= deps.refundApprovalCents;
        const row = await repo.insertRefundRequest(tx, {
          paymentId: payment.id,
          amountCents: input.amountCents,
          reason: input.reason,
          requestedBy: context.actor.operatorId!,
          idempotencyKey: input.idempotencyKey,
          status: atOnce ? 'refunding' : 'pending',
          leaseUntil: atOnce ? leaseEnd(now) : null,
          createdAt: now,
        });
        if (!atOnce) {
          await recordAudit(tx, context, {
            action: 'refund.request',
            subjectType: 'payment',
            subjectId: payment.id,
            before: null,
            after: { request_id: row.id, amount_cents: input.amountCents, reason: input.reason },
          });
        }
        return { row, before, drive: atOnce, paymentStatus: payment.status };
      });
      return decided.drive ? drive(context, decided.row, decided.before) : answerOf(decided.row, decided.paymentStatus);
    },

    async listRefundRequests() {
      return (await repo.listRefundRequests(db, ['pending', 'refunding'])).map(({ request, requestedByEmail }) => ({
        id: request.id,
        status: request.status as 'pending' | 'refunding',
        payment_id: request.paymentId,
        payment_reference: paymentReference(request.paymentId),
        amount_cents: request.amountCents,
        reason: request.reason,
        requested_by: request.requestedBy,
        requested_by_email: requestedByEmail,
        created_at: request.createdAt.toISOString(),
      }));
    },

    /**
     * A second finance operator's approval: the requester cannot approve their own refund. It is refused while the
     * payment cannot give that much back (nothing changes; the request waits to be declined), and the refund is made
     * in the same call. Approving a refund under way that nobody drives any more (a crash) drives it again.
     */
    async approveRefund(context: AuditContext, requestId: string) {
      const found = await repo.findRefundRequest(db, requestId);
      if (!found) throw new AppError('not_found');
      const now = clock.now();
      const claimed = await db.transaction(async (tx) => {
        // The payment first, as every refund decision locks it, then the request.
        const payment = (await lockPayment(tx, found.paymentId))!;
        const row = (await repo.findRefundRequestForUpdate(tx, requestId))!;
        const before = { status: payment.status, refunded_cents: payment.refundedCents };
        if (row.status === 'failed') throw new AppError(row.failure as ErrorCode);
        if (row.status === 'refunding' && row.leaseUntil !== null && row.leaseUntil <= now) {
          return { row: await repo.updateRefundRequest(tx, row.id, { leaseUntil: leaseEnd(now) }), before };
        }
        if (row.status !== 'pending') throw new AppError('ops_conflict');
        if (row.requestedBy === context.actor.operatorId) throw new AppError('refund_needs_second_operator');
        if (!canBeRefunded(payment)) throw new AppError('payment_not_refundable');
        const { refundingCents } = await repo.refundTotalsOfPayment(tx, payment.id);
        if (row.amountCents > refundableCents(payment) - refundingCents) throw new AppError('refund_too_large');
        const approved = await repo.updateRefundRequest(tx, row.id, {
          status: 'refunding',
          decidedBy: context.actor.operatorId,
          decidedAt: now,
          leaseUntil: leaseEnd(now),
        });
        await recordAudit(tx, context, {
          action: 'refund.approve',
          subjectType: 'payment',
          subjectId: row.paymentId,
          before: { request_status: 'pending' },
          after: { request_status: 'approved', request_id: row.id },
        });
        return { row: approved, before };
      });
      return drive(context, claimed.row, claimed.before);
    },

    /**
     * A finance operator declines a waiting refund, saying why: nothing is refunded, and the request leaves the list.
     * The payment is locked first, as an approval locks it, so an approval and a decline of one request queue and the
     * second finds it decided.
     */
    async declineRefund(context: AuditContext, requestId: string, reason: string) {
      const found = await repo.findRefundRequest(db, requestId);
      if (!found) throw new AppError('not_found');
      const now = clock.now();
      return db.transaction(async (tx) => {
        const payment = (await lockPayment(tx, found.paymentId))!;
        const row = (await repo.findRefundRequestForUpdate(tx, requestId))!;
        if (row.status !== 'pending') throw new AppError('ops_conflict');
        const declined = await repo.updateRefundRequest(tx, row.id, {
          status: 'rejected',
          decidedBy: context.actor.operatorId,
          decidedAt: now,
          declineReason: reason,
        });
        await recordAudit(tx, context, {
          action: 'refund.decline',
          subjectType: 'payment',
          subjectId: row.paymentId,
          before: { request_status: 'pending' },
          after: { request_status: 'rejected', request_id: row.id, reason },
        });
        return answerOf(declined, payment.status);
      });
    },

    /**
     * The work waiting, for the menu's badges: each queue the role may see (admin sees all), null for the others.
     * Counts only, so the menu can ask often.
     */
    async queueCounts(role: OperatorRole): Promise<OpsQueueCounts> {
      const sees = (queueRole: OperatorRole) => role === 'admin' || role === queueRole;
      const [tickets, verifications, refunds, batches, messages] = await Promise.all([
        sees('support') ? deps.support.countForOperators('open') : null,
        sees('compliance') ? countPendingVerifications(db) : null,
        sees('finance') ? repo.countRefundRequests(db, 'pending') : null,
        sees('finance') ? countBatchesToClose(db) : null,
        sees('finance') ? countDeadMessages(db) : null,
      ]);
      return {
        tickets_waiting: tickets,
        verifications_to_review: verifications,
        refunds_to_approve: refunds,
        batches_to_close: batches,
        dead_messages: messages,
      };
    },

    /**
     * Finishes one refund under way whose lease ran out (its driver crashed, or the provider could not be reached):
     * under the request's own key it refunds once. Answers false when none is idle.
     */
    async resumeOneRefund(now: Date): Promise<boolean> {
      const row = await db.transaction((tx) => repo.claimIdleRefund(tx, now, leaseEnd(now)));
      if (!row) return false;
      const payment = (await findPaymentWithShares(db, row.paymentId))!.payment;
      try {
        await drive(await deciderOf(row), row, { status: payment.status, refunded_cents: payment.refundedCents });
      } catch (error) {
        // A refusal has ended the request as failed; anything else is driven again when the lease runs out.
        deps.log.warn({ err: error, requestId: row.id }, 'could not finish a refund under way');
      }
      return true;
    },

    /** The invariant check, platform balances, payments pending past reconciliation, message delivery states. */
    async ledgerHealth() {
      const now = clock.now();
      const today = Math.floor(now.getTime() / DAY) * DAY;
      const firstDay = today - (HEALTH_HISTORY_DAYS - 1) * DAY;
      const [problems, balances, pending, messages, snapshots] = await Promise.all([
        checkLedgerInvariants(db),
        platformBalances(db),
        listPaymentsPendingSince(db, new Date(now.getTime() - deps.reconcileAfterMinutes * 60_000), 100),
        countMessagesByStatus(db),
        repo.listHealthSnapshotsSince(db, new Date(firstDay)),
      ]);
      // Per UTC day, the worst of its hourly snapshots; a day without any says so (null) rather than zero.
      const history = Array.from({ length: HEALTH_HISTORY_DAYS }, (_, index) => {
        const start = firstDay + index * DAY;
        const day = snapshots.filter((row) => row.hour.getTime() >= start && row.hour.getTime() < start + DAY);
        const worst = (pick: (row: repo.HealthSnapshotRow) => number) => (day.length > 0 ? Math.max(...day.map(pick)) : null);
        return {
          day: new Date(start).toISOString().slice(0, 10),
          snapshots: day.length,
          invariant_problems: worst((row) => row.invariantProblems),
          pending_payments: worst((row) => row.pendingPayments),
          dead_messages: worst((row) => row.deadMessages),
        };
      });
      return {
        checked_at: now.toISOString(),
        invariant_problems: problems,
        platform_balances: balances,
        pending_payments: pending.map((payment) => ({
          id: payment.id,
          purpose: payment.purpose,
          total_cents: payment.totalCents,
          created_at: payment.createdAt.toISOString(),
        })),
        messages: {
          pending: messages.pending ?? 0,
          sending: messages.sending ?? 0,
          sent: messages.sent ?? 0,
          dead: messages.dead ?? 0,
        },
        history,
      };
    },

    /**
     * Snapshots the ledger's health once per hour: answers false at once when this hour's is taken (the runner asks
     * often), so the invariant check runs once an hour.
     */
    async takeHealthSnapshot(now: Date): Promise<boolean> {
      const hour = new Date(Math.floor(now.getTime() / HOUR) * HOUR);
      if (await repo.hasHealthSnapshot(db, hour)) return false;
      const [problems, pendingPayments, messages] = await Promise.all([
        checkLedgerInvariants(db),
        countPaymentsPendingSince(db, new Date(now.getTime() - deps.reconcileAfterMinutes * 60_000)),
        countMessagesByStatus(db),
      ]);
      return repo.insertHealthSnapshot(db, {
        hour,
        invariantProblems: problems.length,
        pendingPayments,
        deadMessages: messages.dead ?? 0,
      });
    },

    // ---- Support inbox ----

    async listTickets(status: TicketStatus | undefined) {
      const tickets = await deps.support.listForOperators(status);
      const phones = await phonesOf(tickets.flatMap((ticket) => (ticket.user_id === null ? [] : [ticket.user_id])));
      return tickets.map((ticket) => ({ ...ticket, phone: ticket.user_id === null ? null : (phones.get(ticket.user_id) ?? '') }));
    },

    ticketDetail,

    ticketAttachment: (id: string, attachmentId: string) => deps.support.downloadForOperator(id, attachmentId),

    /** The support module's reply (waits for the user, tells them by SMS), audited in its transaction. */
    async replyToTicket(context: AuditContext, id: string, message: string, attachments: readonly OperatorAttachment[]) {
      await deps.support.replyAsOperator(id, message, {
        attachments,
        onChanged: ticketAudit(context, 'ticket.reply', { message_length: message.trim().length }),
      });
      return ticketDetail(id);
    },

    async closeTicket(context: AuditContext, id: string) {
      await deps.support.close(id, ticketAudit(context, 'ticket.close'));
      return ticketDetail(id);
    },

    async reopenTicket(context: AuditContext, id: string) {
      await deps.support.reopen(id, ticketAudit(context, 'ticket.reopen'));
      return ticketDetail(id);
    },

    // ---- Card orders ----

    async listCardOrders(status: CardOrderStatus | undefined) {
      const orders = await deps.cardOrders.listForOperators(status);
      const phones = await phonesOf(orders.map((order) => order.user_id));
      return orders.map((order) => ({ ...order, phone: phones.get(order.user_id) ?? '' }));
    },

    cardOrderPrintFile: (id: string) => deps.cardOrders.printFile(id),

    /** The card-orders module's moves, each from the states it allows, audited in its transaction. */
    moveCardOrder(context: AuditContext, id: string, move: CardOrderMove, trackingReference?: string) {
      const cardOrders = deps.cardOrders;
      switch (move) {
        case 'in_production':
          return cardOrders.startProduction(id, orderAudit(context, 'card_order.in_production'));
        case 'shipped':
          return cardOrders.ship(id, trackingReference ?? '', orderAudit(context, 'card_order.shipped'));
        case 'delivered':
          return cardOrders.markDelivered(id, orderAudit(context, 'card_order.delivered'));
      }
    },

    /** Cancels an order not yet shipped, refunding it in full first when it was paid. */
    cancelCardOrder: (context: AuditContext, id: string) =>
      deps.cardOrders.cancelOrder(id, orderAudit(context, 'card_order.cancel')),

    listAudit: (filter: repo.AuditFilter, limit?: number) => listAudit(db, filter, limit),

    /**
     * The filtered audit log as a CSV file, newest first, up to AUDIT_EXPORT_LIMIT records. Taking the log out of the
     * back office is itself recorded, with the filters and the count, after the records it exports.
     */
    async exportAudit(filter: repo.AuditFilter, context: AuditContext) {
      const records = await listAudit(db, filter, AUDIT_EXPORT_LIMIT);
      const json = (value: Record<string, unknown> | null) => (value ? JSON.stringify(value) : null);
      const content = csvOf(
        ['when', 'actor', 'action', 'subject_type', 'subject_id', 'before', 'after', 'ip'],
        records.map((r) => [r.created_at, r.actor, r.action, r.subject_type, r.subject_id, json(r.before), json(r.after), r.ip]),
      );
      const filters = Object.fromEntries(
        Object.entries(filter)
          .filter(([, value]) => value !== undefined)
          .map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
      );
      await recordAudit(db, context, {
        action: 'audit.export',
        subjectType: 'audit_log',
        subjectId: 'export',
        before: null,
        after: { filters, records: records.length },
      });
      return { fileName: `tipcard-audit-${clock.now().toISOString().slice(0, 10)}.csv`, content };
    },
  };
}
