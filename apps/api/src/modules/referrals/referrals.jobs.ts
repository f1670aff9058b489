import type { Job } from '../../jobs/job.ts';
import type { ReferralsService } from './referrals.service.ts';

/** The referral programme's due work: rewards whose cap is reached or whose 90 days are over. */
export function createReferralJobs(referrals: ReferralsService): Job[] {
  return [{ name: 'referrals.reward', runOne: (now) => referrals.rewardOneDue(now) }];
}
