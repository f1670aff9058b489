import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { payments, providerEvents } from '../../db/schema.ts';

export type PaymentRow = typeof payments.$inferSelect;

/** Inserts the payment unless the card already has one with this idempotency key; answers the row it inserted. */
export async function insertPaymentOnce(tx: Executor, values: typeof payments.$inferInsert) {
  const [row] = await tx.insert(payments).values(values).onConflictDoNothing({ target: [payments.cardId, payments.idempotencyKey] }).returning();
  return row;
}

export async function findPaymentByKey(tx: Executor, cardId: string, idempotencyKey: string) {
  const [row] = await tx.select().from(payments).where(and(eq(payments.cardId, cardId), eq(payments.idempotencyKey, idempotencyKey)));
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

/** Records a provider event; false when this event was seen before (the unique key is the exactly-once guard). */
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
