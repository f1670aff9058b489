import { and, asc, count, desc, eq, gt, gte, ilike, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { likeLiteral } from '../../db/like.ts';
import {
  teamJoinRequests,
  teamMemberships,
  teamPeriodEvents,
  teamPeriodObjections,
  teamPeriods,
  teamShifts,
  teamSplitRules,
  teamTipSplits,
  teams,
  tippingPolicies,
  tippingPolicyReads,
  workplaceAdmins,
  workplaces,
} from '../../db/schema/teams.ts';

export type WorkplaceRow = typeof workplaces.$inferSelect;
export type WorkplaceAdminRow = typeof workplaceAdmins.$inferSelect;
export type TeamRow = typeof teams.$inferSelect;
export type MembershipRow = typeof teamMemberships.$inferSelect;
export type JoinRequestRow = typeof teamJoinRequests.$inferSelect;
export type SplitRuleRow = typeof teamSplitRules.$inferSelect;
export type ShiftRow = typeof teamShifts.$inferSelect;
export type TipSplitRow = typeof teamTipSplits.$inferSelect;
export type TipSplitInsert = typeof teamTipSplits.$inferInsert;
export type TippingPolicyRow = typeof tippingPolicies.$inferSelect;
export type PeriodRow = typeof teamPeriods.$inferSelect;
export type PeriodObjectionRow = typeof teamPeriodObjections.$inferSelect;
export type PeriodEventKind = (typeof teamPeriodEvents.$inferInsert)['kind'];
export type { TipSplitShare } from '../../db/schema/teams.ts';

/** The partial unique index that keeps one open shift per member. */
export const ONE_OPEN_SHIFT_INDEX = 'team_shifts_one_open_per_user_key';

/** The partial unique index that keeps one unanswered objection per member and period. */
export const ONE_OPEN_OBJECTION_INDEX = 'team_period_objections_one_open_key';

/** The partial unique index that keeps a user in one team at a time. */
export const ONE_OPEN_MEMBERSHIP_INDEX = 'team_memberships_one_open_per_user_key';

export async function insertWorkplace(tx: Executor, values: typeof workplaces.$inferInsert): Promise<WorkplaceRow> {
  const [row] = await tx.insert(workplaces).values(values).returning();
  return row!;
}

export async function updateWorkplace(
  tx: Executor,
  id: string,
  changes: Partial<Pick<WorkplaceRow, 'name' | 'country'>>,
): Promise<void> {
  if (Object.keys(changes).length > 0) await tx.update(workplaces).set(changes).where(eq(workplaces.id, id));
}

export async function insertTeam(tx: Executor, values: typeof teams.$inferInsert): Promise<TeamRow> {
  const [row] = await tx.insert(teams).values(values).returning();
  return row!;
}

export async function updateTeam(
  tx: Executor,
  id: string,
  changes: Partial<Pick<TeamRow, 'title' | 'adminUserId'>>,
): Promise<void> {
  await tx.update(teams).set(changes).where(eq(teams.id, id));
}

/** The team and its workplace. `lock`: `update` for a change of membership or admin, `share` for a split. */
export async function findTeam(db: Executor, teamId: string, lock?: 'update' | 'share') {
  const query = db
    .select({ team: teams, workplace: workplaces })
    .from(teams)
    .innerJoin(workplaces, eq(workplaces.id, teams.workplaceId))
    .where(eq(teams.id, teamId));
  const [row] = lock ? await query.for(lock, { of: teams }) : await query;
  return row;
}

export async function findTeamByCard(db: Executor, cardId: string, lock?: 'share') {
  const query = db.select().from(teams).where(eq(teams.cardId, cardId));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/**
 * The workplace; `share` while a venue tip is split (a change of its percentages locks it for update, as a change of
 * its teams or admins does).
 */
export async function findWorkplace(db: Executor, workplaceId: string, lock?: 'update' | 'share') {
  const query = db.select().from(workplaces).where(eq(workplaces.id, workplaceId));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/**
 * The teams of a workplace, oldest first. `share` locks them in id order (the order every venue tip takes them in,
 * so two never wait on each other crosswise), as a team tip locks its one team.
 */
export async function listTeamsOfWorkplace(db: Executor, workplaceId: string, lock?: 'share'): Promise<TeamRow[]> {
  const query = db.select().from(teams).where(eq(teams.workplaceId, workplaceId));
  const rows = lock ? await query.orderBy(asc(teams.id)).for(lock) : await query;
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export async function findTeamAdministeredBy(db: Executor, userId: string): Promise<TeamRow | undefined> {
  const [row] = await db.select().from(teams).where(eq(teams.adminUserId, userId)).limit(1);
  return row;
}

/** The venue's teams, oldest first, with how many members each has now. */
export async function listTeamsWithMemberCounts(db: Executor, workplaceId: string) {
  const rows = await db
    .select({ team: teams, memberCount: count(teamMemberships.id) })
    .from(teams)
    .leftJoin(teamMemberships, and(eq(teamMemberships.teamId, teams.id), isNull(teamMemberships.leftAt)))
    .where(eq(teams.workplaceId, workplaceId))
    .groupBy(teams.id)
    .orderBy(asc(teams.createdAt), asc(teams.id));
  return rows;
}

/** The venue's admins, the earliest first. */
export function listWorkplaceAdmins(db: Executor, workplaceId: string): Promise<WorkplaceAdminRow[]> {
  return db
    .select()
    .from(workplaceAdmins)
    .where(eq(workplaceAdmins.workplaceId, workplaceId))
    .orderBy(asc(workplaceAdmins.createdAt), asc(workplaceAdmins.userId));
}

export async function isWorkplaceAdmin(db: Executor, workplaceId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: workplaceAdmins.userId })
    .from(workplaceAdmins)
    .where(and(eq(workplaceAdmins.workplaceId, workplaceId), eq(workplaceAdmins.userId, userId)));
  return row !== undefined;
}

/** Adds a venue admin; adding one who already is changes nothing. */
export async function insertWorkplaceAdmin(tx: Executor, values: typeof workplaceAdmins.$inferInsert): Promise<void> {
  await tx.insert(workplaceAdmins).values(values).onConflictDoNothing();
}

export async function deleteWorkplaceAdmin(tx: Executor, workplaceId: string, userId: string): Promise<void> {
  await tx.delete(workplaceAdmins).where(and(eq(workplaceAdmins.workplaceId, workplaceId), eq(workplaceAdmins.userId, userId)));
}

/** The teams of the venue whose admin is `userId` while not a member of them (a team a venue admin added). */
export function listTeamsHeldWithoutMembership(db: Executor, workplaceId: string, userId: string): Promise<TeamRow[]> {
  return db
    .select({ team: teams })
    .from(teams)
    .leftJoin(
      teamMemberships,
      and(eq(teamMemberships.teamId, teams.id), eq(teamMemberships.userId, userId), isNull(teamMemberships.leftAt)),
    )
    .where(and(eq(teams.workplaceId, workplaceId), eq(teams.adminUserId, userId), isNull(teamMemberships.id)))
    .then((rows) => rows.map((row) => row.team));
}

export async function insertMembership(tx: Executor, values: typeof teamMemberships.$inferInsert): Promise<MembershipRow> {
  const [row] = await tx.insert(teamMemberships).values(values).returning();
  return row!;
}

/** The user's current membership, in whichever team. */
export async function findOpenMembership(db: Executor, userId: string): Promise<MembershipRow | undefined> {
  const [row] = await db
    .select()
    .from(teamMemberships)
    .where(and(eq(teamMemberships.userId, userId), isNull(teamMemberships.leftAt)));
  return row;
}

/** The team's members now, longest-standing first. */
export function listOpenMemberships(db: Executor, teamId: string): Promise<MembershipRow[]> {
  return db
    .select()
    .from(teamMemberships)
    .where(and(eq(teamMemberships.teamId, teamId), isNull(teamMemberships.leftAt)))
    .orderBy(asc(teamMemberships.joinedAt), asc(teamMemberships.id));
}

/** Every membership period of the team, newest first (work history). */
export function listMemberships(db: Executor, teamId: string): Promise<MembershipRow[]> {
  return db
    .select()
    .from(teamMemberships)
    .where(eq(teamMemberships.teamId, teamId))
    .orderBy(desc(teamMemberships.joinedAt), desc(teamMemberships.id));
}

export async function closeMembership(tx: Executor, id: string, now: Date): Promise<void> {
  await tx
    .update(teamMemberships)
    .set({ leftAt: now })
    .where(and(eq(teamMemberships.id, id), isNull(teamMemberships.leftAt)));
}

/** A pending request, or the one already pending for this team and user. */
export async function insertJoinRequestOnce(
  tx: Executor,
  values: { teamId: string; userId: string; createdAt: Date },
): Promise<JoinRequestRow> {
  const [inserted] = await tx
    .insert(teamJoinRequests)
    .values(values)
    .onConflictDoNothing({
      target: [teamJoinRequests.teamId, teamJoinRequests.userId],
      where: sql`${teamJoinRequests.status} = 'pending'`,
    })
    .returning();
  if (inserted) return inserted;
  const [existing] = await tx
    .select()
    .from(teamJoinRequests)
    .where(
      and(
        eq(teamJoinRequests.teamId, values.teamId),
        eq(teamJoinRequests.userId, values.userId),
        eq(teamJoinRequests.status, 'pending'),
      ),
    );
  return existing!;
}

export async function findJoinRequest(db: Executor, id: string, lock?: 'update'): Promise<JoinRequestRow | undefined> {
  const query = db.select().from(teamJoinRequests).where(eq(teamJoinRequests.id, id));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** The user's own pending requests, newest first, with the team's title and its workplace's name. */
export function listOwnPendingRequests(db: Executor, userId: string) {
  return db
    .select({ request: teamJoinRequests, teamTitle: teams.title, workplaceName: workplaces.name })
    .from(teamJoinRequests)
    .innerJoin(teams, eq(teams.id, teamJoinRequests.teamId))
    .innerJoin(workplaces, eq(workplaces.id, teams.workplaceId))
    .where(and(eq(teamJoinRequests.userId, userId), eq(teamJoinRequests.status, 'pending')))
    .orderBy(desc(teamJoinRequests.createdAt), desc(teamJoinRequests.id));
}

/** The team's pending requests from users who are in no team now, oldest first. */
export async function listPendingRequests(db: Executor, teamId: string): Promise<JoinRequestRow[]> {
  const rows = await db
    .select({ request: teamJoinRequests })
    .from(teamJoinRequests)
    .leftJoin(teamMemberships, and(eq(teamMemberships.userId, teamJoinRequests.userId), isNull(teamMemberships.leftAt)))
    .where(and(eq(teamJoinRequests.teamId, teamId), eq(teamJoinRequests.status, 'pending'), isNull(teamMemberships.id)))
    .orderBy(asc(teamJoinRequests.createdAt), asc(teamJoinRequests.id));
  return rows.map((row) => row.request);
}

/** Declines every request the user still has pending, with any team (their account is being deleted). */
export async function declinePendingRequestsOf(tx: Executor, userId: string, now: Date): Promise<void> {
  await tx
    .update(teamJoinRequests)
    .set({ status: 'declined', decidedAt: now })
    .where(and(eq(teamJoinRequests.userId, userId), eq(teamJoinRequests.status, 'pending')));
}

export async function decideJoinRequest(
  tx: Executor,
  id: string,
  status: 'approved' | 'declined' | 'withdrawn',
  now: Date,
): Promise<JoinRequestRow> {
  const [row] = await tx.update(teamJoinRequests).set({ status, decidedAt: now }).where(eq(teamJoinRequests.id, id)).returning();
  return row!;
}

export async function setMembershipRole(tx: Executor, id: string, role: string | null): Promise<void> {
  await tx.update(teamMemberships).set({ role }).where(eq(teamMemberships.id, id));
}

export async function insertSplitRule(tx: Executor, values: typeof teamSplitRules.$inferInsert): Promise<SplitRuleRow> {
  const [row] = await tx.insert(teamSplitRules).values(values).returning();
  return row!;
}

/** Every version of the team's rule, newest first (the first is in force). */
export function listSplitRules(db: Executor, teamId: string): Promise<SplitRuleRow[]> {
  return db
    .select()
    .from(teamSplitRules)
    .where(eq(teamSplitRules.teamId, teamId))
    .orderBy(desc(teamSplitRules.createdAt), desc(teamSplitRules.id));
}

/** The version in force at `at`: the newest created at or before it; undefined means the default even rule. */
export async function findSplitRuleAt(db: Executor, teamId: string, at: Date): Promise<SplitRuleRow | undefined> {
  const [row] = await db
    .select()
    .from(teamSplitRules)
    .where(and(eq(teamSplitRules.teamId, teamId), sql`${teamSplitRules.createdAt} <= ${at}`))
    .orderBy(desc(teamSplitRules.createdAt), desc(teamSplitRules.id))
    .limit(1);
  return row;
}

export async function insertShifts(tx: Executor, values: (typeof teamShifts.$inferInsert)[]): Promise<ShiftRow[]> {
  if (values.length === 0) return [];
  return tx.insert(teamShifts).values(values).returning();
}

export async function findShift(db: Executor, teamId: string, id: string): Promise<ShiftRow | undefined> {
  const [row] = await db
    .select()
    .from(teamShifts)
    .where(and(eq(teamShifts.teamId, teamId), eq(teamShifts.id, id)));
  return row;
}

export async function findOpenShift(db: Executor, userId: string): Promise<ShiftRow | undefined> {
  const [row] = await db
    .select()
    .from(teamShifts)
    .where(and(eq(teamShifts.userId, userId), isNull(teamShifts.endedAt)));
  return row;
}

export async function updateShift(tx: Executor, id: string, changes: { startedAt?: Date; endedAt: Date }): Promise<ShiftRow> {
  const [row] = await tx.update(teamShifts).set(changes).where(eq(teamShifts.id, id)).returning();
  return row!;
}

/** Whether the member has a shift of this team other than `exceptId` that overlaps [start, end) (end null: open). */
export async function hasOverlappingShift(
  db: Executor,
  shift: { teamId: string; userId: string; startedAt: Date; endedAt: Date | null },
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: teamShifts.id })
    .from(teamShifts)
    .where(
      and(
        eq(teamShifts.teamId, shift.teamId),
        eq(teamShifts.userId, shift.userId),
        exceptId ? ne(teamShifts.id, exceptId) : undefined,
        or(isNull(teamShifts.endedAt), gt(teamShifts.endedAt, shift.startedAt)),
        shift.endedAt ? lt(teamShifts.startedAt, shift.endedAt) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The team's shifts that overlap [from, to) (open ones included), by start. `userId` narrows to one member. */
export function listShifts(db: Executor, teamId: string, from: Date, to: Date, userId?: string): Promise<ShiftRow[]> {
  return db
    .select()
    .from(teamShifts)
    .where(
      and(
        eq(teamShifts.teamId, teamId),
        userId ? eq(teamShifts.userId, userId) : undefined,
        lt(teamShifts.startedAt, to),
        or(isNull(teamShifts.endedAt), gt(teamShifts.endedAt, from)),
      ),
    )
    .orderBy(asc(teamShifts.startedAt), asc(teamShifts.id));
}

export async function insertTipSplit(tx: Executor, values: TipSplitInsert): Promise<void> {
  await tx.insert(teamTipSplits).values(values);
}

/** The team's recorded splits in [from, to), oldest first. */
export function listTipSplits(db: Executor, teamId: string, from: Date, to: Date): Promise<TipSplitRow[]> {
  return db
    .select()
    .from(teamTipSplits)
    .where(and(eq(teamTipSplits.teamId, teamId), gte(teamTipSplits.at, from), lt(teamTipSplits.at, to)))
    .orderBy(asc(teamTipSplits.at), asc(teamTipSplits.paymentId));
}

/** The team's latest recorded splits in which the user had a place, newest first. */
export function listTipSplitsOf(db: Executor, teamId: string, userId: string, limit: number): Promise<TipSplitRow[]> {
  return db
    .select()
    .from(teamTipSplits)
    .where(and(eq(teamTipSplits.teamId, teamId), sql`${teamTipSplits.shares} @> ${JSON.stringify([{ userId }])}::jsonb`))
    .orderBy(desc(teamTipSplits.at), desc(teamTipSplits.paymentId))
    .limit(limit);
}

/** Every recorded split in [from, to) in which the user had a place, in any team (also one they left), oldest first. */
export function listTipSplitsOfUserBetween(db: Executor, userId: string, from: Date, to: Date) {
  return db
    .select({ split: teamTipSplits, teamTitle: teams.title, workplaceName: workplaces.name })
    .from(teamTipSplits)
    .innerJoin(teams, eq(teams.id, teamTipSplits.teamId))
    .innerJoin(workplaces, eq(workplaces.id, teams.workplaceId))
    .where(
      and(
        // The teams the user was ever in first, so the (team, at) index finds the period's splits.
        sql`${teamTipSplits.teamId} IN (SELECT ${teamMemberships.teamId} FROM ${teamMemberships} WHERE ${teamMemberships.userId} = ${userId})`,
        sql`${teamTipSplits.shares} @> ${JSON.stringify([{ userId }])}::jsonb`,
        gte(teamTipSplits.at, from),
        lt(teamTipSplits.at, to),
      ),
    )
    .orderBy(asc(teamTipSplits.at), asc(teamTipSplits.paymentId));
}

/** Ends the member's open shift, if any (their membership ends). */
export async function closeOpenShift(tx: Executor, userId: string, now: Date): Promise<void> {
  await tx
    .update(teamShifts)
    .set({ endedAt: sql`GREATEST(${now}::timestamptz, ${teamShifts.startedAt} + interval '1 millisecond')` })
    .where(and(eq(teamShifts.userId, userId), isNull(teamShifts.endedAt)));
}

/** The venue's policy in force: its newest version. */
export async function findCurrentPolicy(db: Executor, workplaceId: string): Promise<TippingPolicyRow | undefined> {
  const [row] = await db
    .select()
    .from(tippingPolicies)
    .where(eq(tippingPolicies.workplaceId, workplaceId))
    .orderBy(desc(tippingPolicies.version))
    .limit(1);
  return row;
}

/** A new version after the newest; the caller holds the team row's update lock, so versions never collide. */
export async function insertPolicyVersion(
  tx: Executor,
  values: { workplaceId: string; text: string; publishedByUserId: string; publishedAt: Date },
): Promise<TippingPolicyRow> {
  const current = await findCurrentPolicy(tx, values.workplaceId);
  const [row] = await tx
    .insert(tippingPolicies)
    .values({ ...values, version: (current?.version ?? 0) + 1 })
    .returning();
  return row!;
}

/** Records that the user read the version; the first confirmation stays. */
export async function insertPolicyRead(tx: Executor, policyId: string, userId: string, readAt: Date): Promise<void> {
  await tx.insert(tippingPolicyReads).values({ policyId, userId, readAt }).onConflictDoNothing();
}

/** Who confirmed reading the version, and when. */
export function listPolicyReads(db: Executor, policyId: string) {
  return db
    .select({ userId: tippingPolicyReads.userId, readAt: tippingPolicyReads.readAt })
    .from(tippingPolicyReads)
    .where(eq(tippingPolicyReads.policyId, policyId));
}

/** The UTC month (`yyyy-mm`) of an instant column, as periods name them (decision 0055). */
const monthOf = (column: typeof teamTipSplits.at) => sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM')`;

/** The team's tips credited in [from, to) per month: how many, and what the members received of them. */
export function tipTotalsPerMonth(db: Executor, teamId: string, from: Date, to: Date) {
  return db
    .select({
      month: monthOf(teamTipSplits.at),
      count: sql<number>`count(*)::int`,
      netCents: sql<string>`sum(${teamTipSplits.totalCents} - ${teamTipSplits.feeCents})`,
    })
    .from(teamTipSplits)
    .where(and(eq(teamTipSplits.teamId, teamId), gte(teamTipSplits.at, from), lt(teamTipSplits.at, to)))
    .groupBy(monthOf(teamTipSplits.at));
}

/** Who received a share (net or fee above zero) of the team's tips credited in [from, to), per month. */
export async function sharersPerMonth(db: Executor, teamId: string, from: Date, to: Date): Promise<Map<string, Set<string>>> {
  const result = await db.execute(sql`
    SELECT DISTINCT to_char(s.at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, share->>'userId' AS user_id
    FROM ${teamTipSplits} s, jsonb_array_elements(s.shares) AS share
    WHERE s.team_id = ${teamId} AND s.at >= ${from.toISOString()} AND s.at < ${to.toISOString()}
      AND (share->>'netCents')::bigint + (share->>'feeCents')::bigint > 0`);
  const byMonth = new Map<string, Set<string>>();
  // Both drivers (node-postgres, PGlite) answer a raw query's rows as `rows`.
  for (const row of (result as unknown as { rows: { month: string; user_id: string }[] }).rows)
    byMonth.set(row.month, (byMonth.get(row.month) ?? new Set()).add(row.user_id));
  return byMonth;
}

/**
 * Who was paid what venue tip as a member of the team in [from, to): each (payment, user) pair of the team's parts of
 * venue tips with a share above zero (those the payment credited). The split's instant is the credit's, so the window
 * is the one the team card's own statistics read.
 */
export async function venueSharesOf(
  db: Executor,
  teamId: string,
  from: Date,
  to: Date,
): Promise<{ paymentId: string; userId: string }[]> {
  const result = await db.execute(sql`
    SELECT s.payment_id AS "paymentId", share->>'userId' AS "userId"
    FROM ${teamTipSplits} s, jsonb_array_elements(s.shares) AS share
    WHERE s.team_id = ${teamId} AND s.venue_part IS NOT NULL AND s.at >= ${from.toISOString()} AND s.at < ${to.toISOString()}
      AND (share->>'netCents')::bigint + (share->>'feeCents')::bigint > 0`);
  return (result as unknown as { rows: { paymentId: string; userId: string }[] }).rows;
}

/** The closed or locked periods of the team from `fromMonth` on. */
export function listPeriods(db: Executor, teamId: string, fromMonth: string): Promise<PeriodRow[]> {
  return db
    .select()
    .from(teamPeriods)
    .where(and(eq(teamPeriods.teamId, teamId), gte(teamPeriods.month, fromMonth)));
}

export async function findPeriod(db: Executor, teamId: string, month: string): Promise<PeriodRow | undefined> {
  const [row] = await db
    .select()
    .from(teamPeriods)
    .where(and(eq(teamPeriods.teamId, teamId), eq(teamPeriods.month, month)));
  return row;
}

export async function insertPeriod(tx: Executor, values: typeof teamPeriods.$inferInsert): Promise<void> {
  await tx.insert(teamPeriods).values(values);
}

export async function lockPeriod(tx: Executor, teamId: string, month: string, userId: string, at: Date): Promise<void> {
  await tx
    .update(teamPeriods)
    .set({ lockedAt: at, lockedByUserId: userId })
    .where(and(eq(teamPeriods.teamId, teamId), eq(teamPeriods.month, month), isNull(teamPeriods.lockedAt)));
}

/** The objections to the team's periods from `fromMonth` on (one user's only, when given), oldest first. */
export function listPeriodObjections(db: Executor, teamId: string, fromMonth: string, userId?: string) {
  return db
    .select()
    .from(teamPeriodObjections)
    .where(
      and(
        eq(teamPeriodObjections.teamId, teamId),
        gte(teamPeriodObjections.month, fromMonth),
        userId ? eq(teamPeriodObjections.userId, userId) : undefined,
      ),
    )
    .orderBy(asc(teamPeriodObjections.createdAt), asc(teamPeriodObjections.id));
}

export async function findPeriodObjection(db: Executor, teamId: string, id: string): Promise<PeriodObjectionRow | undefined> {
  const [row] = await db
    .select()
    .from(teamPeriodObjections)
    .where(and(eq(teamPeriodObjections.teamId, teamId), eq(teamPeriodObjections.id, id)));
  return row;
}

export async function insertPeriodObjection(
  tx: Executor,
  values: typeof teamPeriodObjections.$inferInsert,
): Promise<PeriodObjectionRow> {
  const [row] = await tx.insert(teamPeriodObjections).values(values).returning();
  return row!;
}

export async function answerPeriodObjection(
  tx: Executor,
  id: string,
  answer: { answer: string; answeredAt: Date; answeredByUserId: string },
): Promise<void> {
  await tx
    .update(teamPeriodObjections)
    .set(answer)
    .where(and(eq(teamPeriodObjections.id, id), isNull(teamPeriodObjections.answeredAt)));
}

export async function insertPeriodEvent(
  tx: Executor,
  values: {
    teamId: string;
    month: string;
    kind: PeriodEventKind;
    userId: string;
    at: Date;
    objectionId?: string;
    adjustmentId?: string;
  },
): Promise<void> {
  await tx.insert(teamPeriodEvents).values(values);
}

/** Who confirmed the team's periods from `fromMonth` on, per month. */
export async function confirmationsPerMonth(db: Executor, teamId: string, fromMonth: string): Promise<Map<string, Set<string>>> {
  const rows = await db
    .select({ month: teamPeriodEvents.month, userId: teamPeriodEvents.userId })
    .from(teamPeriodEvents)
    .where(
      and(eq(teamPeriodEvents.teamId, teamId), gte(teamPeriodEvents.month, fromMonth), eq(teamPeriodEvents.kind, 'confirmed')),
    );
  const byMonth = new Map<string, Set<string>>();
  for (const row of rows) byMonth.set(row.month, (byMonth.get(row.month) ?? new Set()).add(row.userId));
  return byMonth;
}

/** The transitions of one period, oldest first (its audit trail). */
export function listPeriodEvents(db: Executor, teamId: string, month: string) {
  return db
    .select()
    .from(teamPeriodEvents)
    .where(and(eq(teamPeriodEvents.teamId, teamId), eq(teamPeriodEvents.month, month)))
    .orderBy(asc(teamPeriodEvents.at), asc(teamPeriodEvents.id));
}

// ---- The back office's reads of a venue (issue 29) ----

/** Workplaces whose name contains the text, or whose id lies in the range (an id's first digits), oldest first. */
export function searchWorkplaces(db: Executor, text: string, idRange: [string, string] | null, limit: number) {
  const byName = ilike(workplaces.name, `%${likeLiteral(text)}%`);
  return db
    .select()
    .from(workplaces)
    .where(idRange ? or(byName, and(gte(workplaces.id, idRange[0]), lte(workplaces.id, idRange[1]))) : byName)
    .orderBy(asc(workplaces.createdAt), asc(workplaces.id))
    .limit(limit);
}

/** Every version of the venue's tipping policy, newest first. */
export function listPolicyVersions(db: Executor, workplaceId: string): Promise<TippingPolicyRow[]> {
  return db
    .select()
    .from(tippingPolicies)
    .where(eq(tippingPolicies.workplaceId, workplaceId))
    .orderBy(desc(tippingPolicies.version));
}

/** The current members of these teams, longest-standing first (the venue page's people). */
export async function listOpenMembershipsOfTeams(db: Executor, teamIds: string[]) {
  if (teamIds.length === 0) return [];
  return db
    .select()
    .from(teamMemberships)
    .where(and(inArray(teamMemberships.teamId, teamIds), isNull(teamMemberships.leftAt)))
    .orderBy(asc(teamMemberships.joinedAt), asc(teamMemberships.id));
}
