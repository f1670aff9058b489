import { desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { outboxMessages } from '../../db/schema.ts';

export type Channel = (typeof outboxMessages.$inferInsert)['channel'];

export async function insertOutboxMessage(db: Executor, message: { channel: Channel; recipient: string; body: string }) {
  await db.insert(outboxMessages).values(message);
}

export function listOutboxMessages(db: Executor, filter: { recipient?: string | undefined; limit: number }) {
  return db
    .select()
    .from(outboxMessages)
    .where(filter.recipient ? eq(outboxMessages.recipient, filter.recipient) : undefined)
    .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
    .limit(filter.limit);
}
