import { randomUUID } from 'node:crypto';
import {
  OTP_DAILY_SEND_CAP,
  OTP_LENGTH,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_WAIT_SECONDS,
  OTP_TTL_SECONDS,
  type Locale,
} from '@tipcard/shared/constants';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { t } from '../../lib/i18n.ts';
import { hashCode, hashesMatch, newNumericCode } from '../../lib/one-time-code.ts';
import type { MessagingService } from '../messaging/messaging.service.ts';
import * as repo from './auth.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface OtpServiceDeps {
  db: Database;
  clock: Clock;
  messages: Pick<MessagingService, 'enqueueSms'>;
  /** Server secret mixed into code hashes, so a leaked table does not give the codes away. */
  pepper: string;
}

export type OtpService = ReturnType<typeof createOtpService>;

export function createOtpService({ db, clock, messages, pepper }: OtpServiceDeps) {
  const hash = (otpId: string, code: string) => hashCode(pepper, [otpId], code);

  return {
    /**
     * Checks the daily cap ('Confirmation limit') and the resend wait ('Wait N seconds'), then stores a new hashed
     * code, retiring older ones, and texts it. The checks and the insert hold one per-phone lock; the text is queued
     * in the same transaction, so a stored code is always a texted one.
     */
    async send(
      phone: string,
      purpose: repo.OtpPurpose,
      locale: Locale,
      registrationId?: string,
    ): Promise<{ resendAfterSeconds: number }> {
      const now = clock.now();
      const code = newNumericCode(OTP_LENGTH);
      await db.transaction(async (tx) => {
        await repo.lockPhone(tx, phone);
        if ((await repo.countOtpsSince(tx, phone, new Date(now.getTime() - DAY_MS))) >= OTP_DAILY_SEND_CAP) {
          throw new AppError('confirmation_limit');
        }
        const latest = await repo.findLatestOtp(tx, phone);
        if (latest) {
          const waitSeconds = Math.ceil((latest.createdAt.getTime() + OTP_RESEND_WAIT_SECONDS * 1000 - now.getTime()) / 1000);
          if (waitSeconds > 0) {
            throw new AppError('resend_wait', {
              message: `Wait ${waitSeconds} seconds`,
              headers: { 'retry-after': String(waitSeconds) },
            });
          }
        }
        await repo.retireLiveOtps(tx, phone, purpose, now);
        const id = randomUUID();
        await repo.insertOtp(tx, {
          id,
          phone,
          purpose,
          registrationId,
          codeHash: hash(id, code),
          createdAt: now,
          expiresAt: new Date(now.getTime() + OTP_TTL_SECONDS * 1000),
        });
        await messages.enqueueSms(tx, { to: phone, body: t('sms.otp', { code }, locale) });
      });
      return { resendAfterSeconds: OTP_RESEND_WAIT_SECONDS };
    },

    /**
     * Answers the id of the live code when `code` matches it. A wrong code is counted at once, outside any caller
     * transaction, so a failed attempt is never rolled back; the fifth wrong try kills the code.
     */
    async check(where: { phone: string; purpose: repo.OtpPurpose; registrationId?: string }, code: string): Promise<string> {
      const otp = await repo.findLiveOtp(db, where);
      if (!otp || otp.expiresAt <= clock.now()) throw new AppError('wrong_code');
      if (otp.attempts >= OTP_MAX_ATTEMPTS) throw new AppError('too_many_attempts');
      if (!hashesMatch(otp.codeHash, hash(otp.id, code))) {
        const attempts = await repo.addOtpAttempt(db, otp.id);
        throw new AppError(attempts >= OTP_MAX_ATTEMPTS ? 'too_many_attempts' : 'wrong_code');
      }
      return otp.id;
    },

    /** Single use: consumed in the transaction of what it unlocks; the loser of a race gets 'Wrong confirmation code'. */
    async consume(tx: Executor, otpId: string) {
      if (!(await repo.consumeOtp(tx, otpId, clock.now()))) throw new AppError('wrong_code');
    },
  };
}
