import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { likeLiteral } from '../../db/like.ts';
import {
  operatorPasskeyChallenges,
  operatorPasskeys,
  operatorSessions,
  operators,
  opsAudit,
  opsHealthSnapshots,
  refundRequests,
} from '../../db/schema/ops.ts';

export type OperatorRow = typeof operators.$inferSelect;
export type OperatorSessionRow = typeof operatorSessions.$inferSelect;
export type PasskeyRow = typeof operatorPasskeys.$inferSelect;
export type AuditRow = typeof opsAudit.$inferSelect;
export type RefundRequestRow = typeof refundRequests.$inferSelect;
export type HealthSnapshotRow = typeof opsHealthSnapshots.$inferSelect;

export async function insertOperator(tx: Executor, values: typeof operators.$inferInsert) {
  const [row] = await tx.insert(operators).values(values).returning();
  return row!;
}

export async function findOperatorByEmailForUpdate(tx: Executor, email: string) {
  const [row] = await tx.select().from(operators).where(eq(operators.email, email)).for('update');
  return row;
}

export async function findOperatorById(db: Executor, id: string) {
  const [row] = await db.select().from(operators).where(eq(operators.id, id));
  return row;
}

export async function findOperatorForUpdate(tx: Executor, id: string) {
  const [row] = await tx.select().from(operators).where(eq(operators.id, id)).for('update');
  return row;
}

export async function findOperatorByEnrolmentToken(db: Executor, tokenHash: string) {
  const [row] = await db.select().from(operators).where(eq(operators.enrolmentTokenHash, tokenHash));
  return row;
}

export async function updateOperator(tx: Executor, id: string, changes: Partial<typeof operators.$inferInsert>) {
  const [row] = await tx.update(operators).set(changes).where(eq(operators.id, id)).returning();
  return row!;
}

export async function countOperators(db: Executor) {
  const [row] = await db.select({ n: count() }).from(operators);
  return row!.n;
}

/** Namespace of the advisory lock below (the first key), apart from other modules' locks. */
const OPERATOR_SETUP_LOCK = 1_003;

/** Held by the first admin's set-up until its transaction ends, so two set-ups at once make one admin. */
export async function lockOperatorSetup(tx: Executor) {
  await tx.execute(sql`select pg_advisory_xact_lock(${OPERATOR_SETUP_LOCK}, 0)`);
}

/** The enabled admins, locked for the caller's transaction (counting them for "one admin always stays"). */
export function lockEnabledAdmins(tx: Executor) {
  return tx
    .select({ id: operators.id })
    .from(operators)
    .where(and(eq(operators.role, 'admin'), isNull(operators.disabledAt)))
    .orderBy(operators.id)
    .for('update');
}

export function listOperators(db: Executor) {
  return db.select().from(operators).orderBy(operators.email);
}

/** Every operator's sealed TOTP secret (a JWT secret rotation re-seals them). */
export function listSealedTotpSecrets(db: Executor) {
  return db.select({ id: operators.id, totpSecretSealed: operators.totpSecretSealed }).from(operators).orderBy(asc(operators.id));
}

/** Replaces a sealed TOTP secret only if it is still `before`; answers whether it did. */
export async function replaceSealedTotpSecret(db: Executor, id: string, before: string, after: string): Promise<boolean> {
  const rows = await db
    .update(operators)
    .set({ totpSecretSealed: after })
    .where(and(eq(operators.id, id), eq(operators.totpSecretSealed, before)))
    .returning({ id: operators.id });
  return rows.length > 0;
}

export async function insertSession(tx: Executor, values: typeof operatorSessions.$inferInsert) {
  const [row] = await tx.insert(operatorSessions).values(values).returning();
  return row!;
}

/**
 * Marks the session seen now if it is alive (not ended, not past its absolute end, seen within the idle limit);
 * answers the live session or nothing. One statement, so two requests at once cannot revive a dead session.
 */
export async function touchLiveSession(db: Executor, id: string, now: Date, idleSince: Date) {
  const [row] = await db
    .update(operatorSessions)
    .set({ lastSeenAt: now })
    .where(
      and(
        eq(operatorSessions.id, id),
        isNull(operatorSessions.endedAt),
        gte(operatorSessions.lastSeenAt, idleSince),
        gt(operatorSessions.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

export async function endSession(db: Executor, id: string, now: Date) {
  await db
    .update(operatorSessions)
    .set({ endedAt: now })
    .where(and(eq(operatorSessions.id, id), isNull(operatorSessions.endedAt)));
}

export async function endSessionsOf(tx: Executor, operatorId: string, now: Date) {
  await tx
    .update(operatorSessions)
    .set({ endedAt: now })
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.endedAt)));
}

/** Every session of the operator but one ends (a credential of theirs changed from that one). */
export async function endOtherSessionsOf(tx: Executor, operatorId: string, keep: string, now: Date) {
  await tx
    .update(operatorSessions)
    .set({ endedAt: now })
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.endedAt), ne(operatorSessions.id, keep)));
}

/** Stores a challenge handed out; expired ones are swept on the way (they are few and small). */
export async function insertPasskeyChallenge(db: Executor, values: typeof operatorPasskeyChallenges.$inferInsert, now: Date) {
  await db.delete(operatorPasskeyChallenges).where(lte(operatorPasskeyChallenges.expiresAt, now));
  await db.insert(operatorPasskeyChallenges).values(values);
}

/**
 * Takes a challenge once: deleted as it is read, so an answer replayed (or sent twice at once) finds it gone. Only a
 * live one of the purpose, and for a registration only from the session it was handed to.
 */
export async function takePasskeyChallenge(
  db: Executor,
  challengeHash: string,
  purpose: 'register' | 'sign_in',
  sessionId: string | null,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .delete(operatorPasskeyChallenges)
    .where(
      and(
        eq(operatorPasskeyChallenges.challengeHash, challengeHash),
        eq(operatorPasskeyChallenges.purpose, purpose),
        sessionId === null ? isNull(operatorPasskeyChallenges.sessionId) : eq(operatorPasskeyChallenges.sessionId, sessionId),
        gt(operatorPasskeyChallenges.expiresAt, now),
      ),
    )
    .returning({ challengeHash: operatorPasskeyChallenges.challengeHash });
  return rows.length > 0;
}

export async function insertPasskey(tx: Executor, values: typeof operatorPasskeys.$inferInsert) {
  const [row] = await tx.insert(operatorPasskeys).values(values).returning();
  return row!;
}

export function listPasskeysOf(db: Executor, operatorId: string) {
  return db
    .select()
    .from(operatorPasskeys)
    .where(eq(operatorPasskeys.operatorId, operatorId))
    .orderBy(asc(operatorPasskeys.createdAt), asc(operatorPasskeys.id));
}

export async function findPasskeyByCredentialId(db: Executor, credentialId: string) {
  const [row] = await db.select().from(operatorPasskeys).where(eq(operatorPasskeys.credentialId, credentialId));
  return row;
}

export async function findPasskeyForUpdate(tx: Executor, id: string) {
  const [row] = await tx.select().from(operatorPasskeys).where(eq(operatorPasskeys.id, id)).for('update');
  return row;
}

export async function updatePasskey(tx: Executor, id: string, changes: Partial<typeof operatorPasskeys.$inferInsert>) {
  await tx.update(operatorPasskeys).set(changes).where(eq(operatorPasskeys.id, id));
}

/** Removes one passkey of the operator; answers the removed row, or nothing when it is not theirs. */
export async function deletePasskeyOf(tx: Executor, operatorId: string, id: string) {
  const [row] = await tx
    .delete(operatorPasskeys)
    .where(and(eq(operatorPasskeys.id, id), eq(operatorPasskeys.operatorId, operatorId)))
    .returning();
  return row;
}

/** Removes every passkey of the operator (an admin's reset); answers how many there were. */
export async function deletePasskeysOf(tx: Executor, operatorId: string) {
  return (
    await tx.delete(operatorPasskeys).where(eq(operatorPasskeys.operatorId, operatorId)).returning({ id: operatorPasskeys.id })
  ).length;
}

export async function insertAudit(tx: Executor, values: typeof opsAudit.$inferInsert) {
  const [row] = await tx.insert(opsAudit).values(values).returning();
  return row!;
}

export interface AuditFilter {
  operatorId?: string | undefined;
  /** Part of the actor's label (an operator's e-mail, `cli`), any case. */
  actor?: string | undefined;
  /** An action, or its family: `refund` is `refund` and `refund.*`. */
  action?: string | undefined;
  subjectType?: string | undefined;
  /** The start of the subject's id, any case. */
  subjectId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

export function listAudit(db: Executor, filter: AuditFilter, limit: number) {
  const conditions: SQL[] = [];
  if (filter.operatorId) conditions.push(eq(opsAudit.operatorId, filter.operatorId));
  if (filter.actor) conditions.push(sql`${opsAudit.actor} ilike ${`%${likeLiteral(filter.actor)}%`}`);
  if (filter.action)
    conditions.push(sql`(${opsAudit.action} = ${filter.action} or ${opsAudit.action} like ${`${likeLiteral(filter.action)}.%`})`);
  if (filter.subjectType) conditions.push(eq(opsAudit.subjectType, filter.subjectType));
  if (filter.subjectId)
    conditions.push(sql`lower(${opsAudit.subjectId}) like ${`${likeLiteral(filter.subjectId.toLowerCase())}%`}`);
  if (filter.from) conditions.push(gte(opsAudit.createdAt, filter.from));
  if (filter.to) conditions.push(lte(opsAudit.createdAt, filter.to));
  return db
    .select()
    .from(opsAudit)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(opsAudit.createdAt), desc(opsAudit.id))
    .limit(limit);
}

export async function insertRefundRequest(tx: Executor, values: typeof refundRequests.$inferInsert) {
  const [row] = await tx.insert(refundRequests).values(values).returning();
  return row!;
}

export async function findRefundRequest(db: Executor, id: string) {
  const [row] = await db.select().from(refundRequests).where(eq(refundRequests.id, id));
  return row;
}

export async function findRefundRequestForUpdate(tx: Executor, id: string) {
  const [row] = await tx.select().from(refundRequests).where(eq(refundRequests.id, id)).for('update');
  return row;
}

export async function findRefundRequestByKey(db: Executor, paymentId: string, idempotencyKey: string) {
  const [row] = await db
    .select()
    .from(refundRequests)
    .where(and(eq(refundRequests.paymentId, paymentId), eq(refundRequests.idempotencyKey, idempotencyKey)));
  return row;
}

/**
 * Of one payment's refund requests: what they hold back (waiting or under way, not yet in the payment's refunded
 * total for sure), what is under way alone, and what was or is being refunded without a second operator.
 */
export async function refundTotalsOfPayment(db: Executor, paymentId: string) {
  const sumWhere = (condition: SQL) =>
    sql<number>`coalesce(sum(${refundRequests.amountCents}) filter (where ${condition}), 0)`.mapWith(Number);
  const [row] = await db
    .select({
      heldCents: sumWhere(inArray(refundRequests.status, ['pending', 'refunding'])),
      refundingCents: sumWhere(eq(refundRequests.status, 'refunding')),
      withoutApprovalCents: sumWhere(
        and(isNull(refundRequests.decidedBy), inArray(refundRequests.status, ['refunding', 'refunded']))!,
      ),
    })
    .from(refundRequests)
    .where(eq(refundRequests.paymentId, paymentId));
  return row!;
}

export async function updateRefundRequest(tx: Executor, id: string, changes: Partial<typeof refundRequests.$inferInsert>) {
  const [row] = await tx.update(refundRequests).set(changes).where(eq(refundRequests.id, id)).returning();
  return row!;
}

/** Ends a refund under way (refunded or failed); answers nothing when another driver ended it first. */
export async function endRefunding(tx: Executor, id: string, changes: Partial<typeof refundRequests.$inferInsert>) {
  const [row] = await tx
    .update(refundRequests)
    .set({ ...changes, leaseUntil: null })
    .where(and(eq(refundRequests.id, id), eq(refundRequests.status, 'refunding')))
    .returning();
  return row;
}

/** Claims one refund under way that nobody drives (its lease ran out): the lease moves to `leaseUntil`. */
export async function claimIdleRefund(tx: Executor, now: Date, leaseUntil: Date) {
  const idle = tx
    .select({ id: refundRequests.id })
    .from(refundRequests)
    .where(and(eq(refundRequests.status, 'refunding'), lte(refundRequests.leaseUntil, now)))
    .orderBy(refundRequests.leaseUntil)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await tx
    .update(refundRequests)
    .set({ leaseUntil })
    .where(eq(refundRequests.id, sql`(${idle})`))
    .returning();
  return row;
}

/** Refund requests in these states, the newest first, with their requester's e-mail (the approval list). */
export function listRefundRequests(db: Executor, statuses: RefundRequestRow['status'][]) {
  return db
    .select({ request: refundRequests, requestedByEmail: operators.email })
    .from(refundRequests)
    .innerJoin(operators, eq(operators.id, refundRequests.requestedBy))
    .where(inArray(refundRequests.status, statuses))
    .orderBy(desc(refundRequests.createdAt))
    .limit(200);
}

/** Every refund request of one payment, the oldest first, with who asked and who decided by e-mail. */
export function listRefundRequestsOfPayment(db: Executor, paymentId: string) {
  const decider = alias(operators, 'decider');
  return db
    .select({ request: refundRequests, requestedByEmail: operators.email, decidedByEmail: decider.email })
    .from(refundRequests)
    .innerJoin(operators, eq(operators.id, refundRequests.requestedBy))
    .leftJoin(decider, eq(decider.id, refundRequests.decidedBy))
    .where(eq(refundRequests.paymentId, paymentId))
    .orderBy(asc(refundRequests.createdAt));
}

export async function countRefundRequests(db: Executor, status: RefundRequestRow['status']): Promise<number> {
  const [row] = await db.select({ n: count() }).from(refundRequests).where(eq(refundRequests.status, status));
  return row!.n;
}

export async function hasHealthSnapshot(db: Executor, hour: Date): Promise<boolean> {
  const [row] = await db
    .select({ hour: opsHealthSnapshots.hour })
    .from(opsHealthSnapshots)
    .where(eq(opsHealthSnapshots.hour, hour));
  return row !== undefined;
}

/** Answers whether this call wrote the hour's snapshot (another worker may have taken it meanwhile). */
export async function insertHealthSnapshot(db: Executor, values: typeof opsHealthSnapshots.$inferInsert): Promise<boolean> {
  const rows = await db
    .insert(opsHealthSnapshots)
    .values(values)
    .onConflictDoNothing()
    .returning({ hour: opsHealthSnapshots.hour });
  return rows.length > 0;
}

export function listHealthSnapshotsSince(db: Executor, since: Date): Promise<HealthSnapshotRow[]> {
  return db.select().from(opsHealthSnapshots).where(gte(opsHealthSnapshots.hour, since)).orderBy(asc(opsHealthSnapshots.hour));
}
