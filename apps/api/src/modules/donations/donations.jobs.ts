import type { Job } from '../../jobs/job.ts';
import type { DonationsService } from './donations.service.ts';

/**
 * Monthly plans' background work (DESIGN "Jobs and messages"): the e-mail a few days before a charge, the charge
 * (and its retries), and each January the e-mail with last year's statement. Each claims one due plan at a time.
 */
export function createDonationsJobs(donations: DonationsService): Job[] {
  return [
    { name: 'donations.remind', runOne: (now) => donations.remindOneDuePlan(now) },
    { name: 'donations.charge', runOne: (now) => donations.chargeOneDuePlan(now) },
    { name: 'donations.statements', runOne: (now) => donations.sendOneDueStatement(now) },
  ];
}
