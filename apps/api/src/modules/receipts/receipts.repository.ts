import { eq, max } from 'drizzle-orm';
import type { Locale } from '@tipcard/shared/constants';
import type { Executor } from '../../db/client.ts';
import { receiptContacts, refundNotices } from '../../db/schema/receipts.ts';

export type ReceiptContactRow = typeof receiptContacts.$inferSelect;

/** The payer's address for the payment's receipts: the latest one given replaces an earlier one. */
export async function saveContact(tx: Executor, paymentId: string, email: string, locale: Locale, now: Date) {
  await tx
    .insert(receiptContacts)
    .values({ paymentId, email, locale, createdAt: now })
    .onConflictDoUpdate({ target: receiptContacts.paymentId, set: { email, locale, createdAt: now } });
}

export async function findContact(db: Executor, paymentId: string): Promise<ReceiptContactRow | undefined> {
  const [row] = await db.select().from(receiptContacts).where(eq(receiptContacts.paymentId, paymentId));
  return row;
}

/** The refunded total last told of for the payment (0 before its first refund notice). */
export async function lastNoticedRefund(tx: Executor, paymentId: string): Promise<number> {
  const [row] = await tx
    .select({ cents: max(refundNotices.refundedCents) })
    .from(refundNotices)
    .where(eq(refundNotices.paymentId, paymentId));
  return Number(row?.cents ?? 0);
}

/** Records that the refund bringing the payment's refunded total to `refundedCents` is told of; false if it was. */
export async function insertNoticeOnce(tx: Executor, paymentId: string, refundedCents: number, now: Date): Promise<boolean> {
  const rows = await tx
    .insert(refundNotices)
    .values({ paymentId, refundedCents, createdAt: now })
    .onConflictDoNothing()
    .returning({ paymentId: refundNotices.paymentId });
  return rows.length > 0;
}
