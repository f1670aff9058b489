import { pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  phone: text('phone').notNull().unique(),
  referralCode: text('referral_code').notNull().unique(),
  referredByUserId: uuid('referred_by_user_id'),
  promoSource: text('promo_source'),
  createdAt: createdAt(),
});

export const clients = pgTable(
  'clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id),
    type: text('type', { enum: ['private'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('clients_user_type_key').on(t.userId, t.type)],
);
