import { and, desc, eq, lte } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { venueCards, venuePercentages, venueTipSplits } from '../../db/schema/venue-tips.ts';

export type VenueCardRow = typeof venueCards.$inferSelect;
export type PercentagesRow = typeof venuePercentages.$inferSelect;
export type VenueTipSplitInsert = typeof venueTipSplits.$inferInsert;

export async function findVenueCardOfWorkplace(db: Executor, workplaceId: string): Promise<VenueCardRow | undefined> {
  const [row] = await db.select().from(venueCards).where(eq(venueCards.workplaceId, workplaceId));
  return row;
}

export async function findVenueCardByCard(db: Executor, cardId: string): Promise<VenueCardRow | undefined> {
  const [row] = await db.select().from(venueCards).where(eq(venueCards.cardId, cardId));
  return row;
}

export async function insertVenueCard(tx: Executor, values: typeof venueCards.$inferInsert): Promise<VenueCardRow> {
  const [row] = await tx.insert(venueCards).values(values).returning();
  return row!;
}

/** The version in force at `at`: the latest created at or before it. */
export async function findPercentagesAt(db: Executor, workplaceId: string, at: Date): Promise<PercentagesRow | undefined> {
  const [row] = await db
    .select()
    .from(venuePercentages)
    .where(and(eq(venuePercentages.workplaceId, workplaceId), lte(venuePercentages.createdAt, at)))
    .orderBy(desc(venuePercentages.createdAt), desc(venuePercentages.id))
    .limit(1);
  return row;
}

/** Every version the venue set, newest first. */
export function listPercentages(db: Executor, workplaceId: string): Promise<PercentagesRow[]> {
  return db
    .select()
    .from(venuePercentages)
    .where(eq(venuePercentages.workplaceId, workplaceId))
    .orderBy(desc(venuePercentages.createdAt), desc(venuePercentages.id));
}

export async function insertPercentages(tx: Executor, values: typeof venuePercentages.$inferInsert): Promise<PercentagesRow> {
  const [row] = await tx.insert(venuePercentages).values(values).returning();
  return row!;
}

export async function insertVenueTipSplit(tx: Executor, values: VenueTipSplitInsert): Promise<void> {
  await tx.insert(venueTipSplits).values(values);
}
