import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { cards } from '../../db/schema/cards.ts';
import { tipAnswers, tips } from '../../db/schema/tips.ts';
import { clients } from '../../db/schema/users.ts';

export type TipRow = typeof tips.$inferSelect;

export async function insertTip(tx: Executor, values: typeof tips.$inferInsert) {
  await tx.insert(tips).values(values);
}

export async function findTip(db: Executor, paymentId: string): Promise<TipRow | undefined> {
  const [row] = await db.select().from(tips).where(eq(tips.paymentId, paymentId));
  return row;
}

/**
 * The tips of these payments with whom each card credits (its holder's user) and the card's title, in one statement: a
 * batch of tips credited at once (decision 0060). A payment without its tip or card is missing from the answer.
 */
export function findTipsWithRecipients(db: Executor, paymentIds: string[]) {
  return db
    .select({
      paymentId: tips.paymentId,
      cardId: tips.cardId,
      message: tips.message,
      rating: tips.rating,
      userId: clients.userId,
      title: cards.title,
    })
    .from(tips)
    .innerJoin(cards, eq(cards.id, tips.cardId))
    .innerJoin(clients, eq(clients.id, cards.clientId))
    .where(inArray(tips.paymentId, paymentIds));
}

export async function findAnswer(db: Executor, paymentId: string) {
  const [row] = await db.select().from(tipAnswers).where(eq(tipAnswers.paymentId, paymentId));
  return row;
}

/**
 * Records the answer unless the payment has one: false when it had. Two answers at once: the second insert waits for
 * the first's commit on the key, then does nothing, so only one transaction goes on to write the e-mail.
 */
export async function insertAnswerOnce(tx: Executor, values: typeof tipAnswers.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(tipAnswers)
    .values(values)
    .onConflictDoNothing({ target: tipAnswers.paymentId })
    .returning({ paymentId: tipAnswers.paymentId });
  return rows.length > 0;
}
