import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.ts';
import type { Job } from '../../jobs/job.ts';
import { postEntry, type AccountRef } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants, settlePayoutTransaction } from '../transactions/transactions.service.ts';
import { latestCutoff, processingDay } from './business-days.ts';
import { INSTANT_ANSWER_TIMEOUT_MS, type PayoutRail, type RailTransfer } from './payout-rail.ts';
import * as repo from './payouts.repository.ts';
import { textPayoutOutcome } from './payout-texts.ts';
import { buildSepaCreditTransferFile, type SepaDebtor } from './sepa-file.ts';
import { buildUkBulkCsv } from './uk-file.ts';

/** Named points where a test can make the worker die (docs/decisions/0007 "Crash safety"). */
export type PayoutFaultPoint =
  | 'submit:claimed'
  | 'submit:sent'
  | 'submit:recorded'
  | 'status:claimed'
  | 'settle:in-transaction'
  | 'settle:committed'
  | 'batch:in-transaction'
  | 'batch:committed';

export interface PayoutJobDeps {
  db: Database;
  log: FastifyBaseLogger;
  rail: PayoutRail;
  /** The company account the bank files pay from; without it no file is made (refused and logged). */
  debtor: SepaDebtor | undefined;
  /** How long an instant payout's answer is waited for (INSTANT_ANSWER_TIMEOUT_MS; tests shorten it). */
  instantTimeoutMs?: number;
  /** Called at each fault point; throwing there simulates the process dying on that line. Tests only. */
  fault?: (point: PayoutFaultPoint) => void | Promise<void>;
}

/** How long a claim on a payout lasts before another run may take it over (the claimer died). */
export const SUBMIT_LEASE_MS = 60_000;
/** How often a sent sandbox payout is asked about again while its answer is not in. */
export const STATUS_POLL_MS = 15_000;
/**
 * The invariant scan reads the whole ledger, too much to repeat for every payout sent: a passing scan covers the
 * sends of the following minute, a failing one is repeated before any send.
 */
export const BOOKS_CHECK_VALID_MS = 60_000;
const BATCH_MAX = 5_000;

const PLATFORM = {
  inFlight: { platform: 'payouts_in_flight' },
  fees: { platform: 'fees' },
  // Money that left our bank account for the staff member's: it is no longer owed by us, and no longer held by the
  // PSP on our behalf. psp_clearing is the asset the tips were credited against, so a paid payout draws it down.
  out: { platform: 'psp_clearing' },
} as const satisfies Record<string, AccountRef>;

export type PayoutOutcome = { state: 'paid' } | { state: 'returned'; reason: string };

/**
 * Applies the bank's answer for one in-flight payout, in the caller's transaction: PAID moves the amount out of
 * payouts_in_flight; returned gives the amount and the fee back to main and marks the PAYOUT row REFUNDED; the user
 * is texted either way (if they want). Answers
 * false, changing nothing, when the payout is not in flight (already settled: the answer came twice).
 */
export async function applyPayoutOutcome(tx: Executor, payoutId: string, outcome: PayoutOutcome, now: Date): Promise<boolean> {
  const payout = await repo.findPayoutForUpdate(tx, payoutId);
  if (!payout || payout.status !== 'in_flight') return false;
  if (outcome.state === 'paid') {
    await postEntry(tx, {
      kind: 'payout_paid',
      reference: `payout:${payout.id}:paid`,
      postings: [
        { account: PLATFORM.inFlight, amountCents: -payout.amountCents },
        { account: PLATFORM.out, amountCents: payout.amountCents },
      ],
    });
    await repo.updatePayout(tx, payout.id, { status: 'paid', paidAt: now, railDueAt: null });
    await settlePayoutTransaction(tx, payout.id, 'PAID', now);
    await textPayoutOutcome(tx, payout, 'paid', now);
  } else {
    await postEntry(tx, {
      kind: 'payout_returned',
      reference: `payout:${payout.id}:returned`,
      postings: [
        { account: PLATFORM.inFlight, amountCents: -payout.amountCents },
        // A closing payout of 3 EUR or less carries no fee (docs/decisions/0025), and a ledger posting is never zero.
        ...(payout.feeCents > 0 ? [{ account: PLATFORM.fees, amountCents: -payout.feeCents }] : []),
        { account: { userId: payout.userId, kind: 'main' }, amountCents: payout.amountCents + payout.feeCents },
      ],
    });
    await repo.updatePayout(tx, payout.id, {
      status: 'returned',
      returnedAt: now,
      returnReason: outcome.reason.slice(0, 200),
      railDueAt: null,
    });
    await settlePayoutTransaction(tx, payout.id, 'REFUNDED', now);
    await textPayoutOutcome(tx, payout, 'returned', now, outcome.reason);
  }
  return true;
}

const transferOf = (payout: repo.PayoutRow): RailTransfer => ({
  payoutId: payout.id,
  amountCents: payout.amountCents,
  currency: 'EUR',
  destination:
    payout.destKind === 'sepa'
      ? { kind: 'sepa', iban: payout.destIban!, bic: payout.destBic!, holder: payout.destHolder }
      : { kind: 'uk', accountNumber: payout.destAccountNumber!, sortCode: payout.destSortCode!, holder: payout.destHolder },
});

/** The invariant check that precedes every batch; a failure refuses it, logged, with nothing sent. */
async function booksAreRight(deps: Pick<PayoutJobDeps, 'db' | 'log'>, what: string): Promise<boolean> {
  const problems = await checkLedgerInvariants(deps.db);
  if (problems.length === 0) return true;
  deps.log.error(
    { problems: problems.slice(0, 20), count: problems.length },
    `ledger invariants fail: ${what} refused, nothing sent`,
  );
  return false;
}

/**
 * The payout work, one due item per call. Every step is safe to run on several workers at once and to die at any
 * line. The jobs below run them; tests drive them directly to count what each did.
 */
export function createPayoutSteps(deps: PayoutJobDeps) {
  let booksRightAt: number | undefined;

  /**
   * A SEPA Instant payout: the bank's answer comes within seconds and is applied at once (Paid, or the money and the
   * fee back with the reason), with the submission recorded in the same transaction. No answer by the time-out
   * deadline leaves it submitted: `settleOne` asks the rail about it like any other, until it answers.
   */
  async function submitInstant(payout: repo.PayoutRow, now: Date): Promise<boolean> {
    const deadline = AbortSignal.timeout(deps.instantTimeoutMs ?? INSTANT_ANSWER_TIMEOUT_MS);
    const answer = await deps.rail.submitInstant(transferOf(payout), now, deadline);
    await deps.fault?.('submit:sent');
    await deps.db.transaction(async (tx) => {
      await repo.markSubmitted(tx, payout.id, now, now);
      if (answer.state !== 'pending') await applyPayoutOutcome(tx, payout.id, answer, now);
    });
    if (answer.state === 'pending')
      deps.log.warn({ payout: payout.id }, 'instant payout: no answer by the deadline, asking again later');
    await deps.fault?.('submit:recorded');
    return true;
  }

  return {
    /** Marks every unconfirmed payout whose code died as expired, in one statement; answers how many. */
    expire: (now: Date): Promise<number> => repo.expireUnconfirmed(deps.db, now),

    /**
     * Sends one due sandbox payout. It is claimed with a lease in its own statement (SKIP LOCKED), handed to the rail
     * with its id as the idempotency key, then recorded as submitted. Dying after the claim leaves a lease that runs
     * out, after the send a payout the rail already has: either way the next run asks again and the rail sends once.
     */
    async submitOne(now: Date): Promise<boolean> {
      if (booksRightAt === undefined || now.getTime() - booksRightAt >= BOOKS_CHECK_VALID_MS) {
        if (!(await repo.hasDueRailWork(deps.db, ['sandbox'], now))) return false;
        if (!(await booksAreRight(deps, 'payout submission'))) return false;
        booksRightAt = now.getTime();
      }
      const payout = await repo.claimForSubmit(deps.db, now, new Date(now.getTime() + SUBMIT_LEASE_MS));
      if (!payout) return false;
      await deps.fault?.('submit:claimed');
      if (payout.instant) return submitInstant(payout, now);
      await deps.rail.submit(transferOf(payout), now);
      await deps.fault?.('submit:sent');
      await repo.markSubmitted(deps.db, payout.id, now, now);
      await deps.fault?.('submit:recorded');
      return true;
    },

    /**
     * Asks the rail about one sent payout and applies a final answer in one transaction. Answers the outcome applied,
     * 'unchanged' when there was none to apply (no answer yet, or another run applied it), undefined when no payout
     * was due a look.
     */
    async settleOne(now: Date): Promise<PayoutOutcome['state'] | 'unchanged' | undefined> {
      const payout = await repo.claimForStatus(deps.db, now, new Date(now.getTime() + STATUS_POLL_MS));
      if (!payout) return undefined;
      await deps.fault?.('status:claimed');
      const status = await deps.rail.status(payout.id, now);
      if (status.state === 'pending') return 'unchanged';
      const applied = await deps.db.transaction(async (tx) => {
        const done = await applyPayoutOutcome(tx, payout.id, status, now);
        await deps.fault?.('settle:in-transaction');
        return done;
      });
      await deps.fault?.('settle:committed');
      return applied ? status.state : 'unchanged';
    },

    /** One bank file of the latest cut-off's payouts of a file rail, or undefined when none is waiting. */
    batchOne: (kind: 'sepa' | 'uk', now: Date) => createBatch(deps, kind, latestCutoff(now), now),
  };
}

/**
 * Puts every in-flight payout of a file rail confirmed up to `cutoff` into one new file, in one transaction: the
 * payouts are locked, the file is built and stored, and each payout is tied to it. A payout can only ever be in one
 * file, and a crash leaves either the whole batch or none of it. Answers the batch, or nothing to do.
 */
export async function createBatch(
  deps: Pick<PayoutJobDeps, 'db' | 'log' | 'debtor' | 'fault'>,
  kind: 'sepa' | 'uk',
  cutoff: Date,
  now: Date,
): Promise<repo.PayoutBatchRow | undefined> {
  const rail = kind === 'sepa' ? 'sepa_file' : 'uk_file';
  if (kind === 'sepa' && !deps.debtor) {
    deps.log.error('PAYOUT_DEBTOR_NAME, PAYOUT_DEBTOR_IBAN and PAYOUT_DEBTOR_BIC are not set: SEPA batch refused');
    return undefined;
  }
  const [first] = await repo.lockUnbatched(deps.db, rail, cutoff, 1);
  if (!first) return undefined;
  if (!(await booksAreRight(deps, `${kind} batch`))) return undefined;

  const batch = await deps.db.transaction(async (tx) => {
    const payouts = await repo.lockUnbatched(tx, rail, cutoff, BATCH_MAX);
    if (payouts.length === 0) return undefined;
    const id = randomUUID();
    const messageId = `TC${id.replaceAll('-', '').slice(0, 30).toUpperCase()}`;
    const executionDate = processingDay(now);
    const content =
      kind === 'sepa'
        ? buildSepaCreditTransferFile({
            messageId,
            createdAt: now,
            executionDate,
            debtor: deps.debtor!,
            transfers: payouts.map((payout) => ({
              endToEndId: payout.id.replaceAll('-', ''),
              amountCents: payout.amountCents,
              creditorName: payout.destHolder,
              creditorIban: payout.destIban!,
              creditorBic: payout.destBic!,
              creditorAddress: payout.destAddress,
              remittance: `Tipcard payout ${payout.id.slice(0, 8).toUpperCase()}`,
              instant: payout.instant,
            })),
          })
        : buildUkBulkCsv(
            payouts.map((payout) => ({
              sortCode: payout.destSortCode!,
              accountNumber: payout.destAccountNumber!,
              name: payout.destHolder,
              amountCents: payout.amountCents,
              reference: `TIPCARD ${payout.id.slice(0, 8).toUpperCase()}`,
            })),
          );
    const row = await repo.insertBatch(tx, {
      id,
      kind,
      messageId,
      fileName: `tipcard-${kind}-${executionDate}-${messageId.slice(2, 10).toLowerCase()}.${kind === 'sepa' ? 'xml' : 'csv'}`,
      content,
      payoutCount: payouts.length,
      totalCents: payouts.reduce((sum, payout) => sum + payout.amountCents, 0),
      createdAt: now,
    });
    await repo.assignBatch(
      tx,
      payouts.map((payout) => payout.id),
      id,
      now,
    );
    await deps.fault?.('batch:in-transaction');
    return row;
  });
  await deps.fault?.('batch:committed');
  if (batch) deps.log.info({ batch: batch.id, kind, payouts: batch.payoutCount }, 'payout batch file created');
  return batch;
}

/** The payout module's background work for the runner (DESIGN "Jobs and messages"). */
export function payoutJobs(deps: PayoutJobDeps): Job[] {
  const steps = createPayoutSteps(deps);
  return [
    { name: 'payouts.expire', runOne: async (now) => (await steps.expire(now)) > 0 },
    { name: 'payouts.submit', runOne: (now) => steps.submitOne(now) },
    { name: 'payouts.settle', runOne: async (now) => (await steps.settleOne(now)) !== undefined },
    { name: 'payouts.batch-sepa', runOne: async (now) => (await steps.batchOne('sepa', now)) !== undefined },
    { name: 'payouts.batch-uk', runOne: async (now) => (await steps.batchOne('uk', now)) !== undefined },
  ];
}
