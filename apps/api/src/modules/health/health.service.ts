import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

export type HealthService = ReturnType<typeof createHealthService>;

/** What the readiness probe asks: whether the database answers. */
export function createHealthService({ db }: { db: Database }) {
  return {
    async databaseReachable(): Promise<boolean> {
      try {
        await db.execute(sql`SELECT 1`);
        return true;
      } catch {
        return false;
      }
    },
  };
}
