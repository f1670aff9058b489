import { createHash, randomUUID } from 'node:crypto';
import type { Locale } from '@tipcard/shared/constants';
import { decimalAmount, formatMoney } from '@tipcard/shared/money/format';
import {
  closingPayoutSplit,
  PAYOUT_FEE_CENTS,
  PAYOUT_MIN_CENTS,
  type createClosingPayoutBody,
  type createPayoutBody,
  type Payout,
  type PayoutTerms,
} from '@tipcard/shared/payouts/schemas';
import { returnReasonCode } from '@tipcard/shared/payouts/return-reasons';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { csvOf } from '../../lib/csv.ts';
import type { Clock } from '../../lib/clock.ts';
import { t } from '../../lib/i18n.ts';
import { hashCode, hashesMatch, newNumericCode } from '../../lib/one-time-code.ts';
import { lockBalances, postEntry, userBalances, type AccountRef, type UserAccountRef } from '../ledger/ledger.service.ts';
import type { MessagingService } from '../messaging/messaging.service.ts';
import { announcePayoutRequested, recordPayoutHold } from '../transactions/transactions.service.ts';
import { findUserById, requireOwnClient } from '../users/users.service.ts';
import { isVerificationRequired } from '../verification/verification.service.ts';
import { expectedArrival, rigaDayAndHour } from './business-days.ts';
import { isInstantReachable } from './instant-reachability.ts';
import { maskedDestination, payoutRef } from './payout-texts.ts';
import * as repo from './payouts.repository.ts';
import { applyPayoutOutcome } from './payouts.jobs.ts';

export { latestCutoff } from './business-days.ts';
export { payoutRef } from './payout-texts.ts';
export { createSandboxRail, SANDBOX_FAILING_IBAN } from './payout-rail.ts';
export { applyPayoutOutcome, createBatch } from './payouts.jobs.ts';
export type { PayoutRow } from './payouts.repository.ts';
export { inFlightFigures as payoutsInFlight } from './payouts.repository.ts';
export type { SepaDebtor } from './sepa-file.ts';
export { parseBankReport, pain001Blocks, type BankReport } from './bank-report.ts';

type CreatePayout = z.output<typeof createPayoutBody>;
type CreateClosingPayout = z.output<typeof createClosingPayoutBody>;

/** The payout code (issue 4): 6 digits, 10 minutes, 5 wrong tries, a new one after 60 s, at most 5 per payout. */
export const PAYOUT_CODE_LENGTH = 6;
export const PAYOUT_CODE_TTL_MS = 10 * 60_000;
export const PAYOUT_CODE_MAX_ATTEMPTS = 5;
export const PAYOUT_CODE_RESEND_WAIT_MS = 60_000;
export const PAYOUT_CODE_MAX_SENDS = 5;
const HISTORY_LIMIT = 100;

/** Which rail takes confirmed payouts: the sandbox bank, or bank files an operator uploads (docs/decisions/0007). */
export type PayoutRailMode = 'sandbox' | 'files';

export interface PayoutsDeps {
  db: Database;
  clock: Clock;
  messages: Pick<MessagingService, 'enqueueSms'>;
  /** Server secret mixed into code hashes. */
  pepper: string;
  verificationLimitCents: number;
  /** Withdrawal requests (each one texts a code) a user may make per hour: SMS pumping stops here. */
  requestsPerHour: number;
  railMode: PayoutRailMode;
}

/** What the code is bound to: the payout, its amount and its destination (the hash input includes them). */
const bindingOf = (payout: Pick<repo.PayoutRow, 'id' | 'amountCents' | 'destIban' | 'destSortCode' | 'destAccountNumber'>) => [
  'payout',
  payout.id,
  payout.amountCents,
  payout.destIban ?? `${payout.destSortCode}${payout.destAccountNumber}`,
];

/** When the money is on the account: an instant payout the same (Riga) day, any hour; otherwise the next business day. */
const arrivalOf = (instant: boolean, at: Date) => (instant ? rigaDayAndHour(at).day : expectedArrival(at));

/** The wire form; an unconfirmed payout whose code died reads as expired even before the worker marks it. */
export function toPayout(row: repo.PayoutRow, now: Date): Payout {
  const awaiting = row.status === 'awaiting_confirmation' && row.codeExpiresAt > now;
  return {
    id: row.id,
    status: row.status === 'awaiting_confirmation' && !awaiting ? 'expired' : row.status,
    amount_cents: row.amountCents,
    fee_cents: row.feeCents,
    currency: 'EUR',
    instant: row.instant,
    method: { kind: row.destKind, holder: row.destHolder, masked_account: maskedDestination(row) },
    expected_arrival: row.expectedArrival,
    created_at: row.createdAt.toISOString(),
    confirmed_at: row.confirmedAt?.toISOString() ?? null,
    paid_at: row.paidAt?.toISOString() ?? null,
    return_reason: row.status === 'returned' ? returnReasonCode(row.returnReason) : null,
    code_expires_at: awaiting ? row.codeExpiresAt.toISOString() : null,
    resend_after_seconds: awaiting
      ? Math.max(0, Math.ceil((row.codeSentAt.getTime() + PAYOUT_CODE_RESEND_WAIT_MS - now.getTime()) / 1000))
      : null,
  };
}

/** Whether a withdrawal of the user is still under way (in flight, or waiting for a valid code): account deletion waits for it. */
export async function hasOpenPayouts(db: Executor, userId: string, now: Date): Promise<boolean> {
  return (await repo.countOpenPayoutsOfUser(db, userId, now)) > 0;
}

const PAYOUT_CSV_COLUMNS = [
  'id',
  'status',
  'amount',
  'fee',
  'currency',
  'account',
  'holder',
  'created_at',
  'confirmed_at',
  'paid_at',
  'expected_arrival',
] as const;
/** The data export's bound: far above any real history, so the file stays finite. */
const PAYOUT_EXPORT_MAX = 100_000;

/** Every withdrawal of the user as CSV (the data export's `payouts.csv`), newest first. */
export async function exportPayoutsCsv(db: Executor, userId: string, now: Date): Promise<string> {
  const rows = await repo.listPayouts(db, userId, PAYOUT_EXPORT_MAX);
  return csvOf(
    PAYOUT_CSV_COLUMNS,
    rows.map((row) => {
      const p = toPayout(row, now);
      return [
        p.id,
        p.status,
        decimalAmount(p.amount_cents),
        decimalAmount(p.fee_cents),
        p.currency,
        p.method.masked_account,
        p.method.holder,
        p.created_at,
        p.confirmed_at,
        p.paid_at,
        p.expected_arrival,
      ];
    }),
  );
}

/** Main pays the amount into payouts_in_flight and the fee into fees; the payout goes in flight with its PAYOUT row on HOLD. */
async function sendOnItsWay(tx: Executor, locked: repo.PayoutRow, now: Date, railMode: PayoutRailMode): Promise<repo.PayoutRow> {
  const main: UserAccountRef = { userId: locked.userId, kind: 'main' };
  await postEntry(tx, {
    kind: 'payout_confirmed',
    reference: `payout:${locked.id}:confirmed`,
    postings: [
      { account: main, amountCents: -(locked.amountCents + locked.feeCents) },
      { account: { platform: 'payouts_in_flight' }, amountCents: locked.amountCents },
      ...(locked.feeCents > 0 ? [{ account: { platform: 'fees' } as AccountRef, amountCents: locked.feeCents }] : []),
    ],
  });
  await recordPayoutHold(
    tx,
    {
      payoutId: locked.id,
      userId: locked.userId,
      amountCents: locked.amountCents,
      feeCents: locked.feeCents,
      account: maskedDestination(locked),
    },
    now,
  );
  return repo.updatePayout(tx, locked.id, {
    status: 'in_flight',
    confirmedAt: now,
    expectedArrival: arrivalOf(locked.instant, now),
    rail: railMode === 'sandbox' ? 'sandbox' : locked.destKind === 'sepa' ? 'sepa_file' : 'uk_file',
    railState: 'pending',
    railDueAt: now,
  });
}

/**
 * An automatic payout (docs/decisions/0044), in the schedule run's transaction, which has locked the user's balances
 * and checked them: the same row and ledger path as a confirmed withdrawal, without a code (the schedule's was
 * entered when it was set). Its Idempotency-Key is the period, so a period can never hold two of them.
 */
export async function startScheduledPayout(
  tx: Executor,
  run: { userId: string; method: repo.PayoutMethodRow; period: string; amountCents: number; locale: Locale },
  now: Date,
  railMode: PayoutRailMode,
): Promise<repo.PayoutRow | undefined> {
  const { method } = run;
  const row = await repo.insertPayoutOnce(tx, {
    userId: run.userId,
    methodId: method.id,
    idempotencyKey: `schedule:${run.period}`,
    requestHash: 'schedule',
    amountCents: run.amountCents,
    feeCents: PAYOUT_FEE_CENTS,
    status: 'awaiting_confirmation',
    destKind: method.kind,
    destHolder: method.holder,
    destAddress: method.address,
    destIban: method.iban,
    destBic: method.bic,
    destAccountNumber: method.accountNumber,
    destSortCode: method.sortCode,
    // No code was texted for it: an empty hash matches none.
    codeHash: '',
    codeSentAt: now,
    codeExpiresAt: now,
    expectedArrival: expectedArrival(now),
    locale: run.locale,
    createdAt: now,
  });
  return row && sendOnItsWay(tx, row, now, railMode);
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;

export function createPayoutsService(deps: PayoutsDeps) {
  const { db, clock, messages } = deps;
  const hashOf = (payout: Parameters<typeof bindingOf>[0], code: string) => hashCode(deps.pepper, bindingOf(payout), code);

  async function ownPayout(userId: string, payoutId: string) {
    const payout = await repo.findPayout(db, payoutId);
    if (!payout || payout.userId !== userId) throw new AppError('not_found');
    return payout;
  }

  /** Queued in the transaction that stores the code's hash: the code and its text commit together or not at all. */
  async function textCode(tx: Executor, payout: repo.PayoutRow, code: string, locale: Locale) {
    const user = await findUserById(tx, payout.userId);
    if (!user) return;
    const body = t(
      'sms.payout_code',
      { ref: payoutRef(payout.id), amount: formatMoney(payout.amountCents, locale), account: maskedDestination(payout), code },
      locale,
    );
    await messages.enqueueSms(tx, { to: user.phone, body });
  }

  /** Main must cover the amount and the fee, and no chargeback debt may be open (DESIGN "Money and the ledger"). */
  const covers = (balances: { main: number; debt: number }, amountCents: number) =>
    balances.debt >= 0 && balances.main >= amountCents + PAYOUT_FEE_CENTS;

  /**
   * Stores a payout waiting for its code and texts the code. `price` reads the balances (a quick answer; the
   * confirmation checks again under lock) and says the amount and fee, or refuses.
   */
  async function request(
    userId: string,
    ask: { requestHash: string; idempotencyKey: string; locale: Locale; methodId: string; closing: boolean; instant: boolean },
    price: (balances: Record<'main' | 'hold' | 'debt', number>) => { amountCents: number; feeCents: number },
  ): Promise<Payout> {
    const { requestHash, idempotencyKey, locale } = ask;
    const replay = async () => {
      const existing = await repo.findPayoutByKey(db, userId, idempotencyKey);
      if (!existing) return undefined;
      if (existing.requestHash !== requestHash) throw new AppError('idempotency_key_reused');
      return toPayout(existing, clock.now());
    };
    const replayed = await replay();
    if (replayed) return replayed;

    const method = await repo.findLiveMethod(db, ask.methodId);
    if (!method || method.userId !== userId) throw AppError.field('validation_failed', 'method_id', t('validation.valid'));
    if (ask.instant && !isInstantReachable(method)) throw AppError.field('instant_unreachable', 'instant');
    const { amountCents, feeCents } = price(await userBalances(db, userId));

    const now = clock.now();
    const id = randomUUID();
    const code = newNumericCode(PAYOUT_CODE_LENGTH);
    const destination = {
      destKind: method.kind,
      destHolder: method.holder,
      destAddress: method.address,
      destIban: method.iban,
      destBic: method.bic,
      destAccountNumber: method.accountNumber,
      destSortCode: method.sortCode,
    };
    const inserted = await db.transaction(async (tx) => {
      // The cap is counted and the payout inserted under one lock per user, so concurrent requests cannot all pass.
      await repo.lockPayoutRequests(tx, userId);
      // A twin with the same key went first: answer its payout (below) rather than count against the cap.
      if (await repo.findPayoutByKey(tx, userId, idempotencyKey)) return undefined;
      if ((await repo.countPayoutRequestsSince(tx, userId, new Date(now.getTime() - 3_600_000))) >= deps.requestsPerHour) {
        throw new AppError('too_many_requests');
      }
      const row = await repo.insertPayoutOnce(tx, {
        id,
        userId,
        methodId: method.id,
        idempotencyKey,
        requestHash,
        amountCents,
        feeCents,
        closing: ask.closing,
        instant: ask.instant,
        status: 'awaiting_confirmation',
        ...destination,
        codeHash: hashOf({ id, amountCents, ...destination }, code),
        codeSentAt: now,
        codeExpiresAt: new Date(now.getTime() + PAYOUT_CODE_TTL_MS),
        expectedArrival: arrivalOf(ask.instant, now),
        locale,
        createdAt: now,
      });
      if (row) {
        await textCode(tx, row, code, locale);
        await announcePayoutRequested(tx, { userId, payoutId: row.id, amountCents: row.amountCents }, now);
      }
      return row;
    });
    // A concurrent twin with the same key won the insert: answer its payout.
    if (!inserted) return (await replay())!;
    return toPayout(inserted, now);
  }

  /**
   * The code against the payout as read: answers the payout itself when a confirmation with this code already won
   * (double tap, concurrent twin, retried request); a wrong try is counted in its own statement, so it is never
   * rolled back, and the fifth kills the code.
   */
  async function checkCode(payout: repo.PayoutRow, code: string): Promise<repo.PayoutRow> {
    const matches = hashesMatch(payout.codeHash, hashOf(payout, code));
    if (payout.status !== 'awaiting_confirmation') {
      if (matches && payout.status !== 'expired') return payout;
      throw new AppError('wrong_code');
    }
    if (payout.codeExpiresAt <= clock.now()) throw new AppError('wrong_code');
    if (payout.codeAttempts >= PAYOUT_CODE_MAX_ATTEMPTS) throw new AppError('too_many_attempts');
    if (!matches) {
      const attempts = await repo.addCodeAttempt(db, payout.id);
      throw new AppError(attempts >= PAYOUT_CODE_MAX_ATTEMPTS ? 'too_many_attempts' : 'wrong_code');
    }
    return payout;
  }

  /** The payout under lock; a resend between the check and the lock replaced the code, or attempts ran out meanwhile. */
  async function lockForConfirmation(tx: Executor, checked: repo.PayoutRow, now: Date): Promise<repo.PayoutRow> {
    const locked = (await repo.findPayoutForUpdate(tx, checked.id))!;
    if (locked.status !== 'awaiting_confirmation') return locked;
    if (locked.codeHash !== checked.codeHash || locked.codeExpiresAt <= now || locked.codeAttempts >= PAYOUT_CODE_MAX_ATTEMPTS) {
      throw new AppError('wrong_code');
    }
    return locked;
  }

  return {
    async terms(userId: string, clientId: string): Promise<PayoutTerms> {
      const client = await requireOwnClient(db, userId, clientId);
      const balances = await userBalances(db, client.userId);
      const max = balances.debt < 0 ? 0 : balances.main - PAYOUT_FEE_CENTS;
      return {
        min_amount_cents: PAYOUT_MIN_CENTS,
        fee_cents: PAYOUT_FEE_CENTS,
        main_balance_cents: balances.main,
        max_amount_cents: max >= PAYOUT_MIN_CENTS ? max : 0,
        expected_arrival: expectedArrival(clock.now()),
        currency: 'EUR',
      };
    },

    async list(userId: string, clientId: string): Promise<Payout[]> {
      const client = await requireOwnClient(db, userId, clientId);
      const now = clock.now();
      return (await repo.listPayouts(db, client.userId, HISTORY_LIMIT)).map((row) => toPayout(row, now));
    },

    async get(userId: string, payoutId: string): Promise<Payout> {
      return toPayout(await ownPayout(userId, payoutId), clock.now());
    },

    /**
     * A withdrawal request: nothing moves yet, the user gets a code bound to this payout, amount and destination.
     * The balance is checked here for a quick answer and again, under lock, by the confirmation. The same
     * Idempotency-Key and body answer the first payout again (no second SMS); another body is refused.
     */
    async create(userId: string, clientId: string, body: CreatePayout, idempotencyKey: string, locale: Locale): Promise<Payout> {
      const client = await requireOwnClient(db, userId, clientId);
      if (await isVerificationRequired(db, client.userId, deps.verificationLimitCents))
        throw new AppError('verification_required');
      if (body.amount_cents < PAYOUT_MIN_CENTS) throw AppError.field('payout_minimum', 'amount_cents');
      const requestHash = createHash('sha256')
        .update(JSON.stringify([clientId, body.amount_cents, body.method_id, body.instant]))
        .digest('hex');
      return request(
        client.userId,
        { requestHash, idempotencyKey, locale, methodId: body.method_id, closing: false, instant: body.instant },
        (balances) => {
          if (!covers(balances, body.amount_cents)) throw AppError.field('insufficient_balance', 'amount_cents');
          return { amountCents: body.amount_cents, feeCents: PAYOUT_FEE_CENTS };
        },
      );
    },

    /**
     * A closing payout (docs/decisions/0025): the whole main balance, whatever its size, with `closingPayoutSplit`'s
     * fee. Nothing moves here either: its code is given to the deletion statement, which confirms it and deletes the
     * account in one transaction. Money on hold or a debt would stop that deletion, so no code is sent for it.
     */
    async createClosing(
      userId: string,
      clientId: string,
      body: CreateClosingPayout,
      idempotencyKey: string,
      locale: Locale,
    ): Promise<Payout> {
      const client = await requireOwnClient(db, userId, clientId);
      if (await isVerificationRequired(db, client.userId, deps.verificationLimitCents))
        throw new AppError('verification_required');
      const requestHash = createHash('sha256')
        .update(JSON.stringify([clientId, 'closing', body.method_id]))
        .digest('hex');
      return request(
        client.userId,
        { requestHash, idempotencyKey, locale, methodId: body.method_id, closing: true, instant: false },
        (balances) => {
          if (balances.debt !== 0) throw new AppError('deletion_debt');
          if (balances.hold !== 0) throw new AppError('deletion_balance_on_hold');
          if (balances.main <= 0) throw new AppError('insufficient_balance');
          return closingPayoutSplit(balances.main);
        },
      );
    },

    /** A new code for an unconfirmed payout, after the 60-second wait ('Wait N seconds' with Retry-After). */
    async resend(userId: string, payoutId: string, locale: Locale): Promise<Payout> {
      await ownPayout(userId, payoutId);
      const now = clock.now();
      const code = newNumericCode(PAYOUT_CODE_LENGTH);
      const updated = await db.transaction(async (tx) => {
        const payout = (await repo.findPayoutForUpdate(tx, payoutId))!;
        if (payout.status !== 'awaiting_confirmation' || payout.codeExpiresAt <= now) throw new AppError('payout_not_awaiting');
        const waitSeconds = Math.ceil((payout.codeSentAt.getTime() + PAYOUT_CODE_RESEND_WAIT_MS - now.getTime()) / 1000);
        if (waitSeconds > 0) {
          throw new AppError('resend_wait', {
            message: `Wait ${waitSeconds} seconds`,
            headers: { 'retry-after': String(waitSeconds) },
          });
        }
        if (payout.codeSends >= PAYOUT_CODE_MAX_SENDS) throw new AppError('confirmation_limit');
        const row = await repo.updatePayout(tx, payoutId, {
          codeHash: hashOf(payout, code),
          codeAttempts: 0,
          codeSends: payout.codeSends + 1,
          codeSentAt: now,
          codeExpiresAt: new Date(now.getTime() + PAYOUT_CODE_TTL_MS),
        });
        await textCode(tx, row, code, locale);
        return row;
      });
      return toPayout(updated, now);
    },

    /**
     * The confirmation, in one transaction: the code is used up, main pays the amount into payouts_in_flight and
     * the fee into fees (one entry, `payout:{id}:confirmed`), the payout goes in flight and the PAYOUT row appears
     * on HOLD. A balance that no longer covers it rolls everything back: the payout stays unconfirmed. A repeat
     * of a confirmation that already won (double tap, concurrent twin, retried request) answers the same payout.
     * A closing payout is confirmed only by the deletion statement (`confirmClosing`).
     */
    async confirm(userId: string, payoutId: string, code: string): Promise<Payout> {
      const payout = await ownPayout(userId, payoutId);
      if (payout.closing) throw new AppError('payout_not_awaiting');
      const checked = await checkCode(payout, code);
      if (checked.status !== 'awaiting_confirmation') return toPayout(checked, clock.now());

      const now = clock.now();
      const confirmed = await db.transaction(async (tx) => {
        const locked = await lockForConfirmation(tx, checked, now);
        if (locked.status !== 'awaiting_confirmation') return locked;
        const main: UserAccountRef = { userId: locked.userId, kind: 'main' };
        const debt: UserAccountRef = { userId: locked.userId, kind: 'debt' };
        // The user's accounts are locked first, so the debt check and the posting see one state.
        const balanceOf = await lockBalances(tx, [main, debt]);
        if (!covers({ main: balanceOf(main), debt: balanceOf(debt) }, locked.amountCents))
          throw AppError.field('insufficient_balance', 'amount_cents');
        return sendOnItsWay(tx, locked, now, deps.railMode);
      });
      return toPayout(confirmed, clock.now());
    },

    /**
     * The closing payout's code, checked before the deletion's transaction: a wrong try is counted in its own
     * statement (so the deletion's rollback never undoes it). Returns what `confirmClosing` is then given; a payout
     * this code already confirmed is returned too, so a repeated statement can answer the deletion it made.
     */
    async checkClosingCode(userId: string, payoutId: string, code: string): Promise<repo.PayoutRow> {
      const payout = await ownPayout(userId, payoutId);
      if (!payout.closing) throw new AppError('not_found');
      return checkCode(payout, code);
    },

    /**
     * Inside the deletion's transaction (the caller holds the user's lock): the closing payout goes on its way,
     * exactly like a confirmation, provided it still takes the whole balance. A tip or a withdrawal that changed
     * main meanwhile refuses it (409): the user asks for a new closing payout of the new balance.
     */
    async confirmClosing(tx: Executor, checked: repo.PayoutRow, now: Date): Promise<void> {
      const locked = await lockForConfirmation(tx, checked, now);
      if (locked.status !== 'awaiting_confirmation') throw new AppError('payout_not_awaiting');
      const main: UserAccountRef = { userId: locked.userId, kind: 'main' };
      const debt: UserAccountRef = { userId: locked.userId, kind: 'debt' };
      const balanceOf = await lockBalances(tx, [main, debt]);
      if (balanceOf(debt) !== 0 || balanceOf(main) !== locked.amountCents + locked.feeCents)
        throw new AppError('closing_balance_changed');
      await sendOnItsWay(tx, locked, now, deps.railMode);
    },
  };
}

/**
 * The five-year purge of an erased account: the bank details its withdrawals and payout accounts named are blanked.
 * The payouts themselves stay (amounts, dates, states): the platform's books and the bank files refer to them.
 */
export async function purgeBankDetailsOfUser(tx: Executor, userId: string): Promise<void> {
  await repo.blankBankDetailsOfUser(tx, userId);
}

/*
 * The operator's side of the file rail (the back office, and `npm run payouts:export` / `npm run payouts:mark`):
 * stored files written out again, a batch marked sent, payouts marked paid or returned.
 */

export const listBatches = repo.listBatches;
export const findBatch = repo.findBatch;

/** Marks a batch as uploaded to the bank; false when it was already marked. */
export async function markBatchSent(db: Executor, batchId: string, now: Date): Promise<boolean> {
  return repo.markBatchSent(db, batchId, now);
}

/** The bank's answer for one payout; false when it is not in flight (already settled: nothing changes). */
export async function markPayout(
  db: Database,
  payoutId: string,
  outcome: 'paid' | 'returned',
  now: Date,
  reason = 'Returned by the bank',
): Promise<boolean> {
  return db.transaction((tx) =>
    applyPayoutOutcome(tx, payoutId, outcome === 'paid' ? { state: 'paid' } : { state: 'returned', reason }, now),
  );
}

/** Marks every payout of a batch that is still in flight; answers how many changed. */
export async function markBatchPayouts(
  db: Database,
  batchId: string,
  outcome: 'paid' | 'returned',
  now: Date,
  reason?: string,
): Promise<number> {
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
export const findPayoutMethodsByAccountEnd = repo.findPayoutMethodsByAccountEnd;
export const countBatchesToClose = repo.countBatchesToClose;
