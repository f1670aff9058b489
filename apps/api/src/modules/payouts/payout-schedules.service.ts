import type { Locale } from '@tipcard/shared/constants';
import { PAYOUT_FEE_CENTS, PAYOUT_MIN_CENTS } from '@tipcard/shared/payouts/schemas';
import type { confirmPayoutScheduleBody, PayoutScheduleState, payoutScheduleBody } from '@tipcard/shared/payouts/schedules';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { t } from '../../lib/i18n.ts';
import { hashCode, hashesMatch, newNumericCode } from '../../lib/one-time-code.ts';
import { lockBalances, type UserAccountRef } from '../ledger/ledger.service.ts';
import { enqueueSmsAt, type MessagingService } from '../messaging/messaging.service.ts';
import { findUserById, requireOwnClient } from '../users/users.service.ts';
import { isVerificationRequired } from '../verification/verification.service.ts';
import { addDays, rigaTime } from './business-days.ts';
import { maskedAccountOf } from './payout-methods.service.ts';
import { nextRunAt, periodOf, type ScheduleRule } from './payout-schedule-dates.ts';
import * as repo from './payout-schedules.repository.ts';
import * as payoutsRepo from './payouts.repository.ts';
import {
  PAYOUT_CODE_LENGTH,
  PAYOUT_CODE_MAX_ATTEMPTS,
  PAYOUT_CODE_TTL_MS,
  startScheduledPayout,
  type PayoutRailMode,
} from './payouts.service.ts';

type ScheduleBody = z.output<typeof payoutScheduleBody>;
type ConfirmBody = z.output<typeof confirmPayoutScheduleBody>;

/** Changes (each texts a code) a user may ask for per hour: SMS pumping stops here. */
export const SCHEDULE_CHANGES_PER_HOUR = 5;

export interface PayoutSchedulesDeps {
  db: Database;
  clock: Clock;
  messages: Pick<MessagingService, 'enqueueSms'>;
  /** Server secret mixed into code hashes (the payouts' own). */
  pepper: string;
  verificationLimitCents: number;
  railMode: PayoutRailMode;
}

type RuleColumns = Pick<repo.PayoutScheduleRow, 'kind' | 'weekday' | 'monthDay' | 'thresholdCents'>;

export const ruleOf = (row: RuleColumns): ScheduleRule =>
  row.kind === 'weekly'
    ? { kind: 'weekly', weekday: row.weekday! }
    : row.kind === 'monthly'
      ? { kind: 'monthly', monthDay: row.monthDay! }
      : { kind: 'threshold', thresholdCents: row.thresholdCents! };

const columnsOf = (body: ScheduleBody): RuleColumns & { methodId: string } => ({
  kind: body.kind,
  weekday: body.kind === 'weekly' ? body.weekday : null,
  monthDay: body.kind === 'monthly' ? body.month_day : null,
  thresholdCents: body.kind === 'threshold' ? body.threshold_cents : null,
  methodId: body.method_id,
});

/** What the code is bound to: the change, its rule and the account it pays to (the hash input includes them). */
const bindingOf = (
  change: Pick<repo.PayoutScheduleChangeRow, 'id' | 'kind' | 'weekday' | 'monthDay' | 'thresholdCents' | 'methodId'>,
) => [
  'payout-schedule',
  change.id,
  change.kind,
  change.weekday ?? '',
  change.monthDay ?? '',
  change.thresholdCents ?? '',
  change.methodId,
];

/** What one run of a due schedule did (the job's tests count these). */
export type ScheduleRunResult = 'paid' | 'skipped' | 'paused' | 'stopped' | 'waiting' | 'done_already';

export type PayoutSchedulesService = ReturnType<typeof createPayoutSchedulesService>;

export function createPayoutSchedulesService(deps: PayoutSchedulesDeps) {
  const { db, clock } = deps;

  async function methodView(methodId: string) {
    const method = await payoutsRepo.findMethod(db, methodId);
    return {
      id: methodId,
      kind: method!.kind,
      masked_account: maskedAccountOf(method!),
      holder: method!.holder,
    };
  }

  const ruleView = (row: RuleColumns) => ({
    kind: row.kind,
    weekday: row.weekday,
    month_day: row.monthDay,
    threshold_cents: row.thresholdCents,
  });

  async function stateOf(userId: string): Promise<PayoutScheduleState> {
    const now = clock.now();
    const [schedule, pending, last] = await Promise.all([
      repo.findSchedule(db, userId),
      repo.findPendingChange(db, userId, now, PAYOUT_CODE_MAX_ATTEMPTS),
      repo.findLastRun(db, userId),
    ]);
    return {
      schedule: schedule
        ? {
            ...ruleView(schedule),
            method: await methodView(schedule.methodId),
            status: schedule.status,
            next_run_at: schedule.status === 'active' ? (schedule.nextRunAt?.toISOString() ?? null) : null,
            paused_for: schedule.pausedFor,
          }
        : null,
      pending_change: pending
        ? {
            id: pending.id,
            ...ruleView(pending),
            method: await methodView(pending.methodId),
            code_expires_at: pending.codeExpiresAt.toISOString(),
          }
        : null,
      last_run: last
        ? {
            period: last.period,
            outcome: last.outcome,
            reason: last.reason,
            amount_cents: last.amountCents,
            payout_id: last.payoutId,
            ran_at: last.createdAt.toISOString(),
          }
        : null,
    };
  }

  /** Told once per pause, in the user's language now, through the outbox in the run's transaction. */
  async function noticePause(
    tx: Executor,
    phone: string,
    language: Locale,
    reason: 'verification_required' | 'blocked',
    now: Date,
  ) {
    await enqueueSmsAt(tx, { to: phone, body: t(`sms.payout_schedule_paused_${reason}`, {}, language) }, now);
  }

  /**
   * One due schedule, in one transaction holding its row: the period's run is recorded under the unique (user,
   * period) key and, when it pays, the payout goes on its way like a confirmed withdrawal. Two workers never hold
   * the same schedule (SKIP LOCKED), and a run that died rolled back whole, so a retry finds the period open.
   */
  async function runDue(now: Date): Promise<ScheduleRunResult | undefined> {
    return db.transaction(async (tx): Promise<ScheduleRunResult | undefined> => {
      const schedule = await repo.claimDueSchedule(tx, now);
      if (!schedule) return undefined;
      const { userId } = schedule;
      const rule = ruleOf(schedule);
      // A dated schedule's period is the day it was due (a run late after an outage still pays that period once);
      // a threshold schedule's is the day the balance passed.
      const period = periodOf(rule.kind === 'threshold' ? now : schedule.nextRunAt!);
      const next = nextRunAt(rule, now);
      const user = await findUserById(tx, userId);
      const record = (values: Omit<Parameters<typeof repo.insertRunOnce>[1], 'userId' | 'period' | 'createdAt'>) =>
        repo.insertRunOnce(tx, { userId, period, createdAt: now, ...values });

      const method = await payoutsRepo.findLiveMethod(tx, schedule.methodId);
      if (!user || user.deletedAt || user.erasedAt || !method) {
        await repo.updateSchedule(tx, userId, { status: 'stopped', nextRunAt: null });
        if (method === undefined && user) await record({ outcome: 'stopped', reason: 'method_removed' });
        return 'stopped';
      }

      const pausedFor = user.blockedAt
        ? 'blocked'
        : (await isVerificationRequired(tx, userId, deps.verificationLimitCents))
          ? 'verification_required'
          : null;
      if (pausedFor) {
        await record({ outcome: 'paused', reason: pausedFor });
        const notify = schedule.pausedFor !== pausedFor || !schedule.pauseNotifiedAt;
        if (notify) await noticePause(tx, user.phone, user.language, pausedFor, now);
        await repo.updateSchedule(tx, userId, {
          nextRunAt: next,
          pausedFor,
          pauseNotifiedAt: notify ? now : schedule.pauseNotifiedAt,
        });
        return 'paused';
      }

      const main: UserAccountRef = { userId, kind: 'main' };
      const debt: UserAccountRef = { userId, kind: 'debt' };
      const balanceOf = await lockBalances(tx, [main, debt]);
      const running = { nextRunAt: next, pausedFor: null, pauseNotifiedAt: null };
      if (rule.kind === 'threshold' && balanceOf(main) < rule.thresholdCents) {
        await repo.updateSchedule(tx, userId, running);
        return 'waiting';
      }
      const amountCents = balanceOf(main) - PAYOUT_FEE_CENTS;
      const skippedFor = balanceOf(debt) < 0 ? 'debt' : amountCents < PAYOUT_MIN_CENTS ? 'below_minimum' : null;
      const run = await record(
        skippedFor ? { outcome: 'skipped', reason: skippedFor } : { outcome: 'paid', reason: null, amountCents },
      );
      // A threshold schedule that paid (or found its day done) looks again the next Riga day.
      const tomorrow = rigaTime(addDays(period, 1), 0)!;
      await repo.updateSchedule(tx, userId, {
        ...running,
        nextRunAt: rule.kind === 'threshold' && (!run || !skippedFor) ? tomorrow : next,
      });
      if (!run) return 'done_already';
      if (skippedFor) return 'skipped';
      const payout = await startScheduledPayout(
        tx,
        { userId, method, period, amountCents, locale: user.language },
        now,
        deps.railMode,
      );
      // The payouts' own key (user, `schedule:<period>`) agrees with the run's: both are new, or neither is.
      if (!payout) throw new Error(`schedule run ${period} of ${userId}: a payout of this period exists without its run`);
      await repo.setRunPayout(tx, run.id, payout.id);
      return 'paid';
    });
  }

  return {
    runDue,

    async get(userId: string, clientId: string): Promise<PayoutScheduleState> {
      const client = await requireOwnClient(db, userId, clientId);
      return stateOf(client.userId);
    },

    /** A new or changed schedule waits for the code texted here; the one in force (if any) runs until then. */
    async set(userId: string, clientId: string, body: ScheduleBody, locale: Locale): Promise<PayoutScheduleState> {
      const client = await requireOwnClient(db, userId, clientId);
      const method = await payoutsRepo.findLiveMethod(db, body.method_id);
      if (!method || method.userId !== client.userId)
        throw AppError.field('validation_failed', 'method_id', t('validation.valid'));
      const user = (await findUserById(db, client.userId))!;
      const now = clock.now();
      const code = newNumericCode(PAYOUT_CODE_LENGTH);
      await db.transaction(async (tx) => {
        // The cap is counted and the change inserted under the user's payout-request lock: concurrent asks cannot all pass.
        await payoutsRepo.lockPayoutRequests(tx, client.userId);
        if ((await repo.countChangesSince(tx, client.userId, new Date(now.getTime() - 3_600_000))) >= SCHEDULE_CHANGES_PER_HOUR)
          throw new AppError('too_many_requests');
        const id = crypto.randomUUID();
        const columns = columnsOf(body);
        await repo.insertChange(tx, {
          id,
          userId: client.userId,
          ...columns,
          codeHash: hashCode(deps.pepper, bindingOf({ id, ...columns }), code),
          codeSentAt: now,
          codeExpiresAt: new Date(now.getTime() + PAYOUT_CODE_TTL_MS),
          locale,
          createdAt: now,
        });
        await deps.messages.enqueueSms(tx, {
          to: user.phone,
          body: t('sms.payout_schedule_code', { account: maskedAccountOf(method), code }, locale),
        });
      });
      return stateOf(client.userId);
    },

    /**
     * The change's code: a wrong try is counted in its own statement (never rolled back) and the fifth kills the code;
     * the right one puts the change in force, its first run computed from now, any pause forgotten.
     */
    async confirm(userId: string, clientId: string, body: ConfirmBody): Promise<PayoutScheduleState> {
      const client = await requireOwnClient(db, userId, clientId);
      const change = await repo.findChange(db, body.change_id);
      if (!change || change.userId !== client.userId) throw new AppError('not_found');
      const now = clock.now();
      if (change.confirmedAt || change.codeExpiresAt <= now) throw new AppError('wrong_code');
      if (change.codeAttempts >= PAYOUT_CODE_MAX_ATTEMPTS) throw new AppError('too_many_attempts');
      if (!hashesMatch(change.codeHash, hashCode(deps.pepper, bindingOf(change), body.code))) {
        const attempts = await repo.addChangeAttempt(db, change.id);
        throw new AppError(attempts >= PAYOUT_CODE_MAX_ATTEMPTS ? 'too_many_attempts' : 'wrong_code');
      }
      await db.transaction(async (tx) => {
        const locked = (await repo.findChangeForUpdate(tx, change.id))!;
        // A twin confirmation won, or a cancellation killed the code, between the check and the lock.
        if (locked.confirmedAt || locked.codeExpiresAt <= now) throw new AppError('wrong_code');
        const method = await payoutsRepo.findLiveMethod(tx, locked.methodId);
        if (!method) throw AppError.field('validation_failed', 'method_id', t('validation.valid'));
        await repo.updateChange(tx, locked.id, { confirmedAt: now });
        await repo.upsertSchedule(tx, {
          userId: client.userId,
          kind: locked.kind,
          weekday: locked.weekday,
          monthDay: locked.monthDay,
          thresholdCents: locked.thresholdCents,
          methodId: locked.methodId,
          status: 'active',
          // A threshold schedule looks at the balance at once; a dated one waits for its day.
          nextRunAt: locked.kind === 'threshold' ? now : nextRunAt(ruleOf(locked), now),
          pausedFor: null,
          pauseNotifiedAt: null,
          locale: locked.locale,
          confirmedAt: now,
          createdAt: now,
        });
      });
      return stateOf(client.userId);
    },

    /** Cancelling needs no code (it moves no money); the codes of changes still waiting die with it. */
    async cancel(userId: string, clientId: string): Promise<PayoutScheduleState> {
      const client = await requireOwnClient(db, userId, clientId);
      await db.transaction(async (tx) => {
        await repo.deleteSchedule(tx, client.userId);
        await repo.expirePendingChanges(tx, client.userId, clock.now());
      });
      return stateOf(client.userId);
    },
  };
}
