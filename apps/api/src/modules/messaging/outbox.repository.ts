import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { likeLiteral } from '../../db/like.ts';
import { outboxMessages } from '../../db/schema/messaging.ts';

export type OutboxMessageRow = typeof outboxMessages.$inferSelect;
export type Channel = OutboxMessageRow['channel'];

export async function insertOutboxMessage(
  tx: Executor,
  message: {
    channel: Channel;
    recipient: string;
    body: string;
    subject?: string | undefined;
    replyTo?: string | undefined;
    dueAt: Date;
  },
) {
  await tx.insert(outboxMessages).values(message);
}

/** The dev outbox's view: every message whatever its delivery state, newest first. */
export function listOutboxMessages(db: Executor, filter: { recipient?: string | undefined; limit: number }) {
  return db
    .select()
    .from(outboxMessages)
    .where(filter.recipient ? eq(outboxMessages.recipient, filter.recipient) : undefined)
    .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
    .limit(filter.limit);
}

/**
 * Claims one due message for sending: a pending one whose time has come, or one whose earlier claim's lease ran out
 * (its worker died mid-send). The claim counts the try and pushes due_at to the lease's end in one statement; rows
 * another worker has locked are skipped, not waited for, so two workers never hold the same message.
 */
export async function claimDueMessage(db: Executor, now: Date, leaseUntil: Date): Promise<OutboxMessageRow | undefined> {
  const due = db
    .select({ id: outboxMessages.id })
    .from(outboxMessages)
    .where(and(inArray(outboxMessages.status, ['pending', 'sending']), lte(outboxMessages.dueAt, now)))
    .orderBy(outboxMessages.dueAt)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(outboxMessages)
    .set({ status: 'sending', attempts: sql`${outboxMessages.attempts} + 1`, dueAt: leaseUntil })
    .where(eq(outboxMessages.id, sql`(${due})`))
    .returning();
  return row;
}

/**
 * Ends a claim: sent, back to pending for a later try, or dead. Only the claim that is still current may end it: a
 * worker whose lease ran out and was taken over changes nothing (the try counter tells the claims apart).
 */
export async function finishClaim(
  db: Executor,
  claim: Pick<OutboxMessageRow, 'id' | 'attempts'>,
  outcome:
    // A note on a message finished without reaching anyone (a push to a device no longer subscribed).
    | { status: 'sent'; sentAt: Date; lastError?: string }
    | { status: 'pending'; dueAt: Date; lastError: string }
    | { status: 'dead'; lastError: string },
): Promise<boolean> {
  const rows = await db
    .update(outboxMessages)
    .set(outcome)
    .where(
      and(eq(outboxMessages.id, claim.id), eq(outboxMessages.status, 'sending'), eq(outboxMessages.attempts, claim.attempts)),
    )
    .returning({ id: outboxMessages.id });
  return rows.length > 0;
}

/** How many messages are in each delivery state (back office's ledger health). */
export async function countByStatus(db: Executor): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: outboxMessages.status, count: sql<number>`count(*)::int` })
    .from(outboxMessages)
    .groupBy(outboxMessages.status);
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}

/** How many messages gave up (the back office's work queue), through the index of dead ones. */
export async function countDead(db: Executor): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(outboxMessages)
    .where(eq(outboxMessages.status, 'dead'));
  return Number(row!.count);
}

export async function deleteMessagesTo(tx: Executor, recipient: string): Promise<void> {
  await tx.delete(outboxMessages).where(eq(outboxMessages.recipient, recipient));
}

/** Every push notice written for a user's devices (recipient `<user id>:<subscription id>`). */
export async function deletePushMessagesOfUser(tx: Executor, userId: string): Promise<void> {
  await tx
    .delete(outboxMessages)
    .where(and(eq(outboxMessages.channel, 'push'), sql`${outboxMessages.recipient} LIKE ${`${likeLiteral(userId)}:%`}`));
}

/**
 * Messages since a moment whose subject or body names this text (a payment's reference): what the back office shows
 * was sent about a payment. The moment bounds the scan by the creation index.
 */
export function listMessagesMentioning(db: Executor, text: string, since: Date, limit: number) {
  const pattern = `%${likeLiteral(text)}%`;
  return db
    .select()
    .from(outboxMessages)
    .where(
      and(
        gte(outboxMessages.createdAt, since),
        sql`(${outboxMessages.body} ilike ${pattern} or ${outboxMessages.subject} ilike ${pattern})`,
      ),
    )
    .orderBy(asc(outboxMessages.createdAt))
    .limit(limit);
}

/** Messages not yet sent nor dead, and when the oldest of them was written (metrics: the outbox's backlog). */
export async function backlog(db: Executor): Promise<{ count: number; oldestCreatedAt: Date | null }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, oldest: sql<Date | string | null>`min(${outboxMessages.createdAt})` })
    .from(outboxMessages)
    .where(inArray(outboxMessages.status, ['pending', 'sending']));
  return { count: Number(row!.count), oldestCreatedAt: row!.oldest === null ? null : new Date(row!.oldest) };
}

/** Dead messages, oldest first, through the index of dead ones (the operator's `ops:messages list`). */
export function listDeadMessages(db: Executor, limit: number) {
  return db
    .select()
    .from(outboxMessages)
    .where(eq(outboxMessages.status, 'dead'))
    .orderBy(asc(outboxMessages.createdAt), asc(outboxMessages.id))
    .limit(limit);
}

/**
 * Gives dead messages (these ids, or every dead one) a new round of tries from `now`: pending, due now, the try count
 * back to 0 so the usual waits apply again. Only dead rows change; answers the ids that did.
 */
export async function reviveDeadMessages(db: Executor, ids: readonly string[] | 'all', now: Date): Promise<string[]> {
  const rows = await db
    .update(outboxMessages)
    .set({ status: 'pending', attempts: 0, dueAt: now })
    .where(and(eq(outboxMessages.status, 'dead'), ids === 'all' ? undefined : inArray(outboxMessages.id, [...ids])))
    .returning({ id: outboxMessages.id });
  return rows.map((row) => row.id);
}
