import type { Job } from '../../jobs/job.ts';
import type { OpsService } from './ops.service.ts';

/** The back office's due work: one ledger-health snapshot an hour, for the ledger screen's counts over time. */
export function createOpsJobs(ops: OpsService): Job[] {
  return [{ name: 'ops.health-snapshot', runOne: (now) => ops.takeHealthSnapshot(now) }];
}
