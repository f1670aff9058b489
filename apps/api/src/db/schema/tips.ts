import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { cards } from './cards.ts';
import { payments } from './payments.ts';

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
