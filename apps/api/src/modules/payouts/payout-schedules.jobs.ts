import type { Job } from '../../jobs/job.ts';
import type { PayoutSchedulesService } from './payout-schedules.service.ts';

/** Automatic payouts (docs/decisions/0044): one due schedule per call, each in its own transaction. */
export function payoutScheduleJobs(schedules: Pick<PayoutSchedulesService, 'runDue'>): Job[] {
  return [{ name: 'payouts.run-schedules', runOne: async (now) => (await schedules.runDue(now)) !== undefined }];
}
