import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { liveEventHeads, liveEvents } from '../../db/schema/messaging.ts';
import type { LiveEventBody } from '@tipcard/shared/live/schemas';

/** The channel every instance LISTENs on; the payload is `<user id>:<seq>`. */
export const LIVE_CHANNEL = 'live_events';

export type LiveEventRow = typeof liveEvents.$inferSelect;

/**
 * Writes the user's next event in the caller's transaction and announces it: the head row stays locked until that
 * transaction ends, so the user's next writer waits and numbers commit in order; NOTIFY is sent only at commit.
 */
export async function insertLiveEvent(tx: Executor, userId: string, body: LiveEventBody, now: Date): Promise<number> {
  const [head] = await tx
    .insert(liveEventHeads)
    .values({ userId, lastSeq: 1 })
    .onConflictDoUpdate({ target: liveEventHeads.userId, set: { lastSeq: sql`${liveEventHeads.lastSeq} + 1` } })
    .returning({ seq: liveEventHeads.lastSeq });
  const seq = Number(head!.seq);
  await tx.insert(liveEvents).values({ userId, seq, body, createdAt: now });
  await tx.execute(sql`SELECT pg_notify(${LIVE_CHANNEL}, ${`${userId}:${seq}`})`);
  return seq;
}

/** The user's events after `afterSeq`, oldest first. */
export function liveEventsAfter(db: Executor, userId: string, afterSeq: number, limit: number) {
  return db
    .select()
    .from(liveEvents)
    .where(and(eq(liveEvents.userId, userId), gt(liveEvents.seq, afterSeq)))
    .orderBy(asc(liveEvents.seq))
    .limit(limit);
}

/** The user's last event number (0 before any): where a stream opened without Last-Event-ID starts. */
export async function lastLiveSeq(db: Executor, userId: string): Promise<number> {
  const [head] = await db.select().from(liveEventHeads).where(eq(liveEventHeads.userId, userId));
  return Number(head?.lastSeq ?? 0);
}

/** Deletes up to `limit` events written before `before`; answers how many went. The heads stay, so numbers never repeat. */
export async function pruneLiveEvents(db: Executor, before: Date, limit: number): Promise<number> {
  const old = db
    .select({ userId: liveEvents.userId, seq: liveEvents.seq })
    .from(liveEvents)
    .where(lt(liveEvents.createdAt, before))
    .limit(limit);
  const rows = await db
    .delete(liveEvents)
    .where(sql`(${liveEvents.userId}, ${liveEvents.seq}) IN (${old})`)
    .returning({ seq: liveEvents.seq });
  return rows.length;
}
