import { and, desc, eq, getTableColumns, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { transactionDailyTotals, transactions } from '../../db/schema/transactions.ts';

export type TransactionRow = typeof transactions.$inferSelect;
export type TransactionType = TransactionRow['type'];
export type TransactionStatus = TransactionRow['status'];

/** Calendar days are Latvian days: the service's home time zone (DESIGN "Payouts"). */
const ZONE = 'Europe/Riga';

export interface TransactionFilter {
  type?: TransactionType | undefined;
  status?: TransactionStatus | undefined;
  /** Inclusive calendar days, YYYY-MM-DD. */
  from?: string | undefined;
  to?: string | undefined;
  /** Keyset position: strictly older than this. */
  before?: { createdAt: Date; id: string } | undefined;
}

function conditions(userId: string, filter: TransactionFilter): SQL | undefined {
  return and(
    eq(transactions.userId, userId),
    filter.type ? eq(transactions.type, filter.type) : undefined,
    filter.status ? eq(transactions.status, filter.status) : undefined,
    filter.from ? gte(transactions.createdAt, sql`(${filter.from}::date::timestamp AT TIME ZONE ${ZONE})`) : undefined,
    filter.to ? lt(transactions.createdAt, sql`((${filter.to}::date + 1)::timestamp AT TIME ZONE ${ZONE})`) : undefined,
    // A row comparison, not `a < x OR (a = x AND b < y)`: it bounds the index scan, so page 100 starts where page 99 ended.
    filter.before
      ? sql`(${transactions.createdAt}, ${transactions.id}) < (${filter.before.createdAt.toISOString()}::timestamptz, ${filter.before.id}::uuid)`
      : undefined,
  );
}

const COLUMNS = Object.entries(getTableColumns(transactions));

/**
 * The history's most asked page, the newest rows with no filter: one statement prepared once per connection, nothing
 * built per call (drizzle's query building cost a history call more than its query). Its rows come as the driver
 * gives them and are mapped as drizzle would.
 */
const newestTransactions = preparedStatement<Record<string, unknown>>(
  'history_newest',
  `SELECT ${COLUMNS.map(([, column]) => `"${column.name}"`).join(', ')} FROM transactions WHERE user_id = $1 ` +
    'ORDER BY created_at DESC, id DESC LIMIT $2',
);

function transactionRowOf(raw: Record<string, unknown>): TransactionRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of COLUMNS) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as TransactionRow;
}

/** Newest first; ties on the timestamp are ordered by id, so the keyset never skips or repeats a row. */
export async function listTransactions(db: Executor, userId: string, filter: TransactionFilter, limit: number) {
  if (!filter.type && !filter.status && !filter.from && !filter.to && !filter.before) {
    return (await newestTransactions(db, [userId, limit])).map(transactionRowOf);
  }
  return db
    .select()
    .from(transactions)
    .where(conditions(userId, filter))
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(limit);
}

export async function insertTransaction(tx: Executor, values: typeof transactions.$inferInsert) {
  await tx.insert(transactions).values(values);
}

/** Inserts the PAYIN rows of shares that have none yet, in one statement; answers the shares whose row it inserted. */
export async function insertPayinsOnce(tx: Executor, values: (typeof transactions.$inferInsert)[]): Promise<Set<string>> {
  const rows = await tx
    .insert(transactions)
    .values(values)
    .onConflictDoNothing({ target: transactions.allocationId })
    .returning({ allocationId: transactions.allocationId });
  return new Set(rows.map((row) => row.allocationId!));
}

/** Inserts the payout's PAYOUT row unless it exists; answers whether it inserted. */
export async function insertPayoutTransactionOnce(tx: Executor, values: typeof transactions.$inferInsert) {
  const rows = await tx
    .insert(transactions)
    .values(values)
    .onConflictDoNothing({ target: transactions.payoutId })
    .returning({ id: transactions.id });
  return rows.length === 1;
}

/** Answers the rows it changed (one, or none for a payout without its row). */
export function updateTransactionOfPayout(tx: Executor, payoutId: string, changes: Partial<typeof transactions.$inferInsert>) {
  return tx
    .update(transactions)
    .set(changes)
    .where(eq(transactions.payoutId, payoutId))
    .returning({ userId: transactions.userId, amountCents: transactions.amountCents });
}

export async function updatePayinOfAllocation(
  tx: Executor,
  allocationId: string,
  changes: Partial<typeof transactions.$inferInsert>,
) {
  await tx.update(transactions).set(changes).where(eq(transactions.allocationId, allocationId));
}

/** Answers the row it released, or none when it was not on HOLD (already released, or all taken back). */
export function markPayinPaid(tx: Executor, allocationId: string, now: Date) {
  return tx
    .update(transactions)
    .set({ status: 'PAID', settledAt: now })
    .where(and(eq(transactions.allocationId, allocationId), eq(transactions.status, 'HOLD')))
    .returning({
      userId: transactions.userId,
      paymentId: transactions.paymentId,
      amountCents: transactions.amountCents,
      refundedCents: transactions.refundedCents,
    });
}

/**
 * Received payments (less what was taken back) since the start of this day, week and month in Riga, their count and
 * mean rating: from the user's daily totals, so the cost follows the days of a history, not its rows.
 */
export async function overviewFigures(db: Executor, userId: string, now: Date) {
  const firstDay = (unit: 'day' | 'week' | 'month') =>
    sql`date_trunc(${unit}, ${now.toISOString()}::timestamptz AT TIME ZONE ${ZONE})::date`;
  const received = (unit: 'day' | 'week' | 'month') =>
    sql<string>`coalesce(sum(${transactionDailyTotals.receivedCents}) FILTER (WHERE ${transactionDailyTotals.day} >= ${firstDay(unit)}), 0)::text`;
  const [row] = await db
    .select({
      today: received('day'),
      week: received('week'),
      month: received('month'),
      count: sql<number>`coalesce(sum(${transactionDailyTotals.payinCount}), 0)::int`,
      rating: sql<
        string | null
      >`(sum(${transactionDailyTotals.ratingSum})::numeric / nullif(sum(${transactionDailyTotals.ratingCount}), 0))::text`,
    })
    .from(transactionDailyTotals)
    .where(eq(transactionDailyTotals.userId, userId));
  return {
    todayCents: Number(row?.today ?? 0),
    weekCents: Number(row?.week ?? 0),
    monthCents: Number(row?.month ?? 0),
    count: row?.count ?? 0,
    averageRating: row?.rating == null ? null : Math.round(Number(row.rating) * 10) / 10,
  };
}

/** The net amount of every payment the user received, less what was taken back (any age, held or paid). */
export async function receivedTotalCents(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${transactionDailyTotals.receivedCents}), 0)::text` })
    .from(transactionDailyTotals)
    .where(eq(transactionDailyTotals.userId, userId));
  return Number(row?.total ?? 0);
}

export function heldPayinsByUser(db: Executor) {
  return db
    .select({
      userId: transactions.userId,
      cents: sql<string>`sum(${transactions.amountCents} - ${transactions.refundedCents})::text`,
    })
    .from(transactions)
    .where(and(eq(transactions.status, 'HOLD'), sql`${transactions.type} <> 'PAYOUT'`))
    .groupBy(transactions.userId)
    .having(sql`sum(${transactions.amountCents} - ${transactions.refundedCents}) <> 0`);
}

export async function payoutsOnHoldCents(db: Executor): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${transactions.amountCents}), 0)::text` })
    .from(transactions)
    .where(and(eq(transactions.type, 'PAYOUT'), eq(transactions.status, 'HOLD')));
  return Number(row?.total ?? 0);
}

export async function deleteTransactionsOfUser(tx: Executor, userId: string): Promise<void> {
  await tx.delete(transactions).where(eq(transactions.userId, userId));
}

/** One PAYIN row of a user's history by its id (another user's, or another type, is undefined). */
export async function findPayinOfUser(db: Executor, userId: string, transactionId: string) {
  const [row] = await db
    .select({ paymentId: transactions.paymentId })
    .from(transactions)
    .where(and(eq(transactions.id, transactionId), eq(transactions.userId, userId), eq(transactions.type, 'PAYIN')));
  return row;
}
