import type { Job } from '../../jobs/job.ts';
import { RECORDED_EVENTS_CHANNEL } from './payments.repository.ts';
import type { PaymentsService } from './payments.service.ts';

/**
 * The payments module's due work: webhooks' recorded events applied in batches (at once when announced, by several
 * appliers side by side, decision 0060), held shares released to main in batches, pending payments checked with the provider, and payments nobody
 * may receive given back to their payers.
 */
export function createPaymentsJobs(payments: PaymentsService, { appliers }: { appliers: number }): Job[] {
  return [
    {
      name: 'payments.apply-events',
      runOne: (now, partition) => payments.applyRecordedEvents(now, partition),
      wakeOn: RECORDED_EVENTS_CHANNEL,
      partitions: appliers,
    },
    { name: 'payments.release', runOne: (now) => payments.releaseDueShares(now) },
    { name: 'payments.reconcile', runOne: (now) => payments.reconcileOneDuePayment(now) },
    { name: 'payments.give-back', runOne: (now) => payments.giveBackOne(now) },
  ];
}
