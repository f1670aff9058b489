/**
 * One kind of background work, declared by its module in `<module>.jobs.ts` (DESIGN "Jobs and messages"). Due work
 * lives in domain rows with a due time; `runOne` claims one due row with `FOR UPDATE SKIP LOCKED` (or a lease) and
 * does it. Safe to run on any number of workers at once and to be killed at any line.
 */
export interface Job {
  /** Stable and unique, for logs: `tips.settle`, `payouts.send`, `messages.deliver` … */
  name: string;
  /** Does one due item; answers false when nothing is due now. */
  runOne(now: Date): Promise<boolean>;
}
