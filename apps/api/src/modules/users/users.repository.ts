import { eq } from 'drizzle-orm';
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
