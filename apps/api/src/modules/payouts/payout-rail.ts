import type { Database } from '../../db/client.ts';
import * as repo from './payouts.repository.ts';

/** What a rail is told to send: the payout id is its idempotency key. */
export interface RailTransfer {
  payoutId: string;
  amountCents: number;
  currency: 'EUR';
  destination:
    | { kind: 'sepa'; iban: string; bic: string; holder: string }
    | { kind: 'uk'; accountNumber: string; sortCode: string; holder: string };
}

export type RailStatus = { state: 'pending' } | { state: 'paid' } | { state: 'returned'; reason: string };

/**
 * A rail that sends one payout at a time and answers its fate later (the sandbox; a bank's payment API would be
 * another). `submit` must be idempotent by payout id: after a crash the worker cannot know whether its last request
 * arrived, so it asks again, and the rail must not send twice. The file rail is different in kind (batches written
 * out and marked by an operator) and lives in payout-batches.ts.
 */
export interface PayoutRail {
  readonly name: 'sandbox';
  submit(transfer: RailTransfer, now: Date): Promise<void>;
  status(payoutId: string, now: Date): Promise<RailStatus>;
}

/** The sandbox's account that always comes back, so the return path can be tried by hand (README "Payouts"). */
export const SANDBOX_FAILING_IBAN = 'LV97HABA0012345678910';
export const SANDBOX_FAILING_UK_ACCOUNT = '99999999';

/**
 * The default rail: a pretend bank that keeps its own record of transfers (one per payout, however often it is
 * asked) and settles each one `delayMs` after it first saw it, or returns it for the test accounts above.
 */
export function createSandboxRail(db: Database, delayMs: number): PayoutRail {
  return {
    name: 'sandbox',
    async submit(transfer, now) {
      const account =
        transfer.destination.kind === 'sepa'
          ? transfer.destination.iban
          : `${transfer.destination.sortCode}${transfer.destination.accountNumber}`;
      await repo.recordSandboxTransfer(db, {
        payoutId: transfer.payoutId,
        account,
        amountCents: transfer.amountCents,
        createdAt: now,
      });
    },
    async status(payoutId, now) {
      const transfer = await repo.findSandboxTransfer(db, payoutId);
      // Never received: the worker will submit it again, so it is not lost.
      if (!transfer || transfer.createdAt.getTime() + delayMs > now.getTime()) return { state: 'pending' };
      if (transfer.account === SANDBOX_FAILING_IBAN || transfer.account.endsWith(SANDBOX_FAILING_UK_ACCOUNT)) {
        return { state: 'returned', reason: 'AC04 Closed account (sandbox test account)' };
      }
      return { state: 'paid' };
    },
  };
}
