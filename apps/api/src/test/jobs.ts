import type { Job } from '../jobs/job.ts';
import { itemsOf } from '../jobs/runner.ts';

/**
 * Runs a job until nothing is due at the time `now` answers (asked before each item, so a moving clock is honoured),
 * at most `limit` items, so a job that never idles cannot hang a test.
 */
export async function drainJob(job: Pick<Job, 'runOne'>, now: () => Date, limit = 10_000): Promise<number> {
  let done = 0;
  while (done < limit) {
    const did = itemsOf(await job.runOne(now()));
    if (did === 0) break;
    done += did;
  }
  return done;
}
