import type { Job } from '../jobs/job.ts';

/** Runs a job until nothing is due at `now` (bounded, so a job that never idles fails the test instead of hanging). */
export async function drainJob(job: Pick<Job, 'runOne'>, now: Date, limit = 10_000): Promise<number> {
  let done = 0;
  while (await job.runOne(now)) {
    done += 1;
    if (done >= limit) throw new Error(`job still had work after ${limit} items`);
  }
  return done;
}
