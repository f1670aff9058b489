import type { Database } from '../../db/client.ts';
import type { Job } from '../../jobs/job.ts';
import { repayOneDebt, settleClosedAccount } from './ledger.service.ts';

/**
 * The ledger's own upkeep (docs/decisions/0028): an open debt is repaid from main once main has money, and money that
 * moves onto an erased account after its erasure (a returned withdrawal, a late refund) is settled.
 */
export function createLedgerJobs(db: Database): Job[] {
  return [
    { name: 'ledger.repay-debts', runOne: () => repayOneDebt(db) },
    { name: 'ledger.settle-closed', runOne: () => db.transaction((tx) => settleClosedAccount(tx)) },
  ];
}
