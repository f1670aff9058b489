import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import QRCode from 'qrcode';
import { isUuid } from '@tipcard/shared/uuid';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { verifyUnderKeys, type AccessTokenKeys } from '../auth/auth.service.ts';
import {
  hashPassword,
  hashToken,
  isStrongPassword,
  matchTotp,
  newTotpSecret,
  otpauthUri,
  seal,
  unsealUnderAny,
  verifyPassword,
} from './credentials.ts';
import { recordAudit, type Actor } from './ops-audit.ts';
import * as repo from './ops.repository.ts';

export const OPERATOR_ROLES = ['support', 'compliance', 'finance', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Operator tokens name this audience; the user API's tokens name another, so neither opens the other's routes. */
const ISSUER = 'tipcard';
export const OPS_AUDIENCE = 'tipcard-ops';
export const SESSION_IDLE_MS = 30 * 60_000;
/** However active, an operator signs in again after a working day. */
const SESSION_MAX_MS = 12 * 60 * 60_000;
export const MAX_FAILED_SIGN_INS = 5;
export const LOCKOUT_MS = 15 * 60_000;
const ENROLMENT_TTL_MS = 72 * 60 * 60_000;
/** A well-formed hash no password matches: checked against when there is no password to check, for the same work. */
const UNUSABLE_PASSWORD_HASH = 'scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export interface Operator {
  id: string;
  email: string;
  role: OperatorRole;
  sessionId: string;
}

export const publicOperator = (row: repo.OperatorRow) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  enrolled: row.enrolledAt !== null,
  locked_until: row.lockedUntil?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});

export type OpsAuthService = ReturnType<typeof createOpsAuthService>;

/** Operators: creation with a one-time enrolment link, enrolment (password + TOTP), sign-in, sessions. */
export function createOpsAuthService(deps: {
  db: Database;
  clock: Clock;
  keys: AccessTokenKeys;
  /** JWT_SECRET: seals the operators' TOTP secrets. */
  serverSecret: string;
  /** JWT_SECRET_PREVIOUS during a rotation: secrets it sealed still open, and `resealOne` moves them to the current. */
  previousServerSecret: string | undefined;
  publicUrl: string;
}) {
  const { db, clock, keys, serverSecret, previousServerSecret } = deps;
  const openSealed = (sealed: string) => unsealUnderAny([serverSecret, previousServerSecret], sealed).plain;

  const enrolmentLink = (token: string) => `${deps.publicUrl}/ops/#/enrol/${token}`;

  async function liveEnrolment(token: string) {
    const row = await repo.findOperatorByEnrolmentToken(db, hashToken(token));
    if (!row || row.enrolledAt || !row.enrolmentExpiresAt || row.enrolmentExpiresAt <= clock.now())
      throw new AppError('ops_enrolment_invalid');
    return row;
  }

  /**
   * Takes one sign-in attempt before any password is looked at: the operator's row is locked for the count, so
   * attempts racing on any instance are numbered one by one and at most MAX_FAILED_SIGN_INS of them are evaluated.
   * The last one allowed starts the lockout (a crash after it cannot leave a count that never ends); a successful
   * sign-in lifts it. Answers undefined for no usable operator, attempt undefined while locked out.
   */
  async function takeAttempt(email: string, now: Date) {
    return db.transaction(async (tx) => {
      const row = await repo.findOperatorByEmailForUpdate(tx, email);
      if (!row?.passwordHash || row.disabledAt) return undefined;
      if (row.lockedUntil && row.lockedUntil > now) return { row, passwordHash: row.passwordHash, attempt: undefined };
      // A lockout that has ended starts the count again.
      const attempt = (row.lockedUntil ? 0 : row.failedAttempts) + 1;
      await repo.updateOperator(tx, row.id, {
        failedAttempts: attempt,
        lockedUntil: attempt >= MAX_FAILED_SIGN_INS ? new Date(now.getTime() + LOCKOUT_MS) : null,
      });
      return { row, passwordHash: row.passwordHash, attempt };
    });
  }

  return {
    /** A new operator (admin's screen, or `npm run ops:create-admin`); answers the one-time enrolment link. */
    async createOperator(input: { email: string; role: OperatorRole }, audit: { actor: Actor; ip: string | null }) {
      const token = randomBytes(32).toString('base64url');
      const email = input.email.trim().toLowerCase();
      try {
        const row = await db.transaction(async (tx) => {
          const created = await repo.insertOperator(tx, {
            email,
            role: input.role,
            totpSecretSealed: seal(serverSecret, newTotpSecret()),
            enrolmentTokenHash: hashToken(token),
            enrolmentExpiresAt: new Date(clock.now().getTime() + ENROLMENT_TTL_MS),
          });
          await recordAudit(tx, audit, {
            action: 'operator.create',
            subjectType: 'operator',
            subjectId: created.id,
            before: null,
            after: { email, role: input.role },
          });
          return created;
        });
        return { operator: publicOperator(row), enrolment_url: enrolmentLink(token) };
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('operator_exists');
        throw error;
      }
    },

    async listOperators() {
      return (await repo.listOperators(db)).map(publicOperator);
    },

    /** What the enrolment page shows: the e-mail and the TOTP secret as a QR code and as text. */
    async enrolmentInfo(token: string) {
      const row = await liveEnrolment(token);
      const secret = openSealed(row.totpSecretSealed);
      const uri = otpauthUri(secret, row.email);
      return { email: row.email, secret, otpauth_url: uri, qr_svg: await QRCode.toString(uri, { type: 'svg', margin: 1 }) };
    },

    /** Sets the password and proves the authenticator works with one code; the link dies with it. */
    async enrol(token: string, input: { password: string; code: string }, ip: string | null) {
      const row = await liveEnrolment(token);
      if (!isStrongPassword(input.password)) throw AppError.field('weak_password', 'password');
      const step = matchTotp(openSealed(row.totpSecretSealed), input.code, clock.now());
      if (step === undefined) throw AppError.field('ops_wrong_code', 'code');
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        const fresh = await repo.findOperatorForUpdate(tx, row.id);
        if (!fresh || fresh.enrolledAt) throw new AppError('ops_enrolment_invalid');
        await repo.updateOperator(tx, row.id, {
          passwordHash,
          totpLastStep: step,
          enrolledAt: clock.now(),
          enrolmentTokenHash: null,
          enrolmentExpiresAt: null,
        });
        await recordAudit(
          tx,
          { actor: { operatorId: row.id, label: row.email }, ip },
          { action: 'operator.enrol', subjectType: 'operator', subjectId: row.id, before: null, after: { enrolled: true } },
        );
      });
      return { email: row.email };
    },

    /**
     * E-mail, password and a TOTP code, all checked before answering one way for any wrong part. A code of a step
     * already used is refused (replay). The attempt is counted before the password is checked, and five failures lock
     * the operator out for 15 minutes. An unknown e-mail, a wrong part and a lockout get the same answer after the
     * same scrypt work, so neither the answer nor its timing tells which e-mails are operators'.
     */
    async signIn(input: { email: string; password: string; code: string }, ip: string) {
      const now = clock.now();
      const taken = await takeAttempt(input.email.trim().toLowerCase(), now);
      if (!taken?.attempt) {
        await verifyPassword(UNUSABLE_PASSWORD_HASH, input.password);
        throw new AppError('ops_sign_in_failed');
      }
      const { row, passwordHash, attempt } = taken;
      const passwordOk = await verifyPassword(passwordHash, input.password);
      const step = matchTotp(openSealed(row.totpSecretSealed), input.code, now);
      const replayed = step !== undefined && row.totpLastStep !== null && step <= row.totpLastStep;
      if (!passwordOk || step === undefined || replayed) {
        await recordAudit(
          db,
          { actor: { operatorId: row.id, label: row.email }, ip },
          {
            action: attempt >= MAX_FAILED_SIGN_INS ? 'operator.locked_out' : 'operator.sign_in_failed',
            subjectType: 'operator',
            subjectId: row.id,
            before: null,
            after: { failed_attempts: attempt },
          },
        );
        throw new AppError('ops_sign_in_failed');
      }
      const session = await db.transaction(async (tx) => {
        const fresh = (await repo.findOperatorForUpdate(tx, row.id))!;
        // Two sign-ins racing with one code: only the first takes the step.
        if (fresh.totpLastStep !== null && step <= fresh.totpLastStep) return undefined;
        await repo.updateOperator(tx, row.id, { totpLastStep: step, failedAttempts: 0, lockedUntil: null });
        const created = await repo.insertSession(tx, {
          operatorId: row.id,
          lastSeenAt: now,
          expiresAt: new Date(now.getTime() + SESSION_MAX_MS),
        });
        await recordAudit(
          tx,
          { actor: { operatorId: row.id, label: row.email }, ip },
          {
            action: 'operator.sign_in',
            subjectType: 'operator',
            subjectId: row.id,
            before: null,
            after: { session: created.id },
          },
        );
        return created;
      });
      if (!session) throw new AppError('ops_sign_in_failed');
      const issuedAt = Math.floor(now.getTime() / 1000);
      const token = await new SignJWT({ role: row.role })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(session.id)
        .setIssuer(ISSUER)
        .setAudience(OPS_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(Math.floor(session.expiresAt.getTime() / 1000))
        .sign(keys.secret);
      return { token, operator: publicOperator(row), idle_timeout_seconds: SESSION_IDLE_MS / 1000 };
    },

    /** The operator of a bearer token, or null: a valid signature is not enough, the session must be alive. */
    async authenticate(token: string): Promise<Operator | null> {
      const now = clock.now();
      let sessionId: string | undefined;
      try {
        const { payload } = await verifyUnderKeys(token, keys, {
          issuer: ISSUER,
          audience: OPS_AUDIENCE,
          algorithms: ['HS256'],
          currentDate: now,
        });
        sessionId = payload.sub;
      } catch {
        return null;
      }
      if (!sessionId || !isUuid(sessionId)) return null;
      const session = await repo.touchLiveSession(db, sessionId, now, new Date(now.getTime() - SESSION_IDLE_MS));
      if (!session) return null;
      const row = await repo.findOperatorById(db, session.operatorId);
      if (!row || row.disabledAt) return null;
      return { id: row.id, email: row.email, role: row.role, sessionId: session.id };
    },

    /**
     * The `ops.reseal` job's step during a JWT secret rotation: one operator's TOTP secret still sealed under
     * JWT_SECRET_PREVIOUS is sealed again under JWT_SECRET, so removing the previous secret locks no one out. Only the
     * row as it was read is replaced, so an enrolment at the same moment is never overwritten. Operators are few; the
     * scan reads them all.
     */
    async resealOne(): Promise<boolean> {
      if (!previousServerSecret) return false;
      for (const row of await repo.listSealedTotpSecrets(db)) {
        const opened = unsealUnderAny([serverSecret, previousServerSecret], row.totpSecretSealed);
        if (opened.serverSecret === serverSecret) continue;
        await repo.replaceSealedTotpSecret(db, row.id, row.totpSecretSealed, seal(serverSecret, opened.plain));
        return true;
      }
      return false;
    },

    async signOut(operator: Operator) {
      await repo.endSession(db, operator.sessionId, clock.now());
    },
  };
}
