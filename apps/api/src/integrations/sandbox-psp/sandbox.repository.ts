import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { sandboxCharges, sandboxEvents, sandboxPaymentMethods } from '../../db/schema/sandbox.ts';

export type SandboxChargeRow = typeof sandboxCharges.$inferSelect;
export type SandboxEventRow = typeof sandboxEvents.$inferSelect;

/** Records a guest's first action on a checkout; answers nothing when the checkout was acted on before. */
export async function insertChargeOnce(tx: Executor, charge: typeof sandboxCharges.$inferInsert) {
  const [row] = await tx
    .insert(sandboxCharges)
    .values(charge)
    .onConflictDoNothing({ target: sandboxCharges.providerRef })
    .returning();
  return row;
}

export async function findCharge(db: Executor, providerRef: string) {
  const [row] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.providerRef, providerRef));
  return row;
}

export async function lockCharge(tx: Executor, providerRef: string) {
  const [row] = await tx.select().from(sandboxCharges).where(eq(sandboxCharges.providerRef, providerRef)).for('update');
  return row;
}

export async function setOutcome(
  tx: Executor,
  providerRef: string,
  outcome: Pick<SandboxChargeRow, 'status' | 'method' | 'payerRef' | 'cardBrand' | 'cardLast4' | 'statusAt'>,
) {
  const [row] = await tx.update(sandboxCharges).set(outcome).where(eq(sandboxCharges.providerRef, providerRef)).returning();
  return row!;
}

export async function addRefund(tx: Executor, providerRef: string, amountCents: number, refundKey: string, now: Date) {
  const [row] = await tx
    .update(sandboxCharges)
    .set({
      status: 'refunded',
      statusAt: now,
      refundedCents: sql`${sandboxCharges.refundedCents} + ${amountCents}`,
      refundKeys: sql`array_append(${sandboxCharges.refundKeys}, ${refundKey})`,
    })
    .where(eq(sandboxCharges.providerRef, providerRef))
    .returning();
  return row!;
}

export async function insertEvents(tx: Executor, events: { providerRef: string; body: string; dueAt: Date }[]) {
  await tx.insert(sandboxEvents).values(events);
}

/**
 * Claims one due delivery: the attempt is counted and `due_at` pushed to the lease's end in the same statement, so
 * two workers never send the same attempt, and a worker that dies mid-send leaves a row that falls due again.
 */
export async function claimDueEvent(db: Executor, now: Date, leaseUntil: Date) {
  const due = db
    .select({ id: sandboxEvents.id })
    .from(sandboxEvents)
    .where(lte(sandboxEvents.dueAt, now))
    .orderBy(sandboxEvents.dueAt)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(sandboxEvents)
    .set({ dueAt: leaseUntil, attempts: sql`${sandboxEvents.attempts} + 1` })
    .where(eq(sandboxEvents.id, sql`(${due})`))
    .returning();
  return row;
}

export async function markDelivered(db: Executor, id: string, status: number, now: Date) {
  await db
    .update(sandboxEvents)
    .set({ deliveredAt: now, dueAt: null, lastStatus: status, lastError: null })
    .where(and(eq(sandboxEvents.id, id), isNull(sandboxEvents.deliveredAt)));
}

/**
 * Records a failed attempt and when to try next (null: given up). Only the latest claim's outcome counts: a worker
 * whose lease ran out while another took the row over must not reschedule it.
 */
export async function markFailed(
  db: Executor,
  id: string,
  attempt: number,
  failure: { status: number | null; error: string | null },
  nextDueAt: Date | null,
) {
  await db
    .update(sandboxEvents)
    .set({ dueAt: nextDueAt, lastStatus: failure.status, lastError: failure.error })
    .where(and(eq(sandboxEvents.id, id), eq(sandboxEvents.attempts, attempt), isNull(sandboxEvents.deliveredAt)));
}

export function eventsOf(db: Executor, providerRef: string) {
  return db
    .select()
    .from(sandboxEvents)
    .where(eq(sandboxEvents.providerRef, providerRef))
    .orderBy(sandboxEvents.createdAt, sandboxEvents.id);
}

export async function insertSavedMethod(tx: Executor, values: typeof sandboxPaymentMethods.$inferInsert) {
  const [row] = await tx.insert(sandboxPaymentMethods).values(values).returning();
  return row!;
}

export async function lockSavedMethod(tx: Executor, methodRef: string) {
  const [row] = await tx.select().from(sandboxPaymentMethods).where(eq(sandboxPaymentMethods.methodRef, methodRef)).for('update');
  return row;
}

export async function countOffSessionAttempt(tx: Executor, methodRef: string, attempts: number) {
  await tx
    .update(sandboxPaymentMethods)
    .set({ offSessionAttempts: attempts })
    .where(eq(sandboxPaymentMethods.methodRef, methodRef));
}

export async function findChargeByKey(tx: Executor, idempotencyKey: string) {
  const [row] = await tx.select().from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, idempotencyKey));
  return row;
}
