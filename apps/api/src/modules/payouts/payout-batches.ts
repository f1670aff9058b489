import type { Database, Executor } from '../../db/client.ts';
import * as repo from './payouts.repository.ts';
import { applyPayoutOutcome } from './payouts.jobs.ts';

/**
 * The operator's side of the file rail until the back office exists (`npm run payouts:export` and
 * `npm run payouts:mark`): stored files written out again, a batch marked sent, payouts marked paid or returned.
 */

export const listBatches = repo.listBatches;
export const findBatch = repo.findBatch;

/** Marks a batch as uploaded to the bank; false when it was already marked. */
export async function markBatchSent(db: Executor, batchId: string, now: Date): Promise<boolean> {
  return repo.markBatchSent(db, batchId, now);
}

/** The bank's answer for one payout; false when it is not in flight (already settled: nothing changes). */
export async function markPayout(db: Database, payoutId: string, outcome: 'paid' | 'returned', now: Date, reason = 'Returned by the bank'): Promise<boolean> {
  return db.transaction((tx) => applyPayoutOutcome(tx, payoutId, outcome === 'paid' ? { state: 'paid' } : { state: 'returned', reason }, now));
}

/** Marks every payout of a batch that is still in flight; answers how many changed. */
export async function markBatchPayouts(db: Database, batchId: string, outcome: 'paid' | 'returned', now: Date, reason?: string): Promise<number> {
  let changed = 0;
  for (const payout of await repo.listBatchPayouts(db, batchId)) {
    if (await markPayout(db, payout.id, outcome, now, reason)) changed += 1;
  }
  return changed;
}

// Back office (issue 15): what the finance screen lists.
export const listPayoutsByStatus = repo.listPayoutsByStatus;
export const listPayoutsOfUser = repo.listPayouts;
export const listBatchPayouts = repo.listBatchPayouts;
export type { PayoutRow } from './payouts.repository.ts';
