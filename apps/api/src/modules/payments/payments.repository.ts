import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { paymentAllocations, payments, providerEvents } from '../../db/schema/payments.ts';

export type PaymentRow = typeof payments.$inferSelect;
export type AllocationRow = typeof paymentAllocations.$inferSelect;

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
  const [row] = await tx.update(payments).set({ ...changes, updatedAt: now }).where(eq(payments.id, id)).returning();
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

export async function setProviderEventOutcome(tx: Executor, id: string, outcome: (typeof providerEvents.$inferInsert)['outcome']) {
  await tx.update(providerEvents).set({ outcome }).where(eq(providerEvents.id, id));
}

/**
 * Marks a payment succeeded when the capture matches it (provider, reference, amount, currency) and it is not
 * credited yet; answers the row, or nothing when it does not qualify. The row stays locked until commit.
 */
export async function markSucceeded(
  tx: Executor,
  id: string,
  capture: { provider: string; providerRef: string; totalCents: number; currency: string },
  now: Date,
) {
  const [row] = await tx
    .update(payments)
    .set({ status: 'succeeded', updatedAt: now })
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
