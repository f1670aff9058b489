import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { cards } from './cards.ts';
import { createdAt } from './columns.ts';
import { payments } from './payments.ts';
import { users } from './users.ts';

/**
 * A place of work, the venue (DESIGN "Teams and workplaces", decision 0057): it holds one or more teams (front of house,
 * kitchen…), has one or more admins (`workplace_admins`) and its venue card (module venue-tips).
 */
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
 * A team of a workplace: its one admin and its team card, whose tips are split among the members. Every change of
 * membership locks this row, and every split reads the members under a share lock on it, so a tip is split among
 * exactly the members of one moment. The venue's admins administer every team of it too (decision 0057).
 */
export const teams = pgTable(
  'teams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workplaceId: uuid('workplace_id')
      .notNull()
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
  },
  (t) => [index('teams_workplace_idx').on(t.workplaceId, t.createdAt)],
);

/**
 * The admins of a venue (decision 0057): each administers every team of the venue. Added as a member of one of its
 * teams; the role ends with that membership; a venue keeps at least one.
 */
export const workplaceAdmins = pgTable(
  'workplace_admins',
  {
    workplaceId: uuid('workplace_id')
      .notNull()
      .references(() => workplaces.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    addedByUserId: uuid('added_by_user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workplaceId, t.userId] }), index('workplace_admins_user_idx').on(t.userId)],
);

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
    /** The member's role, set by the admin; the points rule prices it (decision 0045). */
    role: text('role'),
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
    /** withdrawn: by the one who asked, while it was pending. */
    status: text('status', { enum: ['pending', 'approved', 'declined', 'withdrawn'] })
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

/**
 * A team's split rule (decision 0045), versioned: a change is a new row, in force from its `createdAt`, never edited.
 * A team with no row splits evenly. `points` prices each role for the points rule (role name → points).
 */
export const teamSplitRules = pgTable(
  'team_split_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id),
    kind: text('kind', { enum: ['even', 'hours', 'points'] }).notNull(),
    points: jsonb('points').$type<Record<string, number>>().notNull().default({}),
    createdByUserId: uuid('created_by_user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('team_split_rules_team_idx').on(t.teamId, t.createdAt)],
);

/**
 * A member's worked period: clocked in and out by the member, or entered, corrected or imported by the admin. Open
 * while `endedAt` is null (one open shift per member). A correction never moves money already credited: a tip's
 * shares are recorded with their snapshot in `team_tip_splits`.
 */
export const teamShifts = pgTable(
  'team_shifts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    source: text('source', { enum: ['clock', 'admin', 'import'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('team_shifts_one_open_per_user_key')
      .on(t.userId)
      .where(sql`${t.endedAt} IS NULL`),
    index('team_shifts_team_idx').on(t.teamId, t.startedAt),
    check('team_shifts_end_after_start', sql`${t.endedAt} IS NULL OR ${t.endedAt} > ${t.startedAt}`),
  ],
);

/**
 * How a team tip was split, written in the transaction that credits it: the rule (null: the default even), the
 * instant, the basis and every member's inputs and shares, so the maths a member is shown later is the one used. A
 * venue tip (decision 0058) writes one row per team that got a part: the team's part as its total and fee, and in
 * `venuePart` the venue tip it came from and the team's percentage.
 */
export const teamTipSplits = pgTable(
  'team_tip_splits',
  {
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id),
    ruleId: uuid('rule_id').references(() => teamSplitRules.id),
    ruleKind: text('rule_kind', { enum: ['even', 'hours', 'points'] }).notNull(),
    basis: text('basis', { enum: ['even', 'hours', 'points', 'even_nobody_on_shift', 'even_no_weight'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull(),
    shares: jsonb('shares').$type<TipSplitShare[]>().notNull(),
    /** Null for a tip to the team card. */
    venuePart: jsonb('venue_part').$type<VenuePartOfSplit>(),
  },
  (t) => [primaryKey({ columns: [t.paymentId, t.teamId] }), index('team_tip_splits_team_idx').on(t.teamId, t.at)],
);

/** Where a team's part of a venue tip came from: the venue tip's total and fee, and the team's percentage of it. */
export interface VenuePartOfSplit {
  /** The percentages version in force (null: the default, even between the teams). */
  percentagesId: string | null;
  /** The team's percentage in basis points as set (10000 = 100 %), before teams with no member were left out. */
  basisPoints: number;
  /** The weight the team's part was computed with: its basis points, or 1 when the venue split evenly. */
  weight: number;
  /** The sum of the weights of the teams that got a part. */
  totalWeight: number;
  venueTotalCents: number;
  venueFeeCents: number;
}

export interface TipSplitShare {
  userId: string;
  membershipId: string;
  joinedAt: string;
  role: string | null;
  minutes: number | null;
  points: number | null;
  weight: number;
  netCents: number;
  feeCents: number;
}

/**
 * A venue's written tipping policy (issue 29, decision 0054): versioned, a change is a new row, never an edit. The
 * text is what the admin published, in the language they wrote it in.
 */
export const tippingPolicies = pgTable(
  'tipping_policies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workplaceId: uuid('workplace_id')
      .notNull()
      .references(() => workplaces.id),
    version: integer('version').notNull(),
    text: text('text').notNull(),
    publishedByUserId: uuid('published_by_user_id')
      .notNull()
      .references(() => users.id),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('tipping_policies_workplace_version_key').on(t.workplaceId, t.version)],
);

/** When a member confirmed reading a version of the policy: the first time only. */
export const tippingPolicyReads = pgTable(
  'tipping_policy_reads',
  {
    policyId: uuid('policy_id')
      .notNull()
      .references(() => tippingPolicies.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.policyId, t.userId] })],
);

/**
 * A team's period (decision 0055): its calendar month in UTC, `month` as `yyyy-mm`. No row while it is open; the
 * admin's close writes it, members may object until `objectionsUntil` (24 hours later), and the admin's lock ends it.
 * A locked period never changes.
 */
export const teamPeriods = pgTable(
  'team_periods',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id),
    month: text('month').notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }).notNull(),
    closedByUserId: uuid('closed_by_user_id')
      .notNull()
      .references(() => users.id),
    objectionsUntil: timestamp('objections_until', { withTimezone: true }).notNull(),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    lockedByUserId: uuid('locked_by_user_id').references(() => users.id),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.month] }),
    check('team_periods_month_format', sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check('team_periods_locked_by', sql`(${t.lockedAt} IS NULL) = (${t.lockedByUserId} IS NULL)`),
  ],
);

/** A member's objection to a closed period and the admin's answer. One unanswered objection per member and period. */
export const teamPeriodObjections = pgTable(
  'team_period_objections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').notNull(),
    month: text('month').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    answer: text('answer'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    answeredByUserId: uuid('answered_by_user_id').references(() => users.id),
  },
  (t) => [
    foreignKey({ columns: [t.teamId, t.month], foreignColumns: [teamPeriods.teamId, teamPeriods.month] }),
    uniqueIndex('team_period_objections_one_open_key')
      .on(t.teamId, t.month, t.userId)
      .where(sql`${t.answeredAt} IS NULL`),
    index('team_period_objections_period_idx').on(t.teamId, t.month, t.createdAt),
  ],
);

/**
 * A correction of a locked period (decision 0059): cents moved from one member's main balance to another's by the
 * team's admin, with the reason, never an edit of the period or its recorded splits. Append-only (a trigger refuses
 * UPDATE and DELETE); the ledger entry `team-adjustment:<id>` moves the money in the same transaction. The admin's
 * Idempotency-Key names it, so a retry answers the same row.
 */
export const teamPeriodAdjustments = pgTable(
  'team_period_adjustments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').notNull(),
    month: text('month').notNull(),
    fromUserId: uuid('from_user_id')
      .notNull()
      .references(() => users.id),
    toUserId: uuid('to_user_id')
      .notNull()
      .references(() => users.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    createdByUserId: uuid('created_by_user_id')
      .notNull()
      .references(() => users.id),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    foreignKey({ columns: [t.teamId, t.month], foreignColumns: [teamPeriods.teamId, teamPeriods.month] }),
    uniqueIndex('team_period_adjustments_key').on(t.createdByUserId, t.idempotencyKey),
    index('team_period_adjustments_period_idx').on(t.teamId, t.month, t.createdAt),
    index('team_period_adjustments_from_idx').on(t.fromUserId, t.createdAt),
    index('team_period_adjustments_to_idx').on(t.toUserId, t.createdAt),
    check('team_period_adjustments_amount', sql`${t.amountCents} > 0`),
    check('team_period_adjustments_two_members', sql`${t.fromUserId} <> ${t.toUserId}`),
  ],
);

/**
 * Every transition of a period, who made it and when (decision 0055): closed, objected, answered, confirmed, locked,
 * and each adjustment after the lock (decision 0059). Append-only; a member confirms a period once.
 */
export const teamPeriodEvents = pgTable(
  'team_period_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').notNull(),
    month: text('month').notNull(),
    kind: text('kind', { enum: ['closed', 'objected', 'answered', 'confirmed', 'locked', 'adjusted'] }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    objectionId: uuid('objection_id').references(() => teamPeriodObjections.id),
    adjustmentId: uuid('adjustment_id').references(() => teamPeriodAdjustments.id),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    foreignKey({ columns: [t.teamId, t.month], foreignColumns: [teamPeriods.teamId, teamPeriods.month] }),
    index('team_period_events_period_idx').on(t.teamId, t.month, t.at),
    uniqueIndex('team_period_events_one_confirmation_key')
      .on(t.teamId, t.month, t.userId)
      .where(sql`${t.kind} = 'confirmed'`),
  ],
);
