import { and, desc, eq, gt, gte, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { payoutScheduleChanges, payoutScheduleRuns, payoutSchedules } from '../../db/schema/payout-schedules.ts';

export type PayoutScheduleRow = typeof payoutSchedules.$inferSelect;
export type PayoutScheduleChangeRow = typeof payoutScheduleChanges.$inferSelect;
export type PayoutScheduleRunRow = typeof payoutScheduleRuns.$inferSelect;

export async function findSchedule(db: Executor, userId: string) {
  const [row] = await db.select().from(payoutSchedules).where(eq(payoutSchedules.userId, userId));
  return row;
}

/** The schedule in force after a confirmed change: the rule replaced, the pause and the due time started afresh. */
export async function upsertSchedule(tx: Executor, values: typeof payoutSchedules.$inferInsert) {
  const { userId: _userId, createdAt: _createdAt, ...changes } = values;
  const [row] = await tx
    .insert(payoutSchedules)
    .values(values)
    .onConflictDoUpdate({ target: payoutSchedules.userId, set: changes })
    .returning();
  return row!;
}

export async function deleteSchedule(tx: Executor, userId: string) {
  await tx.delete(payoutSchedules).where(eq(payoutSchedules.userId, userId));
}

export async function updateSchedule(tx: Executor, userId: string, changes: Partial<typeof payoutSchedules.$inferInsert>) {
  await tx.update(payoutSchedules).set(changes).where(eq(payoutSchedules.userId, userId));
}

/** One due active schedule, locked until the run's transaction ends; schedules another worker holds are skipped. */
export async function claimDueSchedule(tx: Executor, now: Date) {
  const [row] = await tx
    .select()
    .from(payoutSchedules)
    .where(and(eq(payoutSchedules.status, 'active'), lte(payoutSchedules.nextRunAt, now)))
    .orderBy(payoutSchedules.nextRunAt)
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function insertChange(tx: Executor, values: typeof payoutScheduleChanges.$inferInsert) {
  const [row] = await tx.insert(payoutScheduleChanges).values(values).returning();
  return row!;
}

export async function findChange(db: Executor, id: string) {
  const [row] = await db.select().from(payoutScheduleChanges).where(eq(payoutScheduleChanges.id, id));
  return row;
}

export async function findChangeForUpdate(tx: Executor, id: string) {
  const [row] = await tx.select().from(payoutScheduleChanges).where(eq(payoutScheduleChanges.id, id)).for('update');
  return row;
}

/** The newest change still waiting for a live code (not expired, tries left), if any. */
export async function findPendingChange(db: Executor, userId: string, now: Date, maxAttempts: number) {
  const [row] = await db
    .select()
    .from(payoutScheduleChanges)
    .where(
      and(
        eq(payoutScheduleChanges.userId, userId),
        isNull(payoutScheduleChanges.confirmedAt),
        gt(payoutScheduleChanges.codeExpiresAt, now),
        lt(payoutScheduleChanges.codeAttempts, maxAttempts),
      ),
    )
    .orderBy(desc(payoutScheduleChanges.createdAt), desc(payoutScheduleChanges.codeSentAt))
    .limit(1);
  return row;
}

export async function countChangesSince(db: Executor, userId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(payoutScheduleChanges)
    .where(and(eq(payoutScheduleChanges.userId, userId), gte(payoutScheduleChanges.createdAt, since)));
  return row?.count ?? 0;
}

/** Counts a wrong code in its own statement (never rolled back with a caller's transaction); answers the new count. */
export async function addChangeAttempt(db: Executor, id: string): Promise<number> {
  const [row] = await db
    .update(payoutScheduleChanges)
    .set({ codeAttempts: sql`${payoutScheduleChanges.codeAttempts} + 1` })
    .where(eq(payoutScheduleChanges.id, id))
    .returning({ attempts: payoutScheduleChanges.codeAttempts });
  return row?.attempts ?? Number.MAX_SAFE_INTEGER;
}

export async function updateChange(tx: Executor, id: string, changes: Partial<typeof payoutScheduleChanges.$inferInsert>) {
  await tx.update(payoutScheduleChanges).set(changes).where(eq(payoutScheduleChanges.id, id));
}

/** Codes of the user's unconfirmed changes die (the schedule was cancelled: an old code must not set it again). */
export async function expirePendingChanges(tx: Executor, userId: string, now: Date) {
  await tx
    .update(payoutScheduleChanges)
    .set({ codeExpiresAt: now })
    .where(
      and(
        eq(payoutScheduleChanges.userId, userId),
        isNull(payoutScheduleChanges.confirmedAt),
        gt(payoutScheduleChanges.codeExpiresAt, now),
      ),
    );
}

/**
 * Records a run for the user's period unless one is recorded already: the unique (user, period) key answers
 * undefined to the second, which then does nothing.
 */
export async function insertRunOnce(tx: Executor, values: typeof payoutScheduleRuns.$inferInsert) {
  const [row] = await tx
    .insert(payoutScheduleRuns)
    .values(values)
    .onConflictDoNothing({ target: [payoutScheduleRuns.userId, payoutScheduleRuns.period] })
    .returning();
  return row;
}

export async function setRunPayout(tx: Executor, runId: string, payoutId: string) {
  await tx.update(payoutScheduleRuns).set({ payoutId }).where(eq(payoutScheduleRuns.id, runId));
}

export async function findLastRun(db: Executor, userId: string) {
  const [row] = await db
    .select()
    .from(payoutScheduleRuns)
    .where(eq(payoutScheduleRuns.userId, userId))
    .orderBy(desc(payoutScheduleRuns.createdAt), desc(payoutScheduleRuns.id))
    .limit(1);
  return row;
}

export function listRuns(db: Executor, userId: string) {
  return db.select().from(payoutScheduleRuns).where(eq(payoutScheduleRuns.userId, userId)).orderBy(payoutScheduleRuns.period);
}
