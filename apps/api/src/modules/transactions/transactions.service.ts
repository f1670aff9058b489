import type { Overview, Transaction, TransactionsPage, transactionsFilter, transactionsQuery } from '@tipcard/shared/transactions/schemas';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { lockBalances, postEntry, type AccountRef } from '../ledger/ledger.service.ts';
import { requireOwnClient } from '../users/users.service.ts';
import * as repo from './transactions.repository.ts';

type Query = z.output<typeof transactionsQuery>;
type Filter = z.output<typeof transactionsFilter>;

/** A succeeded tip as the ledger and the history need it. */
export interface ReceivedTip {
  paymentId: string;
  userId: string;
  cardId: string;
  totalCents: number;
  feeCents: number;
  netCents: number;
  message: string | null;
  rating: number | null;
  description: string;
}

const PSP_CLEARING: AccountRef = { platform: 'psp_clearing' };
const FEES: AccountRef = { platform: 'fees' };

/**
 * Credits a succeeded tip: the staff member's hold gets the net amount, the platform its fee, and the provider owes
 * us the total. The PAYIN stays on HOLD until `settleDueAt`. Idempotent by the payment's reference.
 */
export async function recordTipReceived(tx: Executor, tip: ReceivedTip, now: Date, settleDueAt: Date): Promise<boolean> {
  const inserted = await repo.insertTransactionOnce(tx, {
    userId: tip.userId,
    cardId: tip.cardId,
    paymentId: tip.paymentId,
    type: 'PAYIN',
    status: 'HOLD',
    amountCents: tip.netCents,
    feeCents: tip.feeCents,
    description: tip.description,
    message: tip.message,
    rating: tip.rating,
    createdAt: now,
    settleDueAt,
  });
  if (!inserted) return false;
  // Last in the transaction: the platform's accounts are locked by every tip, so they are held for the shortest time.
  await postEntry(tx, {
    kind: 'tip_received',
    reference: `payment:${tip.paymentId}:received`,
    postings: [
      { account: PSP_CLEARING, amountCents: -tip.totalCents },
      { account: { userId: tip.userId, kind: 'hold' }, amountCents: tip.netCents },
      ...(tip.feeCents > 0 ? [{ account: FEES, amountCents: tip.feeCents }] : []),
    ],
  });
  return true;
}

/**
 * Takes back what is left of a tip after a refund or chargeback: from hold while it is held, from main once paid;
 * what main no longer has (already withdrawn) is recorded as the user's debt, never hidden. The platform returns its
 * fee and the provider no longer owes the total. Marks the PAYIN REFUNDED. Idempotent by the payment's reference.
 */
export async function reverseTip(tx: Executor, paymentId: string, totalCents: number, kind: 'refund' | 'chargeback', now: Date) {
  const transaction = await repo.findTransactionOfPaymentForUpdate(tx, paymentId);
  if (!transaction || transaction.status === 'REFUNDED') return false;
  const main: AccountRef = { userId: transaction.userId, kind: 'main' };
  const hold: AccountRef = { userId: transaction.userId, kind: 'hold' };
  const debt: AccountRef = { userId: transaction.userId, kind: 'debt' };
  const balanceOf = await lockBalances(tx, [PSP_CLEARING, FEES, main, hold, debt]);
  const net = transaction.amountCents;
  const source =
    transaction.status === 'HOLD'
      ? [{ account: hold, amountCents: -net }]
      : (() => {
          const fromMain = Math.min(net, Math.max(0, balanceOf(main)));
          return [
            ...(fromMain > 0 ? [{ account: main, amountCents: -fromMain }] : []),
            ...(net - fromMain > 0 ? [{ account: debt, amountCents: -(net - fromMain) }] : []),
          ];
        })();
  await postEntry(tx, {
    kind: kind === 'refund' ? 'tip_refunded' : 'tip_charged_back',
    reference: `payment:${paymentId}:reversed`,
    postings: [
      { account: PSP_CLEARING, amountCents: totalCents },
      ...source.filter((posting) => posting.amountCents !== 0),
      ...(transaction.feeCents > 0 ? [{ account: FEES, amountCents: -transaction.feeCents }] : []),
    ],
  });
  await repo.updateTransaction(tx, transaction.id, { status: 'REFUNDED', refundedAt: now, settleDueAt: null });
  return true;
}

/**
 * Moves every tip whose hold has ended from hold to main, one database transaction per tip; rows another worker has
 * claimed are skipped. Safe to run on many workers at once and to be killed at any line. Answers how many it settled.
 */
export async function settleDueTips(db: Database, now: Date, limit = 500): Promise<number> {
  let settled = 0;
  while (settled < limit) {
    const done = await db.transaction(async (tx) => {
      const due = await repo.claimDueHoldAsPaid(tx, now);
      if (!due) return false;
      await postEntry(tx, {
        kind: 'tip_settled',
        reference: `payment:${due.paymentId}:settled`,
        postings: [
          { account: { userId: due.userId, kind: 'hold' }, amountCents: -due.amountCents },
          { account: { userId: due.userId, kind: 'main' }, amountCents: due.amountCents },
        ],
      });
      return true;
    });
    if (!done) break;
    settled += 1;
  }
  return settled;
}

/**
 * The history row of a confirmed withdrawal: PAYOUT / HOLD with its amount and fee, until the rail answers. The
 * ledger entry is the payout module's; this is only the user-facing view of it. Idempotent by the payout id.
 */
export async function recordPayoutHold(
  tx: Executor,
  payout: { payoutId: string; userId: string; amountCents: number; feeCents: number; description: string },
  now: Date,
): Promise<boolean> {
  return repo.insertPayoutTransactionOnce(tx, {
    userId: payout.userId,
    payoutId: payout.payoutId,
    type: 'PAYOUT',
    status: 'HOLD',
    amountCents: payout.amountCents,
    feeCents: payout.feeCents,
    description: payout.description,
    createdAt: now,
  });
}

/** The rail's answer on the PAYOUT row: PAID when the bank took it, REFUNDED when it came back to main. */
export async function settlePayoutTransaction(tx: Executor, payoutId: string, outcome: 'PAID' | 'REFUNDED', now: Date) {
  await repo.updateTransactionOfPayout(tx, payoutId, outcome === 'PAID' ? { status: 'PAID', settledAt: now } : { status: 'REFUNDED', refundedAt: now });
}

function toTransaction(row: repo.TransactionRow): Transaction {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    amount_cents: row.amountCents,
    fee_cents: row.feeCents,
    currency: 'EUR',
    created_at: row.createdAt.toISOString(),
    settled_at: row.settledAt?.toISOString() ?? null,
    description: row.description,
    message: row.message,
    rating: row.rating,
  };
}

const encodeCursor = (row: repo.TransactionRow) => Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (Number.isNaN(createdAt.getTime()) || !id || !/^[0-9a-f-]{36}$/i.test(id)) {
    throw new AppError('validation_failed', { validationErrors: { cursor: ['Enter valid data'] } });
  }
  return { createdAt, id };
}

function filterOf(query: Filter & { cursor?: string | undefined }): repo.TransactionFilter {
  if (query.from && query.to && query.from > query.to) {
    throw new AppError('validation_failed', { validationErrors: { to: ['Enter valid data'] } });
  }
  return { type: query.type, status: query.status, from: query.from, to: query.to, before: query.cursor ? decodeCursor(query.cursor) : undefined };
}

/** One page of the owner's history, newest first, with the cursor of the next page. */
export async function listClientTransactions(db: Executor, userId: string, clientId: string, query: Query): Promise<TransactionsPage> {
  const client = await requireOwnClient(db, userId, clientId);
  const rows = await repo.listTransactions(db, client.userId, filterOf(query), query.limit + 1);
  const page = rows.slice(0, query.limit);
  return { items: page.map(toTransaction), next_cursor: rows.length > query.limit ? encodeCursor(page.at(-1)!) : null };
}

const CSV_COLUMNS = ['id', 'type', 'status', 'amount', 'fee', 'currency', 'created_at', 'settled_at', 'description', 'message', 'rating'] as const;
const CSV_MAX_ROWS = 10_000;

/** A cell as RFC 4180 text; a leading = + - @ is neutralised, since guests write the messages (formula injection). */
function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const euros = (cents: number) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/** The filtered history as CSV (amounts in EUR with a dot), at most 10,000 rows. */
export async function exportClientTransactionsCsv(db: Executor, userId: string, clientId: string, filter: Filter): Promise<string> {
  const client = await requireOwnClient(db, userId, clientId);
  const rows = await repo.listTransactions(db, client.userId, filterOf(filter), CSV_MAX_ROWS);
  const lines = rows.map((row) => {
    const item = toTransaction(row);
    return [item.id, item.type, item.status, euros(item.amount_cents), euros(item.fee_cents), item.currency, item.created_at, item.settled_at, item.description, item.message, item.rating]
      .map(csvCell)
      .join(',');
  });
  return `${[CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}

/** What the user has received in tips, net of fees, refunds and chargebacks excluded (the verification limit's measure). */
export function receivedTotalCents(db: Executor, userId: string): Promise<number> {
  return repo.receivedTotalCents(db, userId);
}

/** The overview page's figures for the owner. */
export async function clientOverview(db: Executor, userId: string, clientId: string, now: Date): Promise<Overview> {
  const client = await requireOwnClient(db, userId, clientId);
  const [figures, latest] = await Promise.all([
    repo.overviewFigures(db, client.userId, now),
    repo.listTransactions(db, client.userId, {}, 5),
  ]);
  return {
    received_today_cents: figures.todayCents,
    received_week_cents: figures.weekCents,
    received_month_cents: figures.monthCents,
    tip_count: figures.count,
    average_rating: figures.averageRating,
    latest: latest.map(toTransaction),
    currency: 'EUR',
  };
}
