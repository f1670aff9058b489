import type { Job } from '../../jobs/job.ts';
import type { OpsService } from './ops.service.ts';

/**
 * The back office's due work: one ledger-health snapshot an hour, for the ledger screen's counts over time; and
 * refunds decided but left unfinished (a crash, a provider that could not be reached), made once their lease ends.
 */
export function createOpsJobs(ops: OpsService): Job[] {
  return [
    { name: 'ops.health-snapshot', runOne: (now) => ops.takeHealthSnapshot(now) },
    { name: 'ops.refunds', runOne: (now) => ops.resumeOneRefund(now) },
  ];
}
