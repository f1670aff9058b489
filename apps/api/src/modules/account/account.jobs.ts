import type { Job } from '../../jobs/job.ts';
import type { AccountService } from './account.service.ts';

/**
 * Deleted accounts past their 30 days of restore lose their personal data; five years after that, the records the
 * law kept are purged.
 */
export function createAccountJobs(account: AccountService): Job[] {
  return [
    { name: 'account.erase', runOne: (now) => account.eraseOne(now) },
    { name: 'account.purge', runOne: (now) => account.purgeOne(now) },
  ];
}
