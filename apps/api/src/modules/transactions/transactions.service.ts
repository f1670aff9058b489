import type {
  Overview,
  Transaction,
  TransactionsPage,
  transactionsFilter,
  transactionsQuery,
} from '@tipcard/shared/transactions/schemas';
import type { z } from 'zod';
import { DEFAULT_LOCALE, type Locale } from '@tipcard/shared/constants';
import { describeTransaction, type TransactionDetail } from '@tipcard/shared/transactions/detail';
import { UUID_PATTERN } from '@tipcard/shared/uuid';
import { decimalAmount } from '@tipcard/shared/money/format';
import type { Executor } from '../../db/client.ts';
import type { ReadRouter } from '../../db/read-replica.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { checkLedger, platformBalance, userBalancesOfKind } from '../ledger/ledger.service.ts';
import { requireOwnClient } from '../users/users.service.ts';
import * as repo from './transactions.repository.ts';
import { csvOf } from '../../lib/csv.ts';
import { announce, announceMany } from '../messaging/messaging.service.ts';
import { t } from '../../lib/i18n.ts';

type Query = z.output<typeof transactionsQuery>;
type Filter = z.output<typeof transactionsFilter>;

/** A recipient's share of a succeeded payment, as their history shows it. */
export interface ReceivedPayin {
  allocationId: string;
  paymentId: string;
  userId: string;
  /** The card it came through, when there is one (tips). */
  cardId: string | null;
  netCents: number;
  feeCents: number;
  detail: TransactionDetail;
  message: string | null;
  rating: number | null;
}

/**
 * What a live notice names as the credit's source: the public title of the card or team, the donor's given name, the
 * invoice's description; nothing for a referral (its detail is the friend's masked phone) or a closing gift.
 */
function liveLabelOf(detail: TransactionDetail): string | null {
  switch (detail.kind) {
    case 'tip':
      return detail.card;
    case 'team_tip':
    case 'team_adjustment':
      return detail.team;
    case 'venue_tip':
      return detail.venue;
    case 'invoice':
      return detail.invoice;
    case 'donation':
    case 'monthly_donation':
      return detail.donor;
    default:
      return null;
  }
}

/**
 * The history writers below are where every credit to a user and every payout's change passes: each announces it to
 * the user's open apps (decision 0041) in the same transaction, once, when its row is first written or changed.
 */
type Credit = {
  kind: Exclude<TransactionDetail['kind'], 'payout' | 'closing_gift_given' | 'team_adjustment_given'>;
  amountCents: number;
  label: string | null;
  paymentId: string | null;
};

const creditBody = (credit: Credit) =>
  ({
    type: 'credit',
    kind: credit.kind,
    amount_cents: credit.amountCents,
    currency: 'EUR',
    label: credit.label,
    payment_id: credit.paymentId,
  }) as const;

const credited = (tx: Executor, userId: string, credit: Credit, now: Date) => announce(tx, userId, creditBody(credit), now);

const payoutChanged = (
  tx: Executor,
  payout: { userId: string; payoutId: string; amountCents: number },
  status: 'requested' | 'in_flight' | 'paid' | 'returned',
  now: Date,
) =>
  announce(
    tx,
    payout.userId,
    { type: 'payout', status, amount_cents: payout.amountCents, currency: 'EUR', payout_id: payout.payoutId },
    now,
  );

/** A withdrawal asked for, waiting for its texted code: the user's other open apps show it. */
export async function announcePayoutRequested(
  tx: Executor,
  payout: { userId: string; payoutId: string; amountCents: number },
  now: Date,
): Promise<void> {
  await payoutChanged(tx, payout, 'requested', now);
}

/** The PAYIN row of a share just credited to hold: HOLD until the share is released. Idempotent by the share. */
export async function recordPayin(tx: Executor, payin: ReceivedPayin, now: Date): Promise<void> {
  await recordPayins(tx, [payin], now);
}

/**
 * The PAYIN rows of many shares just credited (a batch of payments, decision 0060), as `recordPayin` writes each: all
 * rows in one statement, each once by its share, and the live notices of those written now in one more.
 */
export async function recordPayins(tx: Executor, payins: readonly ReceivedPayin[], now: Date): Promise<void> {
  if (payins.length === 0) return;
  const inserted = await repo.insertPayinsOnce(
    tx,
    payins.map((payin) => ({
      userId: payin.userId,
      cardId: payin.cardId,
      paymentId: payin.paymentId,
      allocationId: payin.allocationId,
      type: 'PAYIN' as const,
      status: 'HOLD' as const,
      amountCents: payin.netCents,
      feeCents: payin.feeCents,
      ...described(payin.detail),
      message: payin.message,
      rating: payin.rating,
      createdAt: now,
    })),
  );
  const notices = payins.flatMap((payin) => {
    const { detail } = payin;
    if (!inserted.has(payin.allocationId)) return [];
    if (detail.kind === 'payout' || detail.kind === 'closing_gift_given' || detail.kind === 'team_adjustment_given') return [];
    return [
      {
        userId: payin.userId,
        body: creditBody({
          kind: detail.kind,
          amountCents: payin.netCents,
          label: liveLabelOf(detail),
          paymentId: payin.paymentId,
        }),
      },
    ];
  });
  await announceMany(tx, notices, now);
}

/**
 * Shows a share's current state on its PAYIN row: what refunds and disputes took back, REFUNDED once all of it is
 * gone, otherwise PAID when released from hold and HOLD before.
 */
export async function showPayinState(
  tx: Executor,
  share: { allocationId: string; refundedCents: number; fullyTakenBack: boolean; released: boolean },
  now: Date,
): Promise<void> {
  await repo.updatePayinOfAllocation(
    tx,
    share.allocationId,
    share.fullyTakenBack
      ? { status: 'REFUNDED', refundedCents: share.refundedCents, refundedAt: now }
      : { status: share.released ? 'PAID' : 'HOLD', refundedCents: share.refundedCents, refundedAt: null },
  );
}

/** A share released from hold to main: its PAYIN becomes PAID (unless it was all taken back). */
export async function markPayinPaid(tx: Executor, allocationId: string, now: Date): Promise<void> {
  for (const row of await repo.markPayinPaid(tx, allocationId, now)) {
    if (!row.paymentId) continue;
    const body = {
      type: 'released',
      amount_cents: row.amountCents - row.refundedCents,
      currency: 'EUR',
      payment_id: row.paymentId,
    } as const;
    await announce(tx, row.userId, body, now);
  }
}

/**
 * The history row of a confirmed withdrawal: PAYOUT / HOLD with its amount and fee, until the rail answers. The
 * ledger entry is the payout module's; this is only the user-facing view of it. Idempotent by the payout id.
 */
export async function recordPayoutHold(
  tx: Executor,
  payout: { payoutId: string; userId: string; amountCents: number; feeCents: number; account: string },
  now: Date,
): Promise<boolean> {
  const inserted = await repo.insertPayoutTransactionOnce(tx, {
    userId: payout.userId,
    payoutId: payout.payoutId,
    type: 'PAYOUT',
    status: 'HOLD',
    amountCents: payout.amountCents,
    feeCents: payout.feeCents,
    ...described({ kind: 'payout', account: payout.account }),
    createdAt: now,
  });
  if (inserted) await payoutChanged(tx, payout, 'in_flight', now);
  return inserted;
}

/** The REFERRAL_PAYIN row of a referral reward credited to main: PAID at once (the reward job is its only writer). */
export async function recordReferralPayin(
  tx: Executor,
  payin: { userId: string; amountCents: number; friend: string },
  now: Date,
): Promise<void> {
  await repo.insertTransaction(tx, {
    userId: payin.userId,
    type: 'REFERRAL_PAYIN',
    status: 'PAID',
    amountCents: payin.amountCents,
    ...described({ kind: 'referral', friend: payin.friend }),
    createdAt: now,
    settledAt: now,
  });
  await credited(tx, payin.userId, { kind: 'referral', amountCents: payin.amountCents, label: null, paymentId: null }, now);
}

/**
 * Both sides of a closing gift (decision 0029), PAID at once as the money is on the charity's main: the giver's PAYOUT
 * row names the charity, the charity's PAYIN row (on the card it went to) names no giver. Written once, in the
 * transaction of the ledger entry that moved the money.
 */
export async function recordClosingGift(
  tx: Executor,
  gift: { giverId: string; charityId: string; cardId: string; charity: string; amountCents: number },
  now: Date,
): Promise<void> {
  const common = { status: 'PAID' as const, amountCents: gift.amountCents, createdAt: now, settledAt: now };
  await repo.insertTransaction(tx, {
    ...common,
    userId: gift.giverId,
    type: 'PAYOUT',
    ...described({ kind: 'closing_gift_given', charity: gift.charity }),
  });
  await repo.insertTransaction(tx, {
    ...common,
    userId: gift.charityId,
    cardId: gift.cardId,
    type: 'PAYIN',
    ...described({ kind: 'closing_gift' }),
  });
  await credited(tx, gift.charityId, { kind: 'closing_gift', amountCents: gift.amountCents, label: null, paymentId: null }, now);
}

/**
 * Both sides of a team period's adjustment (decision 0059), PAID at once as the money moved main to main, the way a
 * closing gift's rows are: the giver's PAYOUT row and the receiver's PAYIN row, each naming the team and the month.
 * Written once, in the transaction of the ledger entry that moved the money.
 */
export async function recordTeamAdjustment(
  tx: Executor,
  adjustment: { fromUserId: string; toUserId: string; team: string; month: string; amountCents: number },
  now: Date,
): Promise<void> {
  const common = { status: 'PAID' as const, amountCents: adjustment.amountCents, createdAt: now, settledAt: now };
  const about = { team: adjustment.team, month: adjustment.month };
  await repo.insertTransaction(tx, {
    ...common,
    userId: adjustment.fromUserId,
    type: 'PAYOUT',
    ...described({ kind: 'team_adjustment_given', ...about }),
  });
  await repo.insertTransaction(tx, {
    ...common,
    userId: adjustment.toUserId,
    type: 'PAYIN',
    ...described({ kind: 'team_adjustment', ...about }),
  });
  const credit = {
    kind: 'team_adjustment' as const,
    amountCents: adjustment.amountCents,
    label: adjustment.team,
    paymentId: null,
  };
  await credited(tx, adjustment.toUserId, credit, now);
}

/** The rail's answer on the PAYOUT row: PAID when the bank took it, REFUNDED when it came back to main. */
export async function settlePayoutTransaction(tx: Executor, payoutId: string, outcome: 'PAID' | 'REFUNDED', now: Date) {
  const rows = await repo.updateTransactionOfPayout(
    tx,
    payoutId,
    outcome === 'PAID' ? { status: 'PAID', settledAt: now } : { status: 'REFUNDED', refundedAt: now },
  );
  for (const row of rows) {
    await payoutChanged(tx, { ...row, payoutId }, outcome === 'PAID' ? 'paid' : 'returned', now);
  }
}

/** A row's detail with its English line, which the back office (English only) reads. */
const described = (detail: TransactionDetail) => ({ detail, description: describe({ detail, description: '' }, DEFAULT_LOCALE) });

const describe = (row: { detail: TransactionDetail | null; description: string }, locale: Locale) =>
  describeTransaction(row, (key, vars) => t(key, vars, locale));

function toTransaction(row: repo.TransactionRow, locale: Locale): Transaction {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    amount_cents: row.amountCents,
    fee_cents: row.feeCents,
    currency: 'EUR',
    created_at: row.createdAt.toISOString(),
    settled_at: row.settledAt?.toISOString() ?? null,
    description: describe(row, locale),
    ...(row.detail ? { detail: row.detail } : {}),
    message: row.message,
    rating: row.rating,
  };
}

const encodeCursor = (row: repo.TransactionRow) => Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');

/** `<ISO instant>|<uuid>` exactly as encodeCursor writes it, in the years the date rule allows. */
const CURSOR = new RegExp(String.raw`^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\|${UUID_PATTERN}$`);

/** A cursor is input: anything but one this service wrote (a hand-made instant or id) is refused before SQL. */
function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = CURSOR.exec(text);
  const [at = '', id = ''] = text.split('|');
  const createdAt = new Date(at);
  const year = Number(match?.[1]);
  // Round-tripping the instant refuses days that do not exist (2020-02-31), which Date would roll over.
  if (!match || Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== at || year < 2000 || year > 2100) {
    throw new AppError('validation_failed', { validationErrors: { cursor: ['Enter valid data'] } });
  }
  return { createdAt, id };
}

function filterOf(query: Filter & { cursor?: string | undefined }): repo.TransactionFilter {
  if (query.from && query.to && query.from > query.to) {
    throw new AppError('validation_failed', { validationErrors: { to: ['Enter valid data'] } });
  }
  return {
    type: query.type,
    status: query.status,
    from: query.from,
    to: query.to,
    before: query.cursor ? decodeCursor(query.cursor) : undefined,
  };
}

const CSV_COLUMNS = [
  'id',
  'type',
  'status',
  'amount',
  'fee',
  'currency',
  'created_at',
  'settled_at',
  'description',
  'message',
  'rating',
] as const;
const CSV_MAX_ROWS = 10_000;

/** What the user has received in payments, net of fees, what refunds and chargebacks took back excluded (the verification limit's measure). */
export function receivedTotalCents(db: Executor, userId: string): Promise<number> {
  return repo.receivedTotalCents(db, userId);
}

/** Users whose hold balance differs from what their history shows on hold (PAYINs on HOLD, less what was taken back). */
async function holdMismatches(db: Executor): Promise<string[]> {
  const [kept, rows] = await Promise.all([userBalancesOfKind(db, 'hold'), repo.heldPayinsByUser(db)]);
  const shown = new Map(rows.map((row) => [row.userId, Number(row.cents)]));
  const users = new Set([...kept.keys(), ...shown.keys()]);
  return [...users]
    .filter((userId) => (kept.get(userId) ?? 0) !== (shown.get(userId) ?? 0))
    .map((userId) => `user ${userId} has ${kept.get(userId) ?? 0} on hold but ${shown.get(userId) ?? 0} in HOLD transactions`);
}

/**
 * The platform's payouts_in_flight against the withdrawals the users see in flight (PAYOUT rows on HOLD): money that
 * left main must be either in flight, paid out or back on main, never lost between.
 */
async function inFlightMismatch(db: Executor): Promise<string[]> {
  const [inFlight, onHold] = await Promise.all([platformBalance(db, 'payouts_in_flight'), repo.payoutsOnHoldCents(db)]);
  return inFlight === onHold ? [] : [`payouts_in_flight keeps ${inFlight} but ${onHold} is in PAYOUT rows on HOLD`];
}

/** The history read model against the ledger: each user's hold, and the withdrawals in flight; empty when they agree. */
export async function checkTransactionsAgainstLedger(db: Executor): Promise<string[]> {
  const [holds, inFlight] = await Promise.all([holdMismatches(db), inFlightMismatch(db)]);
  return [...holds, ...inFlight];
}

/**
 * The whole check of the money, as a list of problems (empty when the books are right): the ledger's own invariants
 * (`checkLedger`), then the history read model against it. It lives here, not in the ledger, because the ledger knows
 * no read model, and the history is the one read model of the ledger. Tests run it after every money test; the
 * back office's ledger health and the payout work run it before they trust the books.
 */
export async function checkLedgerInvariants(db: Executor): Promise<string[]> {
  const [ledger, history] = await Promise.all([checkLedger(db), checkTransactionsAgainstLedger(db)]);
  return [...ledger, ...history];
}

export type TransactionsService = ReturnType<typeof createTransactionsService>;

/**
 * The owner's history pages: the list, its CSV and the overview's figures, read from the replica when it is fresh
 * enough (`reads`, decision 0038). `monthlyDonations` (from `donations`, injected in services.ts) gives the overview
 * its monthly donors and their monthly total, on the executor it is given.
 */
export function createTransactionsService({
  reads,
  clock,
  monthlyDonations,
}: {
  reads: ReadRouter;
  clock: Clock;
  monthlyDonations: (db: Executor, userId: string) => Promise<{ donors: number; totalCents: number }>;
}) {
  return {
    /** One page of the owner's history, newest first, with the cursor of the next page. */
    async list(userId: string, clientId: string, query: Query, locale: Locale = DEFAULT_LOCALE): Promise<TransactionsPage> {
      const db = await reads.reader('history', `user:${userId}`);
      const client = await requireOwnClient(db, userId, clientId);
      const rows = await repo.listTransactions(db, client.userId, filterOf(query), query.limit + 1);
      const page = rows.slice(0, query.limit);
      return {
        items: page.map((row) => toTransaction(row, locale)),
        next_cursor: rows.length > query.limit ? encodeCursor(page.at(-1)!) : null,
      };
    },

    /** The filtered history as CSV (amounts in EUR with a dot, descriptions in the reader's language), at most 10,000 rows. */
    async exportCsv(userId: string, clientId: string, filter: Filter, locale: Locale = DEFAULT_LOCALE): Promise<string> {
      const db = await reads.reader('export', `user:${userId}`);
      const client = await requireOwnClient(db, userId, clientId);
      const rows = await repo.listTransactions(db, client.userId, filterOf(filter), CSV_MAX_ROWS);
      return csvOf(
        CSV_COLUMNS,
        rows.map((row) => {
          const item = toTransaction(row, locale);
          return [
            item.id,
            item.type,
            item.status,
            decimalAmount(item.amount_cents),
            decimalAmount(item.fee_cents),
            item.currency,
            item.created_at,
            item.settled_at,
            item.description,
            item.message,
            item.rating,
          ];
        }),
      );
    },

    /** The overview page's figures for the owner: today, this week and this month by the clock. */
    async overview(userId: string, clientId: string, locale: Locale = DEFAULT_LOCALE): Promise<Overview> {
      const db = await reads.reader('overview', `user:${userId}`);
      const client = await requireOwnClient(db, userId, clientId);
      const [figures, latest, monthly] = await Promise.all([
        repo.overviewFigures(db, client.userId, clock.now()),
        repo.listTransactions(db, client.userId, {}, 5),
        monthlyDonations(db, client.userId),
      ]);
      return {
        received_today_cents: figures.todayCents,
        received_week_cents: figures.weekCents,
        received_month_cents: figures.monthCents,
        tip_count: figures.count,
        average_rating: figures.averageRating,
        latest: latest.map((row) => toTransaction(row, locale)),
        monthly_donations: { donors: monthly.donors, total_cents: monthly.totalCents },
        currency: 'EUR',
      };
    },
  };
}

/**
 * The payment behind one of the user's received history rows (the tip a recipient answers: decision 0047); null for
 * another user's row, a payout or a referral reward.
 */
export async function paymentOfPayin(db: Executor, userId: string, transactionId: string): Promise<string | null> {
  return (await repo.findPayinOfUser(db, userId, transactionId))?.paymentId ?? null;
}

/** A user's newest history rows, for the back office (no ownership check: role-checked routes). */
export const recentTransactionsOfUser = (db: Executor, userId: string, limit: number) =>
  repo.listTransactions(db, userId, {}, limit);

/**
 * The five-year purge of an erased account: its history (descriptions, guests' messages and ratings) is deleted. The
 * ledger keeps the amounts; an erased account holds no money, so no HOLD row the invariants compare goes with it.
 */
export async function purgeTransactionsOfUser(tx: Executor, userId: string): Promise<void> {
  await repo.deleteTransactionsOfUser(tx, userId);
}
