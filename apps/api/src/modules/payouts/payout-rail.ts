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
 * How long an instant payout's answer is waited for: the SCT Inst rulebook's time-out deadline. Past it, the scheme
 * rejects the transfer (AB05) and the money never leaves; we ask the rail again later rather than guess
 * (docs/decisions/0044 "Instant payouts").
 */
export const INSTANT_ANSWER_TIMEOUT_MS = 20_000;

/**
 * A rail that sends one payout at a time and answers its fate later (the sandbox; a bank's payment API would be
 * another). `submit` must be idempotent by payout id: after a crash the worker cannot know whether its last request
 * arrived, so it asks again, and the rail must not send twice. The file rail is different in kind (batches written
 * out and marked by an operator) and lives in payout-batches.ts.
 */
export interface PayoutRail {
  readonly name: 'sandbox';
  submit(transfer: RailTransfer, now: Date): Promise<void>;
  /**
   * Sends a SEPA Instant payout and waits for the bank's answer (accepted, or rejected with an ISO reason); idempotent
   * by payout id like `submit`, and the same answer again when asked twice. `signal` aborts the wait at the time-out
   * deadline: the answer is then unknown and `status` is asked later.
   */
  submitInstant(transfer: RailTransfer, now: Date, signal: AbortSignal): Promise<RailStatus>;
  status(payoutId: string, now: Date): Promise<RailStatus>;
}

/** The sandbox's account that always comes back, so the return path can be tried by hand (README "Payouts"). */
export const SANDBOX_FAILING_IBAN = 'LV97HABA0012345678910';
export const SANDBOX_FAILING_UK_ACCOUNT = '99999999';
/** The sandbox's instant account whose bank never answers in time: the time-out path (the scheme then rejects it, AB05). */
export const SANDBOX_INSTANT_TIMEOUT_IBAN = 'LV71HABA0551000000000';
const CLOSED_ACCOUNT = 'AC04 Closed account (sandbox test account)';
const INSTANT_TIMED_OUT = 'AB05 Timeout at the creditor bank (sandbox test account)';

/**
 * The default rail: a pretend bank that keeps its own record of transfers (one per payout, however often it is
 * asked) and settles each one `delayMs` after it first saw it, or returns it for the test accounts above.
 */
export function createSandboxRail(db: Database, delayMs: number): PayoutRail {
  const accountOf = (transfer: RailTransfer) =>
    transfer.destination.kind === 'sepa'
      ? transfer.destination.iban
      : `${transfer.destination.sortCode}${transfer.destination.accountNumber}`;
  const record = (transfer: RailTransfer, now: Date, instant: boolean) =>
    repo.recordSandboxTransfer(db, {
      payoutId: transfer.payoutId,
      account: accountOf(transfer),
      amountCents: transfer.amountCents,
      instant,
      createdAt: now,
    });
  /** The bank's final answer about a transfer it has settled. */
  const outcomeOf = (transfer: { account: string; instant: boolean }): RailStatus => {
    if (transfer.account === SANDBOX_FAILING_IBAN || transfer.account.endsWith(SANDBOX_FAILING_UK_ACCOUNT)) {
      return { state: 'returned', reason: CLOSED_ACCOUNT };
    }
    if (transfer.instant && transfer.account === SANDBOX_INSTANT_TIMEOUT_IBAN)
      return { state: 'returned', reason: INSTANT_TIMED_OUT };
    return { state: 'paid' };
  };
  return {
    name: 'sandbox',
    async submit(transfer, now) {
      await record(transfer, now, false);
    },
    async submitInstant(transfer, now, signal) {
      const recorded = await record(transfer, now, true);
      if (recorded.account === SANDBOX_INSTANT_TIMEOUT_IBAN) {
        // The creditor bank never answers: the caller gives up at its deadline.
        await new Promise<void>((resolve) => {
          if (signal.aborted) resolve();
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        return { state: 'pending' };
      }
      return outcomeOf(recorded);
    },
    async status(payoutId, now) {
      const transfer = await repo.findSandboxTransfer(db, payoutId);
      // Never received: the worker will submit it again, so it is not lost.
      if (!transfer) return { state: 'pending' };
      if (!transfer.instant && transfer.createdAt.getTime() + delayMs > now.getTime()) return { state: 'pending' };
      return outcomeOf(transfer);
    },
  };
}
