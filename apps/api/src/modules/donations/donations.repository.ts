import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { donationActions, donationPlans, donations } from '../../db/schema/donations.ts';

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
/** Each donation with the state of its monthly plan now (null for a one-off gift). */
export function listReceivedDonations(db: Executor, userId: string, limit: number) {
  return db
    .select({ donation: donations, planStatus: donationPlans.status })
    .from(donations)
    .leftJoin(donationPlans, eq(donationPlans.id, donations.planId))
    .where(and(eq(donations.userId, userId), inArray(donations.status, ['succeeded', 'refunded'])))
    .orderBy(desc(donations.createdAt))
    .limit(limit);
}

export type PlanRow = typeof donationPlans.$inferSelect;
export type ActionRow = typeof donationActions.$inferSelect;

export async function insertPlan(tx: Executor, values: typeof donationPlans.$inferInsert) {
  await tx.insert(donationPlans).values(values);
}

export async function findPlan(db: Executor, id: string) {
  const [row] = await db.select().from(donationPlans).where(eq(donationPlans.id, id));
  return row;
}

export async function lockPlan(tx: Executor, id: string) {
  const [row] = await tx.select().from(donationPlans).where(eq(donationPlans.id, id)).for('update');
  return row;
}

export async function updatePlan(tx: Executor, id: string, changes: Partial<typeof donationPlans.$inferInsert>, now: Date) {
  const [row] = await tx
    .update(donationPlans)
    .set({ ...changes, updatedAt: now })
    .where(eq(donationPlans.id, id))
    .returning();
  return row!;
}

const LIVE_PLAN = ['incomplete', 'active', 'paused'] as const;

/** The recipient's plans that may still charge (a first checkout under way, running, paused). */
export function listLivePlanIdsOfRecipient(db: Executor, userId: string) {
  return db
    .select({ id: donationPlans.id })
    .from(donationPlans)
    .where(and(eq(donationPlans.userId, userId), inArray(donationPlans.status, [...LIVE_PLAN])));
}

export function lockLivePlansOfRecipient(tx: Executor, userId: string) {
  return tx
    .select()
    .from(donationPlans)
    .where(and(eq(donationPlans.userId, userId), inArray(donationPlans.status, [...LIVE_PLAN])))
    .orderBy(asc(donationPlans.id))
    .for('update');
}

/**
 * Claims one plan whose charge is due and leases it until `leaseUntil` in one statement: another worker skips it, and
 * a worker that dies mid-charge leaves a plan that falls due again (and charges under the same idempotency key).
 */
export async function claimDueCharge(tx: Executor, now: Date, leaseUntil: Date) {
  const due = tx
    .select({ id: donationPlans.id })
    .from(donationPlans)
    .where(and(inArray(donationPlans.status, ['active', 'paused']), lte(donationPlans.nextChargeAt, now)))
    .orderBy(asc(donationPlans.nextChargeAt))
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await tx
    .update(donationPlans)
    .set({ nextChargeAt: leaseUntil })
    .where(eq(donationPlans.id, sql`(${due})`))
    .returning();
  return row;
}

/** Claims one plan whose reminder e-mail is due; the caller writes the e-mail and clears `remindAt` in its transaction. */
export async function claimDueReminder(tx: Executor, now: Date) {
  const [row] = await tx
    .select()
    .from(donationPlans)
    .where(and(inArray(donationPlans.status, ['active', 'paused']), lte(donationPlans.remindAt, now)))
    .orderBy(asc(donationPlans.remindAt))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function insertAction(tx: Executor, values: typeof donationActions.$inferInsert) {
  const [row] = await tx.insert(donationActions).values(values).returning();
  return row!;
}

export async function findAction(db: Executor, id: string) {
  const [row] = await db.select().from(donationActions).where(eq(donationActions.id, id));
  return row;
}

/** Marks a link used if it is unused and unexpired; answers nothing otherwise. A concurrent twin waits, then gets nothing. */
export async function useAction(tx: Executor, id: string, now: Date) {
  const [row] = await tx
    .update(donationActions)
    .set({ usedAt: now })
    .where(and(eq(donationActions.id, id), isNull(donationActions.usedAt), gt(donationActions.expiresAt, now)))
    .returning();
  return row;
}

/** The recipient's active monthly donors (paused ones too) and what they give each month. */
export async function monthlyFigures(db: Executor, userId: string) {
  const [row] = await db
    .select({ donors: sql<number>`count(*)::int`, totalCents: sql<string>`coalesce(sum(${donationPlans.amountCents}), 0)::text` })
    .from(donationPlans)
    .where(and(eq(donationPlans.userId, userId), eq(donationPlans.status, 'active')));
  return { donors: row?.donors ?? 0, totalCents: Number(row?.totalCents ?? 0) };
}

/** Claims one plan whose January statement e-mail is due. */
export async function claimDueStatement(tx: Executor, now: Date) {
  const [row] = await tx
    .select()
    .from(donationPlans)
    .where(lte(donationPlans.statementDueAt, now))
    .orderBy(asc(donationPlans.statementDueAt))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

/** A donor's gifts (by code and e-mail) that reached one recipient in [from, to), oldest first: a statement's lines. */
export function listDonorDonations(
  db: Executor,
  donor: { userId: string; donorCode: string; donorEmail: string },
  from: Date,
  to: Date,
) {
  return db
    .select()
    .from(donations)
    .where(
      and(
        eq(donations.userId, donor.userId),
        eq(donations.donorCode, donor.donorCode),
        eq(donations.donorEmail, donor.donorEmail),
        eq(donations.status, 'succeeded'),
        gte(donations.createdAt, from),
        lt(donations.createdAt, to),
      ),
    )
    .orderBy(asc(donations.createdAt));
}

/** Gifts by the donor's e-mail, in any case (back office search), the newest first. */
export function findDonationsByDonorEmail(db: Executor, email: string, limit: number) {
  return db
    .select()
    .from(donations)
    .where(sql`lower(${donations.donorEmail}) = ${email.toLowerCase()}`)
    .orderBy(desc(donations.createdAt))
    .limit(limit);
}
