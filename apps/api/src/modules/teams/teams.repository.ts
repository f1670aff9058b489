import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { teamJoinRequests, teamMemberships, teams, workplaces } from '../../db/schema/teams.ts';

export type WorkplaceRow = typeof workplaces.$inferSelect;
export type TeamRow = typeof teams.$inferSelect;
export type MembershipRow = typeof teamMemberships.$inferSelect;
export type JoinRequestRow = typeof teamJoinRequests.$inferSelect;

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

export async function findTeamAdministeredBy(db: Executor, userId: string): Promise<TeamRow | undefined> {
  const [row] = await db.select().from(teams).where(eq(teams.adminUserId, userId)).limit(1);
  return row;
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
  status: 'approved' | 'declined',
  now: Date,
): Promise<JoinRequestRow> {
  const [row] = await tx.update(teamJoinRequests).set({ status, decidedAt: now }).where(eq(teamJoinRequests.id, id)).returning();
  return row!;
}
