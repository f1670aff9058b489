import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { cards } from './cards.ts';
import { createdAt } from './columns.ts';
import { users } from './users.ts';

/** A place of work (DESIGN "Teams and workplaces"): what its team is named after; one team per workplace. */
export const workplaces = pgTable('workplaces', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  country: text('country').notNull(),
  createdByUserId: uuid('created_by_user_id')
    .notNull()
    .references(() => users.id),
  createdAt: createdAt(),
});

/**
 * The team of a workplace: its one admin and its team card, whose tips are split among the members. Every change of
 * membership locks this row, and every split reads the members under a share lock on it, so a tip is split among
 * exactly the members of one moment.
 */
export const teams = pgTable('teams', {
  id: uuid('id').primaryKey().defaultRandom(),
  workplaceId: uuid('workplace_id')
    .notNull()
    .unique()
    .references(() => workplaces.id),
  title: text('title').notNull(),
  adminUserId: uuid('admin_user_id')
    .notNull()
    .references(() => users.id),
  cardId: uuid('card_id')
    .notNull()
    .unique()
    .references(() => cards.id),
  createdAt: createdAt(),
});

/** One period of a user's membership (work history); open while `leftAt` is null. One open membership per user. */
export const teamMemberships = pgTable(
  'team_memberships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
    leftAt: timestamp('left_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('team_memberships_one_open_per_user_key')
      .on(t.userId)
      .where(sql`${t.leftAt} IS NULL`),
    index('team_memberships_team_idx').on(t.teamId, t.joinedAt),
  ],
);

/** A user's request to join a team, until the admin approves or declines it. One pending request per team and user. */
export const teamJoinRequests = pgTable(
  'team_join_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: ['pending', 'approved', 'declined'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('team_join_requests_one_pending_key')
      .on(t.teamId, t.userId)
      .where(sql`${t.status} = 'pending'`),
  ],
);
