import { and, asc, desc, eq, inArray, isNotNull, isNull, like, lte, ne, sql } from 'drizzle-orm';
import type { Locale } from '@tipcard/shared/constants';
import type { Executor } from '../../db/client.ts';
import { clients, users } from '../../db/schema/users.ts';

export type User = typeof users.$inferSelect;
export type Client = typeof clients.$inferSelect;

export async function findUserByPhone(db: Executor, phone: string) {
  const [row] = await db.select().from(users).where(eq(users.phone, phone));
  return row;
}

export async function findUserById(db: Executor, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** What the auth plugin asks on every guarded call: the columns that decide whether a session still stands. */
export async function findSessionState(db: Executor, id: string) {
  const [row] = await db
    .select({ sessionVersion: users.sessionVersion, blockedAt: users.blockedAt, erasedAt: users.erasedAt })
    .from(users)
    .where(eq(users.id, id));
  return row;
}

export async function incrementSessionVersion(tx: Executor, id: string) {
  await tx
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, id));
}

export async function findUserByReferralCode(db: Executor, referralCode: string) {
  const [row] = await db.select().from(users).where(eq(users.referralCode, referralCode));
  return row;
}

export async function insertUser(db: Executor, values: typeof users.$inferInsert) {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function insertClient(db: Executor, values: typeof clients.$inferInsert) {
  const [row] = await db.insert(clients).values(values).returning();
  return row!;
}

export function listClients(db: Executor, userId: string) {
  return db.select().from(clients).where(eq(clients.userId, userId)).orderBy(clients.createdAt);
}

export async function findClient(db: Executor, clientId: string) {
  const [row] = await db.select().from(clients).where(eq(clients.id, clientId));
  return row;
}

/** Users whose phone contains the digits typed (back office search). */
export function searchUsersByPhone(db: Executor, digits: string, limit: number) {
  return db
    .select()
    .from(users)
    .where(like(users.phone, `%${digits}%`))
    .orderBy(desc(users.createdAt))
    .limit(limit);
}

export async function setUserBlock(
  tx: Executor,
  userId: string,
  block: { blockedAt: Date | null; blockedReason: string | null },
) {
  const [row] = await tx.update(users).set(block).where(eq(users.id, userId)).returning();
  return row;
}

export async function findClientWithUser(db: Executor, clientId: string) {
  const [row] = await db
    .select({ client: clients, user: users })
    .from(clients)
    .innerJoin(users, eq(users.id, clients.userId))
    .where(eq(clients.id, clientId));
  return row;
}

/**
 * The user row, locked against another change of the account's state. `no key update`: rows that merely reference the
 * user (a ledger account, a payment's share, written by a payment arriving now) take a key-share lock on it, which
 * this must not block; a deletion waiting on that payment would otherwise deadlock with it.
 */
export async function lockUser(tx: Executor, id: string) {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('no key update');
  return row;
}

/** The user's row under a key-share lock: it cannot be erased or its phone changed until the caller commits. */
export async function keyShareLockUser(tx: Executor, id: string) {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('key share');
  return row;
}

/** Of these users, the ids of those whose account is deleted (erased ones included). */
export async function findDeletedAmong(db: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), isNotNull(users.deletedAt)));
  return new Set(rows.map((row) => row.id));
}

export async function setDeletion(tx: Executor, id: string, values: { deletedAt: Date | null; erasureDueAt: Date | null }) {
  await tx.update(users).set(values).where(eq(users.id, id));
}

/** One deleted account whose erasure is due, locked; others' workers skip it. */
export async function claimDueErasure(tx: Executor, now: Date) {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(isNotNull(users.deletedAt), isNull(users.erasedAt), lte(users.erasureDueAt, now)))
    .orderBy(asc(users.erasureDueAt))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function markErased(tx: Executor, id: string, values: { phone: string; erasedAt: Date }) {
  await tx
    .update(users)
    .set({ ...values, promoSource: null, erasureDueAt: null })
    .where(eq(users.id, id));
}

export async function updateNotificationChoices(
  db: Executor,
  id: string,
  values: { smsSupportReplies: boolean; smsPayouts: boolean; smsRefunds: boolean },
) {
  const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  return row;
}

/** The language the user's texts are written in (docs/decisions/0032); unchanged rows are not rewritten. */
export async function updateLanguage(db: Executor, id: string, language: Locale) {
  await db
    .update(users)
    .set({ language })
    .where(and(eq(users.id, id), ne(users.language, language)));
}

/** One erased account whose records are due for the purge (erased before `erasedBefore`), locked; others skip it. */
export async function claimDuePurge(tx: Executor, erasedBefore: Date) {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(isNull(users.purgedAt), lte(users.erasedAt, erasedBefore)))
    .orderBy(asc(users.erasedAt))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function markPurged(tx: Executor, id: string, purgedAt: Date) {
  await tx.update(users).set({ purgedAt, referredByUserId: null }).where(eq(users.id, id));
}
