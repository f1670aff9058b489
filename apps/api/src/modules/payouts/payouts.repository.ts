import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, or, sql, type AnyColumn } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { payoutBatches, payoutMethodEvents, payoutMethods, payouts, sandboxPayoutTransfers } from '../../db/schema/payouts.ts';

export type PayoutMethodRow = typeof payoutMethods.$inferSelect;
export type PayoutRow = typeof payouts.$inferSelect;
export type PayoutBatchRow = typeof payoutBatches.$inferSelect;

// ---- Methods ----

export async function insertMethod(tx: Executor, values: typeof payoutMethods.$inferInsert) {
  const [row] = await tx.insert(payoutMethods).values(values).returning();
  return row!;
}

/** The user's live methods: the default first, then oldest first. */
export function listMethods(db: Executor, userId: string) {
  return db
    .select()
    .from(payoutMethods)
    .where(and(eq(payoutMethods.userId, userId), isNull(payoutMethods.deletedAt)))
    .orderBy(desc(payoutMethods.isDefault), asc(payoutMethods.createdAt), asc(payoutMethods.id));
}

/** A method, deleted or not (an automatic payout's schedule names its account even after the account is removed). */
export async function findMethod(db: Executor, id: string) {
  const [row] = await db.select().from(payoutMethods).where(eq(payoutMethods.id, id));
  return row;
}

export async function findLiveMethod(db: Executor, id: string) {
  const [row] = await db
    .select()
    .from(payoutMethods)
    .where(and(eq(payoutMethods.id, id), isNull(payoutMethods.deletedAt)));
  return row;
}

/** Serialises method changes of one user (the one-default rule and "first method is default"). */
export async function lockUserMethods(tx: Executor, userId: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`payout-methods:${userId}`}, 0))`);
}

export async function softDeleteMethod(tx: Executor, id: string, now: Date) {
  await tx.update(payoutMethods).set({ deletedAt: now, isDefault: false }).where(eq(payoutMethods.id, id));
}

export async function setDefaultMethod(tx: Executor, userId: string, id: string) {
  await tx
    .update(payoutMethods)
    .set({ isDefault: false })
    .where(and(eq(payoutMethods.userId, userId), eq(payoutMethods.isDefault, true)));
  await tx.update(payoutMethods).set({ isDefault: true }).where(eq(payoutMethods.id, id));
}

export async function countOpenPayoutsOfMethod(tx: Executor, methodId: string): Promise<number> {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(payouts)
    .where(and(eq(payouts.methodId, methodId), inArray(payouts.status, ['awaiting_confirmation', 'in_flight'])));
  return row?.count ?? 0;
}

export async function insertMethodEvent(tx: Executor, values: typeof payoutMethodEvents.$inferInsert) {
  await tx.insert(payoutMethodEvents).values(values);
}

export function listMethodEvents(db: Executor, userId: string) {
  return db
    .select()
    .from(payoutMethodEvents)
    .where(eq(payoutMethodEvents.userId, userId))
    .orderBy(asc(payoutMethodEvents.createdAt));
}

// ---- Payouts ----

/** Inserts the payout unless the user already used this Idempotency-Key; answers the inserted row. */
export async function insertPayoutOnce(tx: Executor, values: typeof payouts.$inferInsert) {
  const [row] = await tx
    .insert(payouts)
    .values(values)
    .onConflictDoNothing({ target: [payouts.userId, payouts.idempotencyKey] })
    .returning();
  return row;
}

export async function findPayoutByKey(db: Executor, userId: string, idempotencyKey: string) {
  const [row] = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.userId, userId), eq(payouts.idempotencyKey, idempotencyKey)));
  return row;
}

/** Namespace of the advisory locks below (the first key), so they never meet another module's. */
const PAYOUT_REQUESTS_LOCK = 1_001;

/**
 * Queues one user's withdrawal requests until the transaction ends, so that the count against the hourly cap and
 * the insert are one step (without it, 40 concurrent requests all counted the same 0). An advisory lock, since the
 * user's row belongs to another module.
 */
export async function lockPayoutRequests(tx: Executor, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PAYOUT_REQUESTS_LOCK}, hashtext(${userId}))`);
}

/** How many withdrawals (each texted a code) the user asked for since `since`. */
export async function countPayoutRequestsSince(db: Executor, userId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(payouts)
    .where(and(eq(payouts.userId, userId), gte(payouts.createdAt, since)));
  return row?.count ?? 0;
}

export async function findPayout(db: Executor, id: string) {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, id));
  return row;
}

export async function findPayoutForUpdate(tx: Executor, id: string) {
  const [row] = await tx.select().from(payouts).where(eq(payouts.id, id)).for('update');
  return row;
}

export function listPayouts(db: Executor, userId: string, limit: number) {
  return db
    .select()
    .from(payouts)
    .where(eq(payouts.userId, userId))
    .orderBy(desc(payouts.createdAt), desc(payouts.id))
    .limit(limit);
}

export async function updatePayout(tx: Executor, id: string, changes: Partial<typeof payouts.$inferInsert>) {
  const [row] = await tx.update(payouts).set(changes).where(eq(payouts.id, id)).returning();
  return row!;
}

/** Counts a wrong code in its own statement (never rolled back with a caller's transaction); answers the new count. */
export async function addCodeAttempt(db: Executor, id: string): Promise<number> {
  const [row] = await db
    .update(payouts)
    .set({ codeAttempts: sql`${payouts.codeAttempts} + 1` })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'awaiting_confirmation')))
    .returning({ attempts: payouts.codeAttempts });
  return row?.attempts ?? Number.MAX_SAFE_INTEGER;
}

/** Unconfirmed payouts whose code has died become expired; they never held money, so nothing else changes. */
export async function expireUnconfirmed(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .update(payouts)
    .set({ status: 'expired' })
    .where(and(eq(payouts.status, 'awaiting_confirmation'), lte(payouts.codeExpiresAt, now)))
    .returning({ id: payouts.id });
  return rows.length;
}

/** Whether any in-flight payout of these rails is waiting for the worker (cheap check before the invariant scan). */
export async function hasDueRailWork(db: Executor, rails: NonNullable<PayoutRow['rail']>[], now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(
        eq(payouts.status, 'in_flight'),
        inArray(payouts.rail, rails),
        inArray(payouts.railState, ['pending', 'submitting']),
        lte(payouts.railDueAt, now),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Claims one in-flight sandbox payout for sending: one not yet sent, or one whose earlier claim's lease ran out (the
 * worker died between claiming and recording the answer). The lease is pushed forward in the same statement, so two
 * workers never hold the same payout; rows another worker has locked are skipped, not waited for.
 */
export async function claimForSubmit(db: Executor, now: Date, leaseUntil: Date) {
  const due = db
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(
        eq(payouts.status, 'in_flight'),
        eq(payouts.rail, 'sandbox'),
        inArray(payouts.railState, ['pending', 'submitting']),
        lte(payouts.railDueAt, now),
      ),
    )
    .orderBy(payouts.railDueAt)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(payouts)
    .set({ railState: 'submitting', railDueAt: leaseUntil })
    .where(eq(payouts.id, sql`(${due})`))
    .returning();
  return row;
}

/** Records that the rail accepted the payout, unless another run already did or the payout moved on. */
export async function markSubmitted(db: Executor, id: string, now: Date, checkAt: Date) {
  const [row] = await db
    .update(payouts)
    .set({ railState: 'submitted', submittedAt: now, railDueAt: checkAt })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'in_flight'), eq(payouts.railState, 'submitting')))
    .returning({ id: payouts.id });
  return row !== undefined;
}

/** Sent sandbox payouts whose answer may be in, and their next look pushed forward so other workers skip them. */
export async function claimForStatus(db: Executor, now: Date, nextLook: Date) {
  const due = db
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(
        eq(payouts.status, 'in_flight'),
        eq(payouts.rail, 'sandbox'),
        eq(payouts.railState, 'submitted'),
        lte(payouts.railDueAt, now),
      ),
    )
    .orderBy(payouts.railDueAt)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(payouts)
    .set({ railDueAt: nextLook })
    .where(eq(payouts.id, sql`(${due})`))
    .returning();
  return row;
}

/** In-flight payouts of a file rail that are in no file yet and were confirmed up to the cut-off; locked for the batch. */
export function lockUnbatched(tx: Executor, rail: 'sepa_file' | 'uk_file', cutoff: Date, limit: number) {
  return tx
    .select()
    .from(payouts)
    .where(
      and(eq(payouts.status, 'in_flight'), eq(payouts.rail, rail), isNull(payouts.batchId), lte(payouts.confirmedAt, cutoff)),
    )
    .orderBy(asc(payouts.confirmedAt), asc(payouts.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function assignBatch(tx: Executor, ids: string[], batchId: string, now: Date) {
  await tx
    .update(payouts)
    .set({ batchId, railState: 'submitted', submittedAt: now, railDueAt: null })
    .where(and(inArray(payouts.id, ids), isNull(payouts.batchId)));
}

// ---- Batches ----

export async function insertBatch(tx: Executor, values: typeof payoutBatches.$inferInsert) {
  const [row] = await tx.insert(payoutBatches).values(values).returning();
  return row!;
}

export function listBatches(db: Executor, status?: PayoutBatchRow['status']) {
  return db
    .select()
    .from(payoutBatches)
    .where(status ? eq(payoutBatches.status, status) : undefined)
    .orderBy(asc(payoutBatches.createdAt));
}

export async function findBatch(db: Executor, id: string) {
  const [row] = await db
    .select()
    .from(payoutBatches)
    .where(or(eq(sql`${payoutBatches.id}::text`, id), eq(payoutBatches.messageId, id)));
  return row;
}

export async function markBatchSent(db: Executor, id: string, now: Date) {
  const [row] = await db
    .update(payoutBatches)
    .set({ status: 'sent', sentAt: now })
    .where(and(eq(payoutBatches.id, id), eq(payoutBatches.status, 'created')))
    .returning({ id: payoutBatches.id });
  return row !== undefined;
}

export function listBatchPayouts(db: Executor, batchId: string) {
  return db.select().from(payouts).where(eq(payouts.batchId, batchId)).orderBy(asc(payouts.confirmedAt), asc(payouts.id));
}

// ---- The sandbox rail's side ----

/** The sandbox bank takes a transfer once per payout; asking again only counts the request. */
export async function recordSandboxTransfer(
  db: Executor,
  values: { payoutId: string; account: string; amountCents: number; instant: boolean; createdAt: Date },
) {
  const [row] = await db
    .insert(sandboxPayoutTransfers)
    .values(values)
    .onConflictDoUpdate({
      target: sandboxPayoutTransfers.payoutId,
      set: { requests: sql`${sandboxPayoutTransfers.requests} + 1` },
    })
    .returning();
  return row!;
}

export async function findSandboxTransfer(db: Executor, payoutId: string) {
  const [row] = await db.select().from(sandboxPayoutTransfers).where(eq(sandboxPayoutTransfers.payoutId, payoutId));
  return row;
}

/** Payouts of every user in one status, newest first (back office). */
export function listPayoutsByStatus(db: Executor, status: PayoutRow['status'] | undefined, limit: number) {
  return db
    .select()
    .from(payouts)
    .where(status ? eq(payouts.status, status) : undefined)
    .orderBy(desc(payouts.createdAt), desc(payouts.id))
    .limit(limit);
}

/** Withdrawals still under way (on their way to the bank, or waiting for a code that is still valid), but not a closing payout: that one is the deletion itself. */
export async function countOpenPayoutsOfUser(db: Executor, userId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(payouts)
    .where(
      and(
        eq(payouts.userId, userId),
        eq(payouts.closing, false),
        or(eq(payouts.status, 'in_flight'), and(eq(payouts.status, 'awaiting_confirmation'), gt(payouts.codeExpiresAt, now))),
      ),
    );
  return row?.count ?? 0;
}

/** The purge: the bank details of the user's withdrawals and accounts are blanked; amounts, dates and states stay. */
export async function blankBankDetailsOfUser(tx: Executor, userId: string): Promise<void> {
  await tx
    .update(payouts)
    .set({
      destHolder: '',
      destAddress: '',
      destIban: null,
      destBic: null,
      destAccountNumber: null,
      destSortCode: null,
      returnReason: null,
    })
    .where(eq(payouts.userId, userId));
  // A method's row must still name its kind's fields (payout_methods_details): blank, not null.
  const blank = (column: AnyColumn) => sql`CASE WHEN ${column} IS NULL THEN NULL ELSE '' END`;
  await tx
    .update(payoutMethods)
    .set({
      holder: '',
      address: '',
      iban: blank(payoutMethods.iban),
      bic: blank(payoutMethods.bic),
      accountNumber: blank(payoutMethods.accountNumber),
      sortCode: blank(payoutMethods.sortCode),
    })
    .where(eq(payoutMethods.userId, userId));
  await tx.update(payoutMethodEvents).set({ maskedAccount: '' }).where(eq(payoutMethodEvents.userId, userId));
}

/**
 * Payout methods whose account ends with these digits or letters (the last digits of an IBAN or a UK account number,
 * as support is told them), spaces ignored. The table holds a few rows per user.
 */
export function findPayoutMethodsByAccountEnd(db: Executor, end: string, limit: number) {
  const pattern = `%${end.toUpperCase()}`;
  return db
    .select()
    .from(payoutMethods)
    .where(
      or(
        sql`replace(upper(${payoutMethods.iban}), ' ', '') like ${pattern}`,
        sql`${payoutMethods.accountNumber} like ${pattern}`,
      ),
    )
    .orderBy(desc(payoutMethods.createdAt))
    .limit(limit);
}

/** Bank files still to close: not yet marked sent, or sent with payouts the bank has not answered for. */
export async function countBatchesToClose(db: Executor): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(payoutBatches)
    .where(
      or(
        eq(payoutBatches.status, 'created'),
        sql`exists (select 1 from ${payouts} where ${payouts.batchId} = ${payoutBatches.id} and ${payouts.status} = 'in_flight')`,
      ),
    );
  return Number(row!.count);
}

/**
 * Payouts confirmed and not yet paid or returned: how many and their sum, how many the worker should act on now (their
 * rail due time has come), and when the oldest was confirmed (a metrics gauge: money stuck in flight).
 */
export async function inFlightFigures(
  db: Executor,
  now: Date,
): Promise<{ count: number; amountCents: number; due: number; oldestConfirmedAt: Date | null }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      amountCents: sql<string>`coalesce(sum(${payouts.amountCents}), 0)::bigint`,
      due: sql<number>`(count(*) filter (where ${payouts.railDueAt} <= ${now.toISOString()}::timestamptz))::int`,
      oldest: sql<Date | string | null>`min(${payouts.confirmedAt})`,
    })
    .from(payouts)
    .where(eq(payouts.status, 'in_flight'));
  return {
    count: Number(row!.count),
    amountCents: Number(row!.amountCents),
    due: Number(row!.due),
    oldestConfirmedAt: row!.oldest === null ? null : new Date(row!.oldest),
  };
}
