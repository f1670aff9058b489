import type { Job } from '../../jobs/job.ts';
import type { OpsAuthService } from './ops-auth.service.ts';
import type { OpsService } from './ops.service.ts';

/**
 * The back office's due work: one ledger-health snapshot an hour, for the ledger screen's counts over time; and
 * refunds decided but left unfinished (a crash, a provider that could not be reached), made once their lease ends;
 * and, while JWT_SECRET_PREVIOUS is set, the operators' TOTP secrets re-sealed under the current JWT_SECRET.
 */
export function createOpsJobs(ops: OpsService, opsAuth: OpsAuthService): Job[] {
  return [
    { name: 'ops.health-snapshot', runOne: (now) => ops.takeHealthSnapshot(now) },
    { name: 'ops.refunds', runOne: (now) => ops.resumeOneRefund(now) },
    { name: 'ops.reseal', runOne: () => opsAuth.resealOne() },
  ];
}
