import type { Job } from '../../jobs/job.ts';
import type { CardOrdersService } from './card-orders.service.ts';

/** The card shop's due work: payments of canceled orders, given back in full. */
export function createCardOrdersJobs(cardOrders: CardOrdersService): Job[] {
  return [{ name: 'card-orders.refund-canceled', runOne: (now) => cardOrders.refundOneCanceled(now) }];
}
