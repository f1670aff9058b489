import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { tips } from '../../db/schema/tips.ts';

export type TipRow = typeof tips.$inferSelect;

export async function insertTip(tx: Executor, values: typeof tips.$inferInsert) {
  await tx.insert(tips).values(values);
}

export async function findTip(db: Executor, paymentId: string): Promise<TipRow | undefined> {
  const [row] = await db.select().from(tips).where(eq(tips.paymentId, paymentId));
  return row;
}
