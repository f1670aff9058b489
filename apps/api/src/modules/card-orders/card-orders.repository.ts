import { and, asc, desc, eq, gte, isNotNull, lte, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { cardOrders } from '../../db/schema/card-orders.ts';

export type CardOrderRow = typeof cardOrders.$inferSelect;
export type CardOrderStatus = CardOrderRow['status'];

export function listOrders(db: Executor, userId: string) {
  return db
    .select()
    .from(cardOrders)
    .where(eq(cardOrders.userId, userId))
    .orderBy(desc(cardOrders.createdAt), desc(cardOrders.id));
}

/** Orders of a status (every status when none), the oldest first. */
export function listOrdersByStatus(db: Executor, status: CardOrderStatus | undefined, limit: number) {
  return db
    .select()
    .from(cardOrders)
    .where(status ? eq(cardOrders.status, status) : undefined)
    .orderBy(asc(cardOrders.createdAt), asc(cardOrders.id))
    .limit(limit);
}

export async function findOrder(db: Executor, id: string) {
  const [row] = await db.select().from(cardOrders).where(eq(cardOrders.id, id));
  return row;
}

export async function findOrderForUpdate(tx: Executor, id: string) {
  const [row] = await tx.select().from(cardOrders).where(eq(cardOrders.id, id)).for('update');
  return row;
}

export async function findOrderByKey(db: Executor, userId: string, idempotencyKey: string) {
  const [row] = await db
    .select()
    .from(cardOrders)
    .where(and(eq(cardOrders.userId, userId), eq(cardOrders.idempotencyKey, idempotencyKey)));
  return row;
}

/** Items in the user's orders that are not canceled, and whether one of them is the free first order. */
export async function orderedSoFar(db: Executor, userId: string): Promise<{ items: number; hasFree: boolean }> {
  const [row] = await db
    .select({
      items: sql<number>`coalesce(sum(${cardOrders.quantity}), 0)::int`,
      hasFree: sql<boolean>`coalesce(bool_or(${cardOrders.free}), false)`,
    })
    .from(cardOrders)
    .where(and(eq(cardOrders.userId, userId), ne(cardOrders.status, 'canceled')));
  return { items: Number(row?.items ?? 0), hasFree: Boolean(row?.hasFree) };
}

export async function insertOrder(tx: Executor, values: typeof cardOrders.$inferInsert) {
  const [row] = await tx.insert(cardOrders).values(values).returning();
  return row!;
}

export async function updateOrder(tx: Executor, id: string, changes: Partial<typeof cardOrders.$inferInsert>) {
  const [row] = await tx.update(cardOrders).set(changes).where(eq(cardOrders.id, id)).returning();
  return row!;
}

/**
 * Claims one canceled order whose payment is due to be given back, by moving its due time on (a lease): the provider
 * is called outside the transaction, and a worker killed mid-call leaves the order due again once the lease ends.
 */
export async function claimDueRefund(tx: Executor, now: Date, leaseUntil: Date) {
  const [due] = await tx
    .select()
    .from(cardOrders)
    .where(and(isNotNull(cardOrders.refundDueAt), lte(cardOrders.refundDueAt, now)))
    .orderBy(asc(cardOrders.refundDueAt))
    .limit(1)
    .for('update', { skipLocked: true });
  if (!due) return undefined;
  return updateOrder(tx, due.id, { refundDueAt: leaseUntil, refundAttempts: due.refundAttempts + 1 });
}

/** Orders whose id lies in the range (an order number is its id's first 8 digits, `uuidPrefixRange`). */
export function findOrdersInIdRange(db: Executor, [low, high]: [string, string], limit: number) {
  return db
    .select()
    .from(cardOrders)
    .where(and(gte(cardOrders.id, low), lte(cardOrders.id, high)))
    .orderBy(asc(cardOrders.createdAt))
    .limit(limit);
}
