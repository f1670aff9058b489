import type { Database } from '../../db/client.ts';
import type { Job } from '../../jobs/job.ts';
import { settleDueTips } from './transactions.service.ts';

/** `tips.settle`: moves one tip whose hold has run out from hold to main (DESIGN "Jobs and messages"). */
export function tipJobs(db: Database): Job[] {
  return [{ name: 'tips.settle', runOne: async (now) => (await settleDueTips(db, now, 1)) > 0 }];
}
