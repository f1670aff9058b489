import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { cards } from './cards.ts';
import { createdAt } from './columns.ts';
import { payments } from './payments.ts';
import { workplaces } from './teams.ts';
import { users } from './users.ts';

/**
 * A venue's card (decision 0058): one card for the whole place, whose tips are split between its teams by their
 * percentages. Made on first need (the admin opening it), one per workplace.
 */
export const venueCards = pgTable('venue_cards', {
  workplaceId: uuid('workplace_id')
    .primaryKey()
    .references(() => workplaces.id),
  cardId: uuid('card_id')
    .notNull()
    .unique()
    .references(() => cards.id),
  createdAt: createdAt(),
});

/** One team's percentage of the venue card's tips, in basis points (10000 = 100 %). */
export interface TeamPercentage {
  teamId: string;
  basisPoints: number;
}

/**
 * The percentages between a venue's teams, versioned like team split rules: a change is a new row in force from its
 * `createdAt`, never edited. The basis points sum to 10000. A venue with no row splits evenly between its teams.
 */
export const venuePercentages = pgTable(
  'venue_percentages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workplaceId: uuid('workplace_id')
      .notNull()
      .references(() => workplaces.id),
    shares: jsonb('shares').$type<TeamPercentage[]>().notNull(),
    createdByUserId: uuid('created_by_user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('venue_percentages_workplace_idx').on(t.workplaceId, t.createdAt)],
);

/** One team's part of a venue tip as it was split; a team with no member at the moment has a part of 0. */
export interface VenueTipPart {
  teamId: string;
  /** The team's percentage as set (basis points; the default even split gives each team 10000 / teams). */
  basisPoints: number;
  /** Members at the moment of payment. */
  members: number;
  /** The weight its part was computed with (0: no member, so no part). */
  weight: number;
  netCents: number;
  feeCents: number;
}

/**
 * How a venue tip was split between the teams, written in the transaction that credits it (decision 0058); each
 * team's split among its members is its `team_tip_splits` row. `basis`: `percentages` (a version in force), `even`
 * (no version: even between teams), `even_no_weight` (no team with members had a percentage: even among them).
 */
export const venueTipSplits = pgTable(
  'venue_tip_splits',
  {
    paymentId: uuid('payment_id')
      .primaryKey()
      .references(() => payments.id),
    workplaceId: uuid('workplace_id')
      .notNull()
      .references(() => workplaces.id),
    percentagesId: uuid('percentages_id').references(() => venuePercentages.id),
    basis: text('basis', { enum: ['percentages', 'even', 'even_no_weight'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull(),
    parts: jsonb('parts').$type<VenueTipPart[]>().notNull(),
  },
  (t) => [index('venue_tip_splits_workplace_idx').on(t.workplaceId, t.at)],
);
