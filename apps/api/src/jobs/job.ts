/** One of `count` disjoint parts of a job's due work, which that many loops may do side by side. */
export interface Partition {
  index: number;
  count: number;
}

/**
 * One kind of background work, declared by its module in `<module>.jobs.ts` (DESIGN "Jobs and messages"). Due work
 * lives in domain rows with a due time; `runOne` claims one due row with `FOR UPDATE SKIP LOCKED` (or a lease) and
 * does it. Safe to run on any number of workers at once and to be killed at any line.
 */
export interface Job {
  /** Stable and unique, for logs: `tips.settle`, `payouts.send`, `messages.deliver` … */
  name: string;
  /**
   * Does one due item, or one batch of them; answers false or 0 when nothing is due now, else true or how many it did.
   * With `partition`, only items of that part (a job that declares `partitions`); without, any.
   */
  runOne(now: Date, partition?: Partition): Promise<boolean | number>;
  /**
   * A NOTIFY channel on which new due work is announced: a runner that can LISTEN runs the job as soon as a notice
   * comes, besides its ticks, so that work needing to be done within a second need not wait for the next tick.
   */
  wakeOn?: string;
  /**
   * How many loops a listening runner runs this job in, side by side, each on its own part of the due work: for work
   * bound by round trips to the database rather than by CPU. Ticks still run it as one loop over all of it.
   */
  partitions?: number;
}
