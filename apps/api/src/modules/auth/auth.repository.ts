import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { otpCodes, refreshTokens, registrations } from '../../db/schema/auth.ts';

export type OtpCode = typeof otpCodes.$inferSelect;
export type OtpPurpose = OtpCode['purpose'];
export type RefreshToken = typeof refreshTokens.$inferSelect;

/** Serialises code sends for one phone across instances, so the resend wait and the daily cap cannot be raced. */
export async function lockPhone(tx: Executor, phone: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`otp:${phone}`}, 0))`);
}

export async function findLatestOtp(tx: Executor, phone: string) {
  const [row] = await tx.select().from(otpCodes).where(eq(otpCodes.phone, phone)).orderBy(desc(otpCodes.createdAt)).limit(1);
  return row;
}

export async function countOtpsSince(tx: Executor, phone: string, since: Date) {
  const [row] = await tx
    .select({ sent: count() })
    .from(otpCodes)
    .where(and(eq(otpCodes.phone, phone), gt(otpCodes.createdAt, since)));
  return row?.sent ?? 0;
}

export async function insertOtp(tx: Executor, values: typeof otpCodes.$inferInsert) {
  const [row] = await tx.insert(otpCodes).values(values).returning();
  return row!;
}

/** A new code replaces every earlier live code for the same purpose and phone. */
export async function retireLiveOtps(tx: Executor, phone: string, purpose: OtpPurpose, now: Date) {
  await tx
    .update(otpCodes)
    .set({ consumedAt: now })
    .where(and(eq(otpCodes.phone, phone), eq(otpCodes.purpose, purpose), isNull(otpCodes.consumedAt)));
}

export async function findLiveOtp(tx: Executor, where: { phone: string; purpose: OtpPurpose; registrationId?: string }) {
  const [row] = await tx
    .select()
    .from(otpCodes)
    .where(
      and(
        eq(otpCodes.phone, where.phone),
        eq(otpCodes.purpose, where.purpose),
        where.registrationId ? eq(otpCodes.registrationId, where.registrationId) : undefined,
        isNull(otpCodes.consumedAt),
      ),
    )
    .orderBy(desc(otpCodes.createdAt))
    .limit(1);
  return row;
}

/** Counts one wrong try atomically and answers the new count. */
export async function addOtpAttempt(tx: Executor, id: string) {
  const [row] = await tx
    .update(otpCodes)
    .set({ attempts: sql`${otpCodes.attempts} + 1` })
    .where(eq(otpCodes.id, id))
    .returning({ attempts: otpCodes.attempts });
  return row?.attempts ?? 0;
}

/** Single use: only the first of two concurrent right answers consumes the code. */
export async function consumeOtp(tx: Executor, id: string, now: Date) {
  const rows = await tx
    .update(otpCodes)
    .set({ consumedAt: now })
    .where(and(eq(otpCodes.id, id), isNull(otpCodes.consumedAt)))
    .returning({ id: otpCodes.id });
  return rows.length === 1;
}

export async function insertRegistration(tx: Executor, values: typeof registrations.$inferInsert) {
  const [row] = await tx.insert(registrations).values(values).returning();
  return row!;
}

export async function findRegistration(tx: Executor, id: string) {
  const [row] = await tx.select().from(registrations).where(eq(registrations.id, id));
  return row;
}

export async function markRegistrationVerified(tx: Executor, id: string, userId: string, now: Date) {
  await tx.update(registrations).set({ verifiedAt: now, userId }).where(eq(registrations.id, id));
}

export async function insertRefreshToken(tx: Executor, values: typeof refreshTokens.$inferInsert) {
  await tx.insert(refreshTokens).values(values);
}

export async function findRefreshToken(tx: Executor, tokenHash: string) {
  const [row] = await tx.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

/** Marks a live token used; false when it was already rotated or revoked (a reuse). */
export async function rotateRefreshToken(tx: Executor, id: string, now: Date) {
  const rows = await tx
    .update(refreshTokens)
    .set({ rotatedAt: now })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export async function revokeRefreshFamily(tx: Executor, familyId: string, now: Date) {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

export async function revokeUserRefreshTokens(tx: Executor, userId: string, now: Date) {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/** Codes and sign-ups of a phone: the phone number is personal data, the rows serve nothing once used. */
export async function deletePhoneTraces(tx: Executor, phone: string) {
  await tx.delete(otpCodes).where(eq(otpCodes.phone, phone));
  await tx
    .update(registrations)
    .set({ phone: sql`'erased'` })
    .where(eq(registrations.phone, phone));
}
