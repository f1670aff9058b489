import type { Job } from '../../jobs/job.ts';
import type { InvoicesService } from './invoices.service.ts';

/** The invoices module's due work: payments that succeeded for an invoice no longer open, given back. */
export function createInvoicesJobs(invoices: InvoicesService): Job[] {
  return [{ name: 'invoices.refund-duplicates', runOne: (now) => invoices.refundOneDuplicate(now) }];
}
