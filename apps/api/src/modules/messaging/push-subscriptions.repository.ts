import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { pushSubscriptions } from '../../db/schema/messaging.ts';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * Subscribes a browser, idempotent on its endpoint: the same browser subscribing again (a new key after the push
 * service rotated it, or another user now signed in on it) updates the one row, so a device is told one user's notices.
 */
export async function upsertSubscription(
  db: Executor,
  row: { userId: string; endpoint: string; p256dh: string; auth: string; userAgent: string | null; createdAt: Date },
): Promise<PushSubscriptionRow> {
  const [saved] = await db
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: {
        userId: row.userId,
        p256dh: row.p256dh,
        auth: row.auth,
        userAgent: row.userAgent,
        // Another user's subscription of this browser starts anew for this one.
        createdAt: sql`CASE WHEN ${pushSubscriptions.userId} = ${row.userId} THEN ${pushSubscriptions.createdAt} ELSE ${row.createdAt} END`,
        lastSuccessAt: sql`CASE WHEN ${pushSubscriptions.userId} = ${row.userId} THEN ${pushSubscriptions.lastSuccessAt} END`,
      },
    })
    .returning();
  return saved!;
}

/** Removes this user's subscription of one browser; answers whether there was one. */
export async function deleteUserSubscription(db: Executor, userId: string, endpoint: string): Promise<boolean> {
  const rows = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return rows.length > 0;
}

export function listUserSubscriptions(db: Executor, userId: string) {
  return db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).orderBy(pushSubscriptions.createdAt);
}

/** The subscriptions of any of these users, each user's in the order they were made. */
export function listSubscriptionsOfUsers(db: Executor, userIds: string[]) {
  return db
    .select()
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.userId, userIds))
    .orderBy(pushSubscriptions.createdAt);
}

export async function findSubscription(db: Executor, id: string): Promise<PushSubscriptionRow | undefined> {
  const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id));
  return row;
}

/** The push service no longer knows it (404, 410): the browser unsubscribed or was reset. */
export async function deleteSubscription(db: Executor, id: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export async function markDelivered(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(pushSubscriptions).set({ lastSuccessAt: at }).where(eq(pushSubscriptions.id, id));
}

/** Erasure of an account: its devices are told nothing more. */
export async function deleteUserSubscriptions(db: Executor, userId: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}
