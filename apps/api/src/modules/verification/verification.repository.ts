import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { verifications } from '../../db/schema/verification.ts';

export type VerificationRow = typeof verifications.$inferSelect;
export type NewVerification = typeof verifications.$inferInsert;

/** The constraint that keeps one pending or approved request per user (schema.ts). */
export const ONE_OPEN_PER_USER = 'verifications_one_open_per_user_key';

/** The user's latest request: their current status. */
export async function findLatestVerification(db: Executor, userId: string): Promise<VerificationRow | undefined> {
  const [row] = await db
    .select()
    .from(verifications)
    .where(eq(verifications.userId, userId))
    .orderBy(desc(verifications.createdAt), desc(verifications.id))
    .limit(1);
  return row;
}

export async function insertVerification(db: Executor, values: NewVerification): Promise<VerificationRow> {
  const [row] = await db.insert(verifications).values(values).returning();
  return row!;
}

/** Decides a pending request in one statement; undefined when it is not pending (already decided, or never was). */
export async function decidePendingVerification(
  db: Executor,
  id: string,
  decision: { status: 'approved' | 'rejected'; rejectionReason: string | null; reviewedAt: Date },
): Promise<VerificationRow | undefined> {
  const [row] = await db
    .update(verifications)
    .set(decision)
    .where(and(eq(verifications.id, id), eq(verifications.status, 'pending')))
    .returning();
  return row;
}

export async function findVerification(db: Executor, id: string): Promise<VerificationRow | undefined> {
  const [row] = await db.select().from(verifications).where(eq(verifications.id, id));
  return row;
}

/** Pending requests, oldest first: the compliance queue. */
export function listPendingVerifications(db: Executor, limit: number) {
  return db
    .select()
    .from(verifications)
    .where(eq(verifications.status, 'pending'))
    .orderBy(asc(verifications.createdAt))
    .limit(limit);
}

/** The purge: every request of the user goes; answers the document files they held. */
export async function deleteVerificationsOfUser(tx: Executor, userId: string): Promise<string[]> {
  const rows = await tx.delete(verifications).where(eq(verifications.userId, userId)).returning();
  return rows.flatMap((row) =>
    [row.documentFrontFileId, row.documentBackFileId, row.registrationDocumentFileId].filter((id): id is string => id !== null),
  );
}

export async function countPendingVerifications(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(verifications).where(eq(verifications.status, 'pending'));
  return row!.n;
}
