import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { liveEventHeads, liveEvents } from '../../db/schema/messaging.ts';
import type { LiveEventBody } from '@tipcard/shared/live/schemas';

/** The channel every instance LISTENs on; the payload is `<user id>:<seq>`. */
export const LIVE_CHANNEL = 'live_events';

export type LiveEventRow = typeof liveEvents.$inferSelect;

// Each user's head moved on by their count of events (locked in user order), the events numbered after it in the order
// given, and each announced; NOTIFY is sent only at commit.
const insertLiveEventsStatement = preparedStatement<{ seq: number | string }>(
  'live_insert_events',
  `WITH wanted AS (
     SELECT * FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS wanted(user_id, body, position)
   ), counts AS (
     SELECT user_id, count(*)::bigint AS n FROM wanted GROUP BY user_id
   ), heads AS (
     INSERT INTO live_event_heads (user_id, last_seq) SELECT user_id, n FROM counts ORDER BY user_id
     ON CONFLICT (user_id) DO UPDATE SET last_seq = live_event_heads.last_seq + excluded.last_seq
     RETURNING user_id, last_seq
   ), numbered AS (
     SELECT wanted.user_id, wanted.body, wanted.position,
            heads.last_seq - counts.n + row_number() OVER (PARTITION BY wanted.user_id ORDER BY wanted.position) AS seq
     FROM wanted JOIN heads USING (user_id) JOIN counts USING (user_id)
   ), inserted AS (
     INSERT INTO live_events (user_id, seq, body, created_at)
     SELECT user_id, seq, body::jsonb, $3::timestamptz FROM numbered ORDER BY position
   )
   SELECT seq, pg_notify('${LIVE_CHANNEL}', user_id::text || ':' || seq::text) FROM numbered ORDER BY position`,
);

/**
 * Writes users' next events in the caller's transaction and announces them, in one statement: each user's head row
 * stays locked until that transaction ends, so the user's next writer waits and numbers commit in order; NOTIFY is
 * sent only at commit. A user's events are numbered in the order given. Answers their numbers, in that order.
 */
export async function insertLiveEvents(
  tx: Executor,
  events: readonly { userId: string; body: LiveEventBody }[],
  now: Date,
): Promise<number[]> {
  if (events.length === 0) return [];
  const rows = await insertLiveEventsStatement(tx, [
    events.map((event) => event.userId),
    events.map((event) => JSON.stringify(event.body)),
    now,
  ]);
  return rows.map((row) => Number(row.seq));
}

/** One event of the user's: `insertLiveEvents` of one. */
export async function insertLiveEvent(tx: Executor, userId: string, body: LiveEventBody, now: Date): Promise<number> {
  const [seq] = await insertLiveEvents(tx, [{ userId, body }], now);
  return seq!;
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
