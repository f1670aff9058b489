import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { REFRESH_TOKEN_TTL_DAYS, type Locale } from '@tipcard/shared/constants';
import type { RegisterBody } from '@tipcard/shared/auth/schemas';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import type { Clock } from '../../lib/clock.ts';
import * as users from '../users/users.service.ts';
import { signAccessToken, type AccessTokenClaims, type AccessTokenKeys } from './access-token.ts';
import * as repo from './auth.repository.ts';
import type { OtpService } from './otp.service.ts';
import { recordReferral } from '../referrals/referrals.service.ts';

export {
  signAccessToken,
  verifyAccessToken,
  verifyUnderKeys,
  type AccessTokenClaims,
  type AccessTokenKeys,
} from './access-token.ts';

export interface Tokens {
  jwt: string;
  refresh_token: string;
}

export interface AuthServiceDeps {
  db: Database;
  clock: Clock;
  otp: OtpService;
  keys: AccessTokenKeys;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService({ db, clock, otp, keys }: AuthServiceDeps) {
  /** A new refresh family (sign-in) or the next token of one (rotation); the family's end never moves. */
  async function issueTokens(tx: Executor, userId: string, family?: { id: string; expiresAt: Date }): Promise<Tokens> {
    const now = clock.now();
    const refreshToken = randomBytes(32).toString('base64url');
    await repo.insertRefreshToken(tx, {
      userId,
      familyId: family?.id ?? randomUUID(),
      tokenHash: hashToken(refreshToken),
      expiresAt: family?.expiresAt ?? new Date(now.getTime() + REFRESH_TOKEN_TTL_DAYS * 24 * 60 * 60 * 1000),
      createdAt: now,
    });
    // Read in the transaction that stores the refresh token: a deletion committing meanwhile ends this session too.
    const sessionVersion = (await users.findUserById(tx, userId))?.sessionVersion ?? 0;
    return { jwt: await signAccessToken(keys, { userId, sessionVersion }, now), refresh_token: refreshToken };
  }

  /**
   * The user's row first, as the erasure takes it before the codes and sessions it deletes: taken after them (a code
   * consumed, a refresh token rotated, then the new token's key check on the user), a sign-in and the erasure of the
   * same account waited on each other (a deadlock the simulator found). Answers false for an account erased meanwhile.
   */
  async function lockSignedInUser(tx: Executor, userId: string): Promise<boolean> {
    const current = await users.keyShareLockUser(tx, userId);
    return Boolean(current && !current.erasedAt);
  }

  return {
    /**
     * The auth plugin's question for every guarded call: a token still stands while the user's sessions have not
     * ended since it was issued (deletion, erasure) and the user is not blocked by compliance.
     */
    async sessionIsLive({ userId, sessionVersion }: AccessTokenClaims): Promise<boolean> {
      const state = await users.findSessionState(db, userId);
      return state !== undefined && state.sessionVersion === sessionVersion && !state.blockedAt && !state.erasedAt;
    },

    async requestOtp(phone: string, locale: Locale) {
      const user = await users.findUserByPhone(db, phone);
      if (!user) throw new AppError('user_not_found');
      if (user.blockedAt) throw new AppError('user_blocked');
      return otp.send(phone, 'login', locale);
    },

    /** `language`: the app's, kept as the one the user's texts are written in (docs/decisions/0032). */
    async loginCheck(phone: string, code: string, language: Locale | null): Promise<Tokens> {
      const user = await users.findUserByPhone(db, phone);
      if (!user) throw new AppError('username_not_found');
      if (user.blockedAt) throw new AppError('user_blocked');
      const otpId = await otp.check({ phone, purpose: 'login' }, code);
      return db.transaction(async (tx) => {
        if (!(await lockSignedInUser(tx, user.id))) throw new AppError('username_not_found');
        await otp.consume(tx, otpId);
        if (language) await users.updateLanguage(tx, user.id, language);
        return issueTokens(tx, user.id);
      });
    },

    async register(input: RegisterBody & { username: string }, locale: Locale) {
      if (await users.findUserByPhone(db, input.username)) throw AppError.field('phone_taken', 'username');
      const registration = await repo.insertRegistration(db, {
        phone: input.username,
        referralCode: input.referral_code || null,
        promoSource: input.promo_source || null,
        createdAt: clock.now(),
      });
      await otp.send(registration.phone, 'register', locale, registration.id);
      return { uuid: registration.id };
    },

    async resendRegistrationCode(registrationId: string, locale: Locale) {
      const registration = await repo.findRegistration(db, registrationId);
      if (!registration || registration.verifiedAt) throw new AppError('not_found');
      return otp.send(registration.phone, 'register', locale, registration.id);
    },

    /** The code proves the phone; the user, its private client and the first tokens are made in one transaction. */
    async verifyRegistration(registrationId: string, code: string, language: Locale): Promise<Tokens> {
      const registration = await repo.findRegistration(db, registrationId);
      if (!registration) throw new AppError('not_found');
      const otpId = await otp.check({ phone: registration.phone, purpose: 'register', registrationId }, code);
      try {
        return await db.transaction(async (tx) => {
          await otp.consume(tx, otpId);
          const { user } = await users.createUserWithPrivateClient(tx, {
            phone: registration.phone,
            promoSource: registration.promoSource,
            referralCode: registration.referralCode,
            language,
          });
          if (user.referredByUserId)
            await recordReferral(tx, { referrerUserId: user.referredByUserId, friendUserId: user.id, joinedAt: clock.now() });
          await repo.markRegistrationVerified(tx, registration.id, user.id, clock.now());
          return issueTokens(tx, user.id);
        });
      } catch (error) {
        // Two sign-ups of one phone verified at once: the second finds the phone taken.
        if (isUniqueViolation(error)) throw AppError.field('phone_taken', 'username');
        throw error;
      }
    },

    /**
     * Rotates a refresh token. Presenting a token that was already rotated or revoked means it leaked: the whole
     * family is revoked, so both the thief and the owner must sign in again.
     */
    async refresh(refreshToken: string, language: Locale | null): Promise<Tokens> {
      const now = clock.now();
      const stored = await repo.findRefreshToken(db, hashToken(refreshToken));
      if (!stored) throw new AppError('invalid_refresh_token');
      // A user blocked by compliance keeps no session past their current access token (15 minutes).
      if ((await users.findUserById(db, stored.userId))?.blockedAt) throw new AppError('user_blocked');
      const outcome = await db.transaction(async (tx) => {
        if (!(await lockSignedInUser(tx, stored.userId))) return null;
        if (stored.revokedAt || stored.expiresAt <= now || !(await repo.rotateRefreshToken(tx, stored.id, now))) {
          await repo.revokeRefreshFamily(tx, stored.familyId, now);
          return null;
        }
        if (language) await users.updateLanguage(tx, stored.userId, language);
        return issueTokens(tx, stored.userId, { id: stored.familyId, expiresAt: stored.expiresAt });
      });
      if (!outcome) throw new AppError('invalid_refresh_token');
      return outcome;
    },

    async logout(refreshToken: string | undefined) {
      if (!refreshToken) return;
      const stored = await repo.findRefreshToken(db, hashToken(refreshToken));
      if (stored) await repo.revokeRefreshFamily(db, stored.familyId, clock.now());
    },
  };
}

/** Ends every session of the user (the deletion statement): each refresh token revoked, in the caller's transaction. */
export async function revokeAllSessions(tx: Executor, userId: string, now: Date): Promise<void> {
  await repo.revokeUserRefreshTokens(tx, userId, now);
  // The access tokens too: they carry the old session version, which the auth plugin now refuses.
  await users.endAccessTokens(tx, userId);
}

/** Erasure: the codes and sign-ups that carry the user's phone number. */
export async function erasePhoneTraces(tx: Executor, phone: string): Promise<void> {
  await repo.deletePhoneTraces(tx, phone);
}
