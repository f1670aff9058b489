import { and, asc, eq, gte, lte, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { teamPeriodAdjustments, teams, workplaces } from '../../db/schema/teams.ts';

export type AdjustmentRow = typeof teamPeriodAdjustments.$inferSelect;

/** The unique index that names an adjustment by its admin's Idempotency-Key. */
export const ADJUSTMENT_KEY_INDEX = 'team_period_adjustments_key';

export async function findAdjustmentByKey(db: Executor, userId: string, idempotencyKey: string) {
  const [row] = await db
    .select()
    .from(teamPeriodAdjustments)
    .where(and(eq(teamPeriodAdjustments.createdByUserId, userId), eq(teamPeriodAdjustments.idempotencyKey, idempotencyKey)));
  return row;
}

export async function insertAdjustment(tx: Executor, values: typeof teamPeriodAdjustments.$inferInsert): Promise<AdjustmentRow> {
  const [row] = await tx.insert(teamPeriodAdjustments).values(values).returning();
  return row!;
}

/** The adjustments of the team's periods from `fromMonth` on (those one user gave or received, when given), oldest first. */
export function listAdjustments(db: Executor, teamId: string, fromMonth: string, userId?: string): Promise<AdjustmentRow[]> {
  return db
    .select()
    .from(teamPeriodAdjustments)
    .where(
      and(
        eq(teamPeriodAdjustments.teamId, teamId),
        gte(teamPeriodAdjustments.month, fromMonth),
        userId ? or(eq(teamPeriodAdjustments.fromUserId, userId), eq(teamPeriodAdjustments.toUserId, userId)) : undefined,
      ),
    )
    .orderBy(asc(teamPeriodAdjustments.createdAt), asc(teamPeriodAdjustments.id));
}

/**
 * The adjustments of the months `first` to `last`, of one team or of one user in any team (with the team's title and
 * workplace): what allocation records list beside the tips of those months.
 */
export function listAdjustmentsForRecords(
  db: Executor,
  of: { teamId: string } | { userId: string },
  months: { first: string; last: string },
) {
  return db
    .select({ adjustment: teamPeriodAdjustments, teamTitle: teams.title, workplaceName: workplaces.name })
    .from(teamPeriodAdjustments)
    .innerJoin(teams, eq(teams.id, teamPeriodAdjustments.teamId))
    .innerJoin(workplaces, eq(workplaces.id, teams.workplaceId))
    .where(
      and(
        'teamId' in of
          ? eq(teamPeriodAdjustments.teamId, of.teamId)
          : or(eq(teamPeriodAdjustments.fromUserId, of.userId), eq(teamPeriodAdjustments.toUserId, of.userId)),
        gte(teamPeriodAdjustments.month, months.first),
        lte(teamPeriodAdjustments.month, months.last),
      ),
    )
    .orderBy(asc(teamPeriodAdjustments.createdAt), asc(teamPeriodAdjustments.id));
}
