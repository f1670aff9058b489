import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { donations } from '../../db/schema/donations.ts';

export type DonationRow = typeof donations.$inferSelect;

export async function insertDonation(tx: Executor, values: typeof donations.$inferInsert) {
  await tx.insert(donations).values(values);
}

export async function findDonation(db: Executor, paymentId: string) {
  const [row] = await db.select().from(donations).where(eq(donations.paymentId, paymentId));
  return row;
}

export async function setDonationStatus(tx: Executor, paymentId: string, status: DonationRow['status']) {
  await tx.update(donations).set({ status }).where(eq(donations.paymentId, paymentId));
}

/** The recipient's donations that reached them (paid, or paid then refunded), newest first. */
export function listReceivedDonations(db: Executor, userId: string, limit: number) {
  return db
    .select()
    .from(donations)
    .where(and(eq(donations.userId, userId), inArray(donations.status, ['succeeded', 'refunded'])))
    .orderBy(desc(donations.createdAt))
    .limit(limit);
}
