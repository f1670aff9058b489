import type { Job } from '../../jobs/job.ts';
import type { PaymentsService } from './payments.service.ts';

/**
 * The payments module's due work: held shares released to main, pending payments checked with the provider, and
 * payments nobody may receive given back to their payers.
 */
export function createPaymentsJobs(payments: PaymentsService): Job[] {
  return [
    { name: 'payments.release', runOne: (now) => payments.releaseOneDueShare(now) },
    { name: 'payments.reconcile', runOne: (now) => payments.reconcileOneDuePayment(now) },
    { name: 'payments.give-back', runOne: (now) => payments.giveBackOne(now) },
  ];
}
