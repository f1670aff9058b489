import { and, asc, desc, eq, gte, isNotNull, lte } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { invoiceRefunds, invoices } from '../../db/schema/invoices.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceRefundRow = typeof invoiceRefunds.$inferSelect;

export async function insertInvoice(tx: Executor, values: typeof invoices.$inferInsert) {
  const [row] = await tx.insert(invoices).values(values).returning();
  return row!;
}

export async function findInvoice(db: Executor, id: string) {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
  return row;
}

export async function findInvoiceForUpdate(tx: Executor, id: string) {
  const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update');
  return row;
}

export function listInvoicesOfClient(db: Executor, clientId: string, limit: number) {
  return db
    .select()
    .from(invoices)
    .where(eq(invoices.clientId, clientId))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(limit);
}

export async function updateInvoice(tx: Executor, id: string, changes: Partial<typeof invoices.$inferInsert>) {
  const [row] = await tx.update(invoices).set(changes).where(eq(invoices.id, id)).returning();
  return row!;
}

export function listOpenInvoiceIdsOfUser(db: Executor, userId: string) {
  return db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.userId, userId), eq(invoices.status, 'open')));
}

/** Cancels every invoice of the user still open (their account is being deleted). */
export async function cancelOpenInvoicesOfUser(tx: Executor, userId: string, now: Date): Promise<void> {
  await tx
    .update(invoices)
    .set({ status: 'canceled', canceledAt: now })
    .where(and(eq(invoices.userId, userId), eq(invoices.status, 'open')));
}

/** Records a payment to give back; a second call for the same payment changes nothing. */
export async function insertRefundOnce(tx: Executor, values: typeof invoiceRefunds.$inferInsert) {
  await tx.insert(invoiceRefunds).values(values).onConflictDoNothing({ target: invoiceRefunds.paymentId });
}

/**
 * Claims one due refund by moving its due time on (a lease): the provider is called outside the transaction, and a
 * worker killed mid-call leaves the row due again once the lease ends.
 */
export async function claimDueRefund(tx: Executor, now: Date, leaseUntil: Date) {
  const [due] = await tx
    .select()
    .from(invoiceRefunds)
    .where(and(isNotNull(invoiceRefunds.dueAt), lte(invoiceRefunds.dueAt, now)))
    .orderBy(asc(invoiceRefunds.dueAt))
    .limit(1)
    .for('update', { skipLocked: true });
  if (!due) return undefined;
  const [row] = await tx
    .update(invoiceRefunds)
    .set({ dueAt: leaseUntil, attempts: due.attempts + 1 })
    .where(eq(invoiceRefunds.paymentId, due.paymentId))
    .returning();
  return row!;
}

export async function finishRefund(tx: Executor, paymentId: string, now: Date) {
  await tx.update(invoiceRefunds).set({ dueAt: null, refundedAt: now }).where(eq(invoiceRefunds.paymentId, paymentId));
}

export function listRefundsOfInvoice(db: Executor, invoiceId: string) {
  return db.select().from(invoiceRefunds).where(eq(invoiceRefunds.invoiceId, invoiceId));
}

/** Invoices whose id lies in the range (an invoice number is its id's first digits, `uuidPrefixRange`). */
export function findInvoicesInIdRange(db: Executor, [low, high]: [string, string], limit: number) {
  return db
    .select()
    .from(invoices)
    .where(and(gte(invoices.id, low), lte(invoices.id, high)))
    .orderBy(asc(invoices.createdAt))
    .limit(limit);
}
