import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { userNotices } from '../../db/schema/messaging.ts';
import type { NoticeBody } from '@tipcard/shared/notices/schemas';

export type NoticeRow = typeof userNotices.$inferSelect;

export async function insertNotice(tx: Executor, userId: string, body: NoticeBody, now: Date): Promise<NoticeRow> {
  const [row] = await tx.insert(userNotices).values({ userId, body, createdAt: now }).returning();
  return row!;
}

/** The user's latest notices, newest first. */
export function listNotices(db: Executor, userId: string, limit: number) {
  return db
    .select()
    .from(userNotices)
    .where(eq(userNotices.userId, userId))
    .orderBy(desc(userNotices.createdAt), desc(userNotices.id))
    .limit(limit);
}

export async function countUnread(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(userNotices)
    .where(and(eq(userNotices.userId, userId), isNull(userNotices.readAt)));
  return row?.n ?? 0;
}

/** Marks one of the user's notices read (a notice read earlier keeps its time); false when the user has no such notice. */
export async function markRead(db: Executor, userId: string, id: string, now: Date): Promise<boolean> {
  const [found] = await db
    .select({ readAt: userNotices.readAt })
    .from(userNotices)
    .where(and(eq(userNotices.id, id), eq(userNotices.userId, userId)));
  if (!found) return false;
  if (!found.readAt)
    await db
      .update(userNotices)
      .set({ readAt: now })
      .where(and(eq(userNotices.id, id), isNull(userNotices.readAt)));
  return true;
}

export async function markAllRead(db: Executor, userId: string, now: Date): Promise<void> {
  await db
    .update(userNotices)
    .set({ readAt: now })
    .where(and(eq(userNotices.userId, userId), isNull(userNotices.readAt)));
}

export async function deleteNoticesOf(tx: Executor, userId: string): Promise<void> {
  await tx.delete(userNotices).where(eq(userNotices.userId, userId));
}
