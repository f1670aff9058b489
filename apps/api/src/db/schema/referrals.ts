import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './users.ts';

/**
 * One row per invited friend (DESIGN "Referrals"): the reward the referrer may earn from the friend's first 90 days,
 * `pending` until the reward job pays it (`paid`) or finds it earned nothing (`void`); a paid one is `taken_back` when
 * refunds leave the friend short of the payers it needs (decision 0026). The friend is unique, so
 * there is at most one reward per (referrer, friend).
 */
export const referralRewards = pgTable(
  'referral_rewards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    referrerUserId: uuid('referrer_user_id')
      .notNull()
      .references(() => users.id),
    friendUserId: uuid('friend_user_id')
      .notNull()
      .unique()
      .references(() => users.id),
    status: text('status', { enum: ['pending', 'paid', 'void', 'taken_back'] })
      .notNull()
      .default('pending'),
    /** The end of the friend's first 90 days: the reward is settled then at the latest. */
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
    /** When the reward job next looks at a pending reward (the cap may be reached before the window ends). */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('referral_rewards_referrer_idx').on(t.referrerUserId, t.createdAt),
    index('referral_rewards_due_idx')
      .on(t.nextCheckAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);
