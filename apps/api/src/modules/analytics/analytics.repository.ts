import type { Executor } from '../../db/client.ts';
import { analyticsEvents } from '../../db/schema/analytics.ts';

export type NewAnalyticsEvent = typeof analyticsEvents.$inferInsert;

export async function insertAnalyticsEvent(db: Executor, event: NewAnalyticsEvent): Promise<void> {
  await db.insert(analyticsEvents).values(event);
}
