import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { cards } from './cards.ts';
import { payments } from './payments.ts';
import { users } from './users.ts';

/** A guest's tip to a card: what only a tip has (the tips module's table). */
export const tips = pgTable(
  'tips',
  {
    paymentId: uuid('payment_id')
      .primaryKey()
      .references(() => payments.id),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    message: text('message'),
    rating: integer('rating'),
  },
  (t) => [check('tips_rating', sql`${t.rating} IS NULL OR ${t.rating} BETWEEN 1 AND 5`)],
);

/**
 * The one answer a recipient gave to a guest's message (decision 0047), e-mailed to the guest. The key is the payment:
 * a second answer, even from another member of a team the tip was split among, finds the row and is refused.
 */
export const tipAnswers = pgTable('tip_answers', {
  paymentId: uuid('payment_id')
    .primaryKey()
    .references(() => tips.paymentId),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  text: text('text').notNull(),
  createdAt: createdAt(),
});
