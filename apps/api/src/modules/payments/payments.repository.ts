import { and, asc, count, eq, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { paymentAllocations, paymentReturns, payments, providerEvents } from '../../db/schema/payments.ts';

export type PaymentRow = typeof payments.$inferSelect;
export type AllocationRow = typeof paymentAllocations.$inferSelect;

/** Namespace of the advisory locks below (the first key), apart from other modules' locks. */
const SUBJECT_CHECKOUTS_LOCK = 1_002;

/** Queues checkouts of one subject until the transaction ends, so its velocity is counted and grown in one step. */
export async function lockSubjectCheckouts(tx: Executor, purpose: PaymentRow['purpose'], subjectId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SUBJECT_CHECKOUTS_LOCK}, hashtext(${`${purpose}:${subjectId}`}))`);
}

/** Checkouts of a subject opened since `openedSince`, and its payments that failed since `failedSince`. */
export async function checkoutVelocity(
  tx: Executor,
  purpose: PaymentRow['purpose'],
  subjectId: string,
  openedSince: Date,
  failedSince: Date,
) {
  const [row] = await tx
    .select({
      recent: sql<number>`count(*) filter (where ${payments.createdAt} >= ${openedSince})::int`,
      failed: sql<number>`count(*) filter (where ${payments.status} = 'failed' and ${payments.updatedAt} >= ${failedSince})::int`,
    })
    .from(payments)
    .where(
      and(
        eq(payments.purpose, purpose),
        eq(payments.subjectId, subjectId),
        gte(payments.updatedAt, failedSince < openedSince ? failedSince : openedSince),
      ),
    );
  return { recent: row?.recent ?? 0, failed: row?.failed ?? 0 };
}

/** Inserts the payment unless its subject already has one with this idempotency key; answers the row it inserted. */
export async function insertPaymentOnce(tx: Executor, values: typeof payments.$inferInsert) {
  const [row] = await tx
    .insert(payments)
    .values(values)
    .onConflictDoNothing({ target: [payments.purpose, payments.subjectId, payments.idempotencyKey] })
    .returning();
  return row;
}

export async function findPaymentByKey(tx: Executor, purpose: PaymentRow['purpose'], subjectId: string, idempotencyKey: string) {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.purpose, purpose), eq(payments.subjectId, subjectId), eq(payments.idempotencyKey, idempotencyKey)));
  return row;
}

export async function findPayment(db: Executor, id: string) {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

export async function findPaymentForUpdate(tx: Executor, id: string) {
  const [row] = await tx.select().from(payments).where(eq(payments.id, id)).for('update');
  return row;
}

export async function updatePayment(tx: Executor, id: string, changes: Partial<typeof payments.$inferInsert>, now: Date) {
  const [row] = await tx
    .update(payments)
    .set({ ...changes, updatedAt: now })
    .where(eq(payments.id, id))
    .returning();
  return row!;
}

/** Claims one pending payment the reconciliation job should ask the provider about; others' claims are skipped. */
export function claimDueReconciliation(tx: Executor, now: Date) {
  return tx
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lte(payments.reconcileDueAt, now)))
    .orderBy(asc(payments.reconcileDueAt))
    .limit(1)
    .for('update', { skipLocked: true });
}

/** Records a provider event; null when this event was seen before (the unique key is the exactly-once guard). */
export async function insertProviderEventOnce(tx: Executor, values: typeof providerEvents.$inferInsert) {
  const rows = await tx
    .insert(providerEvents)
    .values(values)
    .onConflictDoNothing({ target: [providerEvents.provider, providerEvents.eventId] })
    .returning({ id: providerEvents.id });
  return rows[0]?.id ?? null;
}

export async function setProviderEventOutcome(
  tx: Executor,
  id: string,
  outcome: (typeof providerEvents.$inferInsert)['outcome'],
) {
  await tx.update(providerEvents).set({ outcome }).where(eq(providerEvents.id, id));
}

/**
 * Marks a payment succeeded when the capture matches it (provider, reference, amount, currency) and it is not
 * credited yet; answers the row, or nothing when it does not qualify. The row stays locked until commit.
 */
export async function markSucceeded(
  tx: Executor,
  id: string,
  capture: {
    provider: string;
    providerRef: string;
    totalCents: number;
    currency: string;
    payerRef: string | null;
    card: { brand: string; last4: string } | null;
    customerRef: string | null;
    methodRef: string | null;
  },
  now: Date,
) {
  const [row] = await tx
    .update(payments)
    .set({
      status: 'succeeded',
      payerRef: capture.payerRef,
      cardBrand: capture.card?.brand ?? null,
      cardLast4: capture.card?.last4 ?? null,
      // A charge of a saved method already names its customer and method; a checkout that saved one names them now.
      ...(capture.customerRef && capture.methodRef && { customerRef: capture.customerRef, methodRef: capture.methodRef }),
      updatedAt: now,
    })
    .where(
      and(
        eq(payments.id, id),
        eq(payments.provider, capture.provider),
        or(isNull(payments.providerRef), eq(payments.providerRef, capture.providerRef)),
        eq(payments.totalCents, capture.totalCents),
        eq(payments.currency, capture.currency),
        inArray(payments.status, ['pending', 'failed', 'canceled']),
      ),
    )
    .returning();
  return row;
}

export function insertAllocations(tx: Executor, values: (typeof paymentAllocations.$inferInsert)[]) {
  return tx.insert(paymentAllocations).values(values).returning();
}

/** A payment's allocations in their order, locked: refunds and the release job change them one at a time. */
export function findAllocationsForUpdate(tx: Executor, paymentId: string) {
  return tx
    .select()
    .from(paymentAllocations)
    .where(eq(paymentAllocations.paymentId, paymentId))
    .orderBy(asc(paymentAllocations.position))
    .for('update');
}

export async function updateAllocation(tx: Executor, id: string, changes: Partial<typeof paymentAllocations.$inferInsert>) {
  const [row] = await tx.update(paymentAllocations).set(changes).where(eq(paymentAllocations.id, id)).returning();
  return row!;
}

/**
 * What of a user's held shares is still to be released, summed per release time (earliest first): the parts of the
 * hold balance and when each moves to main.
 */
export function listHeldAmountsOfUser(db: Executor, userId: string) {
  const amount = sql<number>`sum(${paymentAllocations.netCents} - ${paymentAllocations.reversedNetCents})`.mapWith(Number);
  return db
    .select({ releaseDueAt: paymentAllocations.releaseDueAt, amountCents: amount })
    .from(paymentAllocations)
    .where(and(eq(paymentAllocations.userId, userId), isNull(paymentAllocations.releasedAt)))
    .groupBy(paymentAllocations.releaseDueAt)
    .having(sql`sum(${paymentAllocations.netCents} - ${paymentAllocations.reversedNetCents}) > 0`)
    .orderBy(asc(paymentAllocations.releaseDueAt));
}

/**
 * Claims one user's share whose hold has ended and marks it released, in one statement; a row another worker holds is
 * skipped, not waited for. The caller moves the money in the same transaction.
 */
export async function claimDueAllocation(tx: Executor, now: Date) {
  const due = tx
    .select({ id: paymentAllocations.id })
    .from(paymentAllocations)
    .where(and(isNull(paymentAllocations.releasedAt), lte(paymentAllocations.releaseDueAt, now)))
    .orderBy(paymentAllocations.releaseDueAt)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await tx
    .update(paymentAllocations)
    .set({ releasedAt: now })
    .where(eq(paymentAllocations.id, sql`(${due})`))
    .returning();
  return row;
}

export function listAllocations(db: Executor, paymentId: string) {
  return db
    .select()
    .from(paymentAllocations)
    .where(eq(paymentAllocations.paymentId, paymentId))
    .orderBy(asc(paymentAllocations.position));
}

/** Payments pending longer than the given time (the back office's reconciliation view). */
export function listPendingSince(db: Executor, before: Date, limit: number) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lte(payments.createdAt, before)))
    .orderBy(asc(payments.createdAt))
    .limit(limit);
}

/** How many payments are pending longer than the given time (the back office's health snapshots). */
export async function countPendingSince(db: Executor, before: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lte(payments.createdAt, before)));
  return row!.n;
}

/**
 * What each user received from the succeeded payments of one purpose and subject credited in [from, to): how many
 * shares and their net sum after refunds and disputes.
 */
export function sumSharesPerUser(
  db: Executor,
  filter: { purpose: PaymentRow['purpose']; subjectId: string; from: Date; to: Date },
) {
  return db
    .select({
      userId: sql<string>`${paymentAllocations.userId}`,
      count: sql<number>`count(*)::int`,
      sumCents: sql<number>`coalesce(sum(${paymentAllocations.netCents} - ${paymentAllocations.reversedNetCents}), 0)::bigint`,
    })
    .from(paymentAllocations)
    .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
    .where(
      and(
        eq(payments.purpose, filter.purpose),
        eq(payments.subjectId, filter.subjectId),
        isNotNull(paymentAllocations.userId),
        gte(paymentAllocations.createdAt, filter.from),
        lt(paymentAllocations.createdAt, filter.to),
      ),
    )
    .groupBy(paymentAllocations.userId);
}

/**
 * What a user's shares received between two times brought the platform: the fees on them less what refunds and
 * disputes took back, and how many different payers (of payments not wholly taken back) they came from. A payment
 * whose provider named no payer counts as a payer of its own.
 */
export async function feesOfRecipient(
  db: Executor,
  userId: string,
  from: Date,
  to: Date,
): Promise<{ feesCents: number; payers: number }> {
  const [row] = await db
    .select({
      fees: sql<string>`coalesce(sum(${paymentAllocations.feeCents} - ${paymentAllocations.reversedFeeCents}), 0)::text`,
      payers: sql<number>`count(distinct coalesce(${payments.payerRef}, ${payments.id}::text)) filter (where ${paymentAllocations.reversedNetCents} + ${paymentAllocations.reversedFeeCents} < ${paymentAllocations.netCents} + ${paymentAllocations.feeCents})::int`,
    })
    .from(paymentAllocations)
    .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
    .where(
      and(eq(paymentAllocations.userId, userId), gte(paymentAllocations.createdAt, from), lt(paymentAllocations.createdAt, to)),
    );
  return { feesCents: Number(row?.fees ?? 0), payers: Number(row?.payers ?? 0) };
}

/** The pending payments of these subjects, locked in id order (a deletion voids them). */
export function findPendingOfSubjectsForUpdate(tx: Executor, purpose: PaymentRow['purpose'], subjectIds: string[]) {
  return tx
    .select()
    .from(payments)
    .where(and(eq(payments.purpose, purpose), inArray(payments.subjectId, subjectIds), eq(payments.status, 'pending')))
    .orderBy(asc(payments.id))
    .for('update');
}

/** Records a payment to give back, due now; a second call for the same payment changes nothing. */
export async function insertReturnOnce(tx: Executor, paymentId: string, now: Date) {
  await tx
    .insert(paymentReturns)
    .values({ paymentId, dueAt: now, createdAt: now })
    .onConflictDoNothing({ target: paymentReturns.paymentId });
}

/**
 * Claims one due give-back by moving its due time on (a lease): the provider is called outside the transaction, and a
 * worker killed mid-call leaves the row due again once the lease ends.
 */
export async function claimDueReturn(tx: Executor, now: Date, leaseUntil: Date) {
  const [due] = await tx
    .select()
    .from(paymentReturns)
    .where(and(isNotNull(paymentReturns.dueAt), lte(paymentReturns.dueAt, now)))
    .orderBy(asc(paymentReturns.dueAt))
    .limit(1)
    .for('update', { skipLocked: true });
  if (!due) return undefined;
  const [row] = await tx
    .update(paymentReturns)
    .set({ dueAt: leaseUntil, attempts: due.attempts + 1 })
    .where(eq(paymentReturns.paymentId, due.paymentId))
    .returning();
  return row!;
}

export async function finishReturn(tx: Executor, paymentId: string, now: Date) {
  await tx.update(paymentReturns).set({ dueAt: null, returnedAt: now }).where(eq(paymentReturns.paymentId, paymentId));
}

/** Payments whose id lies in the range (a short reference's ids, `uuidPrefixRange`): the primary key's index scans it. */
export function findPaymentsInIdRange(db: Executor, [low, high]: [string, string], limit: number) {
  return db
    .select()
    .from(payments)
    .where(and(gte(payments.id, low), lte(payments.id, high)))
    .orderBy(asc(payments.createdAt))
    .limit(limit);
}

/** What the provider told us about one payment, in the order it came. */
export function listEventsOfPayment(db: Executor, paymentId: string, limit: number) {
  return db
    .select()
    .from(providerEvents)
    .where(eq(providerEvents.paymentId, paymentId))
    .orderBy(asc(providerEvents.receivedAt))
    .limit(limit);
}

/** How many payments are in each state (a metrics gauge; one indexed scan per scrape, cached by the caller). */
export async function countByStatus(db: Executor): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: payments.status, n: sql<number>`count(*)::int` })
    .from(payments)
    .groupBy(payments.status);
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}
