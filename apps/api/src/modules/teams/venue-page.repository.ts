import { asc, eq, inArray, isNull, and } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { teamMemberships, teams, workplaces } from '../../db/schema/teams.ts';

export async function findWorkplace(db: Executor, workplaceId: string) {
  const [row] = await db.select().from(workplaces).where(eq(workplaces.id, workplaceId));
  return row;
}

/** Every team of the workplace, oldest first (a venue holds several; the first is the one it was created with). */
export async function listTeamsOfWorkplace(db: Executor, workplaceId: string) {
  return db.select().from(teams).where(eq(teams.workplaceId, workplaceId)).orderBy(asc(teams.createdAt), asc(teams.id));
}

/** The current members of these teams, longest-standing first. */
export async function listOpenMembershipsOfTeams(db: Executor, teamIds: string[]) {
  if (teamIds.length === 0) return [];
  return db
    .select()
    .from(teamMemberships)
    .where(and(inArray(teamMemberships.teamId, teamIds), isNull(teamMemberships.leftAt)))
    .orderBy(asc(teamMemberships.joinedAt), asc(teamMemberships.id));
}
